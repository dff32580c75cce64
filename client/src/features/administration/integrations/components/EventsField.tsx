import { Checkbox, Fieldset, SimpleGrid, Text } from '@chakra-ui/react';
import { WEBHOOK_ALL_EVENTS, WEBHOOK_EVENT_TYPES, type WebhookSubscription } from '@shared/administration/integrations';
import { INTEGRATIONS_TEXTS } from '../integrations-texts';

const T = INTEGRATIONS_TEXTS.WEBHOOKS;

/** The events an endpoint subscribes to: all of them ("*"), or those ticked. */
export function EventsField({
  value,
  onChange,
  error,
}: {
  value: WebhookSubscription[];
  onChange: (next: WebhookSubscription[]) => void;
  error?: string;
}) {
  const all = value.includes(WEBHOOK_ALL_EVENTS);
  return (
    <Fieldset.Root invalid={!!error}>
      <Fieldset.Legend>{T.EVENTS}</Fieldset.Legend>
      <Checkbox.Root
        colorPalette="blue"
        checked={all}
        onCheckedChange={(e) => onChange(e.checked === true ? [WEBHOOK_ALL_EVENTS] : [])}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{T.ALL_EVENTS}</Checkbox.Label>
      </Checkbox.Root>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="1">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox.Root
            key={type}
            colorPalette="blue"
            disabled={all}
            checked={all || value.includes(type)}
            onCheckedChange={(e) =>
              onChange(WEBHOOK_EVENT_TYPES.filter((t) => (t === type ? e.checked === true : value.includes(t))))
            }
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>
              <Text as="span" fontFamily="mono" fontSize="sm">
                {type}
              </Text>
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
      </SimpleGrid>
      <Fieldset.ErrorText>{error}</Fieldset.ErrorText>
    </Fieldset.Root>
  );
}

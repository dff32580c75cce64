import { Alert, Button, Clipboard, Code, HStack } from '@chakra-ui/react';
import { INTEGRATIONS_TEXTS as T } from '../integrations-texts';

/** A secret (an API key, a signing secret) shown this once, with a copy button and a way to put it away. */
export function SecretShownOnce({
  title,
  text,
  value,
  copyLabel,
  note,
  testId,
  onDone,
}: {
  title: string;
  text: string;
  /** A further sentence under the text (e.g. until when a rotated-out secret still signs). */
  note?: string;
  value: string;
  copyLabel: string;
  testId: string;
  onDone: () => void;
}) {
  return (
    <Alert.Root status="warning" data-testid={testId} alignItems="start">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{text}</Alert.Description>
        {note && <Alert.Description data-testid={`${testId}-note`}>{note}</Alert.Description>}
        <Code data-testid={`${testId}-value`} wordBreak="break-all" px="2" py="1">
          {value}
        </Code>
        <HStack>
          <Clipboard.Root value={value}>
            <Clipboard.Trigger asChild>
              <Button size="sm" colorPalette="blue" aria-label={copyLabel}>
                <Clipboard.Indicator copied={T.COPIED}>{copyLabel}</Clipboard.Indicator>
              </Button>
            </Clipboard.Trigger>
          </Clipboard.Root>
          <Button size="sm" variant="outline" onClick={onDone}>
            {T.DONE}
          </Button>
        </HStack>
      </Alert.Content>
    </Alert.Root>
  );
}

/** A section's list that could not be read (a 404 while the server lacks it, a fault): said calmly, no crash. */
export function SectionUnavailable({ testId }: { testId: string }) {
  return (
    <Alert.Root status="info" data-testid={testId}>
      <Alert.Indicator />
      <Alert.Title>{T.UNAVAILABLE}</Alert.Title>
    </Alert.Root>
  );
}

import { Alert, Button, Code, HStack } from '@chakra-ui/react';
import { CopyButton } from './ui/copy-button';

export const SECRET_SHOWN_ONCE_TEXTS = { DONE: 'I have copied it' } as const;

/**
 * A secret (an API key, a signing secret, a client secret, a provisioning token) shown this once, with a copy button
 * and a way to put it away. `testId` names the alert, `<testId>-value` the secret, `<testId>-note` the note.
 */
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
          <CopyButton value={value} label={copyLabel} size="sm" colorPalette="blue" />
          <Button size="sm" variant="outline" onClick={onDone}>
            {SECRET_SHOWN_ONCE_TEXTS.DONE}
          </Button>
        </HStack>
      </Alert.Content>
    </Alert.Root>
  );
}

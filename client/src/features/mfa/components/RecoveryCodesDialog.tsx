import { Button, Clipboard, Dialog, HStack, List, Portal, Text } from '@chakra-ui/react';
import { saveBlob } from '@/lib/download';
import { recoveryCodesFile, RECOVERY_TEXTS } from '../recovery-texts';

/** Issue 14: the recovery codes, shown once (after enabling MFA or regenerating), with Copy and Download as .txt. */
export function RecoveryCodesDialog({
  codes,
  email,
  onDone,
}: {
  codes: string[] | null;
  email?: string;
  onDone: () => void;
}) {
  const text = codes ? recoveryCodesFile(codes, email) : '';
  return (
    <Dialog.Root
      open={!!codes}
      onOpenChange={(e) => !e.open && onDone()}
      placement="center"
      size="md"
      closeOnInteractOutside={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="recovery-codes-dialog">
            <Dialog.Header>
              <Dialog.Title>{RECOVERY_TEXTS.SHOW_TITLE}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontSize="sm" mb="4">
                {RECOVERY_TEXTS.SHOW_INTRO}
              </Text>
              <List.Root
                as="ol"
                listStyle="none"
                display="grid"
                gridTemplateColumns="repeat(2, 1fr)"
                gap="2"
                data-testid="recovery-codes"
              >
                {codes?.map((c) => (
                  <List.Item
                    key={c}
                    fontFamily="mono"
                    fontSize="md"
                    bg="bg.muted"
                    rounded="sm"
                    px="3"
                    py="1"
                    textAlign="center"
                    data-testid="recovery-code"
                  >
                    {c}
                  </List.Item>
                ))}
              </List.Root>
              <HStack mt="4" gap="2">
                <Clipboard.Root value={codes?.join('\n') ?? ''}>
                  <Clipboard.Trigger asChild>
                    <Button size="sm" variant="outline" aria-label="Copy recovery codes">
                      <Clipboard.Indicator copied="Copied">{RECOVERY_TEXTS.COPY}</Clipboard.Indicator>
                    </Button>
                  </Clipboard.Trigger>
                </Clipboard.Root>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), RECOVERY_TEXTS.FILE_NAME)}
                >
                  {RECOVERY_TEXTS.DOWNLOAD}
                </Button>
              </HStack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="blue" onClick={onDone}>
                {RECOVERY_TEXTS.SAVED}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

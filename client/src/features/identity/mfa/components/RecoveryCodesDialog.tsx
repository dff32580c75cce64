import { Button, HStack, List, Text } from '@chakra-ui/react';
import { AppDialog } from '@/components/ui/app-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { saveBlob } from '@/lib/download';
import { recoveryCodesFile, RECOVERY_TEXTS } from '../recovery-texts';

/** The recovery codes, shown once (after enabling MFA or regenerating), with Copy and Download as .txt. */
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
    <AppDialog
      open={!!codes}
      onClose={onDone}
      size="md"
      closeOnInteractOutside={false}
      title={RECOVERY_TEXTS.SHOW_TITLE}
      testId="recovery-codes-dialog"
      footer={
        <Button colorPalette="blue" onClick={onDone}>
          {RECOVERY_TEXTS.SAVED}
        </Button>
      }
    >
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
        <CopyButton
          value={codes?.join('\n') ?? ''}
          label="Copy recovery codes"
          text={RECOVERY_TEXTS.COPY}
          size="sm"
          variant="outline"
        />
        <Button
          size="sm"
          variant="outline"
          onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), RECOVERY_TEXTS.FILE_NAME)}
        >
          {RECOVERY_TEXTS.DOWNLOAD}
        </Button>
      </HStack>
    </AppDialog>
  );
}

import { useEffect, useState } from 'react';
import { Box, Button, Code, Heading, HStack, Image, QrCode, Spinner, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { AppDialog } from '@/components/ui/app-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { errorMessage } from '@/lib/api';
import { mfaApi } from '../api/mfa-api';
import { MFA_TEXTS } from '../mfa-texts';
import { CodeEntryActions, CodeEntryField, useCodeEntry } from './CodeEntryDialog';

/**
 * Spec 000 §2 'Enabling MFA': Step I scan the QR code (or show and copy the setup key), Step II enter
 * the 6-digit code; Confirm reads 'Loading...' while busy and a wrong code shows under the field.
 */
export function EnableMfaDialog({
  open,
  onClose,
  onEnabled,
}: {
  open: boolean;
  onClose: () => void;
  onEnabled: (recoveryCodes?: string[]) => void;
}) {
  const [showKey, setShowKey] = useState(false);

  const enrol = useMutation({ mutationFn: mfaApi.enable });
  // The recovery codes come with the answer, to be shown once.
  const entry = useCodeEntry(mfaApi.verify, (res) => onEnabled(res.recoveryCodes));

  const { mutate: startEnrolment, reset } = enrol;
  // Each opening starts empty (state adjusted while rendering) and asks the server for a new secret (an effect).
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (open) {
      entry.clear();
      setShowKey(false);
    }
  }
  useEffect(() => {
    if (open) startEnrolment();
    else reset();
  }, [open, startEnrolment, reset]);

  const data = enrol.data;
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={MFA_TEXTS.DIALOG_TITLE}
      testId="enable-mfa-dialog"
      size="md"
      footer={<CodeEntryActions entry={entry} onCancel={onClose} disabled={!data} />}
    >
      {enrol.isPending && (
        <HStack>
          <Spinner size="sm" />
          <Text>{MFA_TEXTS.LOADING}</Text>
        </HStack>
      )}
      {enrol.isError && <Text color="fg.error">Error: {errorMessage(enrol.error, 'Something went wrong')}</Text>}
      {data && (
        <Stack gap="5">
          <Box>
            <Heading size="sm" mb="1">
              Step I
            </Heading>
            <Text fontSize="sm" mb="2">
              Scan the QR code with an authenticator app (for example Google Authenticator or Microsoft Authenticator).
            </Text>
            {data.qrCode ? (
              <Image src={data.qrCode} alt="MFA QR code" boxSize="200px" mx="auto" data-testid="mfa-qr-code" />
            ) : (
              <QrCode.Root
                value={data.secret.otpauth_url}
                encoding={{ ecc: 'M' }}
                size="xl"
                mx="auto"
                data-testid="mfa-qr-code"
              >
                <QrCode.Frame>
                  <QrCode.Pattern />
                </QrCode.Frame>
              </QrCode.Root>
            )}
            <Button size="xs" variant="plain" colorPalette="blue" onClick={() => setShowKey((s) => !s)}>
              {showKey ? 'Hide setup key' : "Can't scan it? Show setup key"}
            </Button>
            {showKey && (
              <HStack mt="2" gap="2">
                <Code data-testid="mfa-setup-key" wordBreak="break-all" p="2">
                  {data.secret.base32}
                </Code>
                <CopyButton value={data.secret.base32} label="Copy setup key" text="Copy" size="xs" variant="outline" />
              </HStack>
            )}
          </Box>
          <Box>
            <Heading size="sm" mb="1">
              Step II
            </Heading>
            <CodeEntryField entry={entry} />
          </Box>
        </Stack>
      )}
    </AppDialog>
  );
}

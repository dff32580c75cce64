import { useState } from 'react';
import { Button, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import type { SelfDeletionRefusal } from '@shared/administration/privacy';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toaster';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { downloadFile, formatBytes } from '@/lib/download';
import { mySecurityApi, useMyPrivacy } from '../api/my-security-api';
import { PRIVACY_TEXTS as T } from '../my-security-texts';

const REFUSALS: Record<SelfDeletionRefusal, string> = {
  SELF_DELETION_OFF: T.REFUSED_OFF,
  DIRECTORY_MANAGED: T.REFUSED_DIRECTORY,
  LAST_SITE_ADMIN: T.REFUSED_LAST_SITE_ADMIN,
  E_SUPPORT: T.REFUSED_SUPPORT,
};

/**
 * Your data (docs/privacy.md): download everything the portal keeps about you as one JSON file, and delete your own
 * account where your organisation allows it. Both are sensitive: the step-up dialog asks first when needed.
 */
export function MyData() {
  const privacy = useMyPrivacy();
  const { signOut } = useAuth();
  const [received, setReceived] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: mySecurityApi.deleteAccount,
    onSuccess: (r) => {
      setConfirming(false);
      void signOut(r.message);
    },
    onError: (e) => toaster.create({ type: 'error', title: errorMessage(e, T.DELETE_FAILED) }),
  });
  const download = async () => {
    setReceived(0);
    try {
      await downloadFile('api/me/data-export', 'my-data.json', (p) => setReceived(p.received));
      toaster.create({ type: 'success', title: T.DOWNLOADED });
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e, T.DOWNLOAD_FAILED) });
    } finally {
      setReceived(null);
    }
  };
  return (
    <Stack gap="3" as="section" aria-labelledby="my-data">
      <Heading as="h2" size="lg" id="my-data">
        {T.TITLE}
      </Heading>
      <Text>{T.DOWNLOAD_HELP}</Text>
      <HStack gap="3">
        <Button
          size="sm"
          variant="outline"
          colorPalette="blue"
          onClick={download}
          loading={received !== null}
          loadingText={received ? `${T.DOWNLOADING} ${formatBytes(received)}` : T.DOWNLOADING}
          data-testid="download-my-data"
        >
          {T.DOWNLOAD}
        </Button>
      </HStack>
      {privacy.isLoading && <Spinner size="sm" />}
      {privacy.data && (
        <>
          <Text data-testid="retention-note">
            {T.retention(privacy.data.auditRetentionDays, privacy.data.signInHistoryDays)}
          </Text>
          {privacy.data.canDeleteAccount ? (
            <HStack>
              <Button
                size="sm"
                colorPalette="red"
                variant="outline"
                onClick={() => setConfirming(true)}
                data-testid="delete-my-account"
              >
                {T.DELETE}
              </Button>
            </HStack>
          ) : (
            privacy.data.refusal && (
              <Text color="fg.muted" data-testid="delete-refused">
                {REFUSALS[privacy.data.refusal]}
              </Text>
            )
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={T.DELETE_TITLE}
        message={T.DELETE_QUESTION}
        confirmLabel={T.DELETE_CONFIRM}
        cancelLabel="Cancel"
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

import { useState } from 'react';
import { Button, Dialog, HStack, Portal, Text } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api';
import { DEVICES_QUERY_KEY, recoveryApi, RECOVERY_QUERY_KEY } from '../api/recovery-api';
import { codesLeftText, RECOVERY_TEXTS } from '../recovery-texts';
import { isCompleteCode, MFA_TEXTS } from '../texts';
import { CodeField } from './CodeField';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';

/** Issue 14, in the profile's MFA panel: how many recovery codes are left, and "Regenerate recovery codes". */
export function RecoveryCodesSection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: RECOVERY_QUERY_KEY, queryFn: recoveryApi.status });
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const remaining = status.data?.remaining;
  return (
    <HStack justify="space-between" mt="3" data-testid="recovery-codes-section">
      <Text fontSize="sm">
        Recovery codes:{' '}
        <Text as="span" fontWeight="semibold" data-testid="recovery-codes-left">
          {remaining === undefined ? MFA_TEXTS.LOADING : codesLeftText(remaining)}
        </Text>
      </Text>
      <Button size="sm" variant="outline" onClick={() => setAsking(true)}>
        {RECOVERY_TEXTS.REGENERATE}
      </Button>
      {/* Mounted only while asked for, so each opening starts empty. */}
      {asking && (
        <RegenerateDialog
          onClose={() => setAsking(false)}
          onCodes={(fresh) => {
            setAsking(false);
            setCodes(fresh);
            void queryClient.invalidateQueries({ queryKey: RECOVERY_QUERY_KEY });
            void queryClient.invalidateQueries({ queryKey: DEVICES_QUERY_KEY });
          }}
        />
      )}
      <RecoveryCodesDialog codes={codes} onDone={() => setCodes(null)} />
    </HStack>
  );
}

/** Asks for a current TOTP code, as switching MFA off does. */
function RegenerateDialog({ onClose, onCodes }: { onClose: () => void; onCodes: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const regenerate = useMutation({
    mutationFn: recoveryApi.regenerate,
    onSuccess: (res) => onCodes(res.codes),
    onError: (error) => setCodeError(errorMessage(error, 'Something went wrong')),
  });
  function confirm() {
    if (!isCompleteCode(code)) {
      setCodeError(MFA_TEXTS.CODE_INVALID);
      return;
    }
    setCodeError(null);
    regenerate.mutate(code);
  }
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="regenerate-codes-dialog">
            <Dialog.Header>
              <Dialog.Title>{RECOVERY_TEXTS.REGENERATE_TITLE}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontSize="sm" mb="3">
                {RECOVERY_TEXTS.REGENERATE_INTRO}
              </Text>
              <CodeField
                label="Enter the 6-digit code from your authenticator app"
                value={code}
                onChange={setCode}
                error={codeError}
                onEnter={confirm}
              />
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button colorPalette="blue" onClick={confirm} disabled={regenerate.isPending}>
                {regenerate.isPending ? MFA_TEXTS.LOADING : 'Confirm'}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

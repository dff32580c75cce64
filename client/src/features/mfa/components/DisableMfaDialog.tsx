import { useState } from 'react';
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api';
import { mfaApi } from '../api/mfa-api';
import { isCompleteCode, MFA_TEXTS } from '../texts';
import { CodeField } from './CodeField';

/** Switching one's own MFA off asks for a current code. */
export function DisableMfaDialog({
  open,
  onClose,
  onDisabled,
}: {
  open: boolean;
  onClose: () => void;
  onDisabled: () => void;
}) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const disable = useMutation({
    mutationFn: mfaApi.disable,
    onSuccess: () => onDisabled(),
    onError: (error) => setCodeError(errorMessage(error, 'Something went wrong')),
  });

  // Each opening starts empty (state adjusted while rendering, not in an effect).
  const [wasOpen, setWasOpen] = useState(open);
  if (wasOpen !== open) {
    setWasOpen(open);
    if (open) {
      setCode('');
      setCodeError(null);
    }
  }

  function confirm() {
    if (!isCompleteCode(code)) {
      setCodeError(MFA_TEXTS.CODE_INVALID);
      return;
    }
    setCodeError(null);
    disable.mutate(code);
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="disable-mfa-dialog">
            <Dialog.Header>
              <Dialog.Title>Disabling MFA</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text mb="3" fontSize="sm">
                Enter the current 6-digit code from your authenticator app to disable MFA.
              </Text>
              <CodeField label="MFA code" value={code} onChange={setCode} error={codeError} onEnter={confirm} />
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button colorPalette="red" onClick={confirm} disabled={disable.isPending}>
                {disable.isPending ? MFA_TEXTS.LOADING : 'Confirm'}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

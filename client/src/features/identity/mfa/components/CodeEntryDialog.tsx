import { ReactNode, useState } from 'react';
import { Dialog, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { AppDialog, DialogActions } from '@/components/ui/app-dialog';
import { errorMessage } from '@/lib/api';
import { isCompleteCode, MFA_TEXTS } from '../mfa-texts';
import { CodeField } from './CodeField';

export const CODE_FIELD_LABEL = 'Enter the 6-digit code from your authenticator app';

/**
 * A 6-digit code sent to the server: Confirm checks the form first (MFA_TEXTS.CODE_INVALID under the field),
 * the server's refusal shows under the field too.
 */
export function useCodeEntry<T>(send: (code: string) => Promise<T>, onSuccess: (res: T) => void) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: send,
    onSuccess,
    onError: (error) => setCodeError(errorMessage(error, 'Something went wrong')),
  });
  function confirm() {
    if (!isCompleteCode(code)) {
      setCodeError(MFA_TEXTS.CODE_INVALID);
      return;
    }
    setCodeError(null);
    mutation.mutate(code);
  }
  function clear() {
    setCode('');
    setCodeError(null);
  }
  return { code, setCode, codeError, confirm, clear, pending: mutation.isPending };
}
export type CodeEntry = ReturnType<typeof useCodeEntry>;

/** The code's field wired to an entry (Enter confirms). */
export function CodeEntryField({ entry, label = CODE_FIELD_LABEL }: { entry: CodeEntry; label?: string }) {
  return (
    <CodeField
      label={label}
      value={entry.code}
      onChange={entry.setCode}
      error={entry.codeError}
      onEnter={entry.confirm}
    />
  );
}

/** Cancel, and Confirm reading 'Loading...' while the code is checked. */
export function CodeEntryActions({
  entry,
  onCancel,
  colorPalette,
  disabled,
}: {
  entry: CodeEntry;
  onCancel: () => void;
  colorPalette?: string;
  disabled?: boolean;
}) {
  return (
    <DialogActions
      onCancel={onCancel}
      confirmLabel={entry.pending ? MFA_TEXTS.LOADING : 'Confirm'}
      onConfirm={entry.confirm}
      colorPalette={colorPalette}
      disabled={disabled || entry.pending}
    />
  );
}

/** A dialog asking for a current code: an intro line, the field, Cancel and Confirm. */
export function CodeEntryDialog({
  open = true,
  onClose,
  title,
  intro,
  label,
  entry,
  testId,
  size,
  colorPalette,
}: {
  open?: boolean;
  onClose: () => void;
  title: ReactNode;
  intro: ReactNode;
  label?: string;
  entry: CodeEntry;
  testId: string;
  size?: Dialog.RootProps['size'];
  colorPalette?: string;
}) {
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={title}
      testId={testId}
      size={size}
      footer={<CodeEntryActions entry={entry} onCancel={onClose} colorPalette={colorPalette} />}
    >
      <Text fontSize="sm" mb="3">
        {intro}
      </Text>
      <CodeEntryField entry={entry} label={label} />
    </AppDialog>
  );
}

import { useState } from 'react';
import { Button, Card, Field, Heading, Input, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { LIMITS } from '@shared/limits';
import { errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { usersApi } from '@/features/users';
import { MessageDialog } from '@/components/ui/message-dialog';
import { PasswordForm, PROFILE_TEXTS, validatePasswordForm } from '../texts';

const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** 'Change Password': old, new, confirm; afterwards an alert, then logout (spec 000 §4, §8). */
export function ChangePasswordForm() {
  const { signOut, holdSignOut } = useAuth();
  const [values, setValues] = useState<PasswordForm>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);

  const change = useMutation({
    mutationFn: (f: PasswordForm) => usersApi.updatePassword(f.newPassword, f.currentPassword),
    // The change ends this session on the server too: keep the page until the alert is closed.
    onMutate: () => ({ release: holdSignOut() }),
    onSuccess: () => {
      setValues(EMPTY);
      setChanged(true);
    },
    onError: (err, _f, context) => {
      context?.release();
      setFailure(errorMessage(err, PROFILE_TEXTS.FAILED));
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const invalid = validatePasswordForm(values, LIMITS.PASSWORD_MAX);
    setError(invalid);
    if (!invalid) change.mutate(values);
  }

  const field = (name: keyof PasswordForm, label: string, autoComplete: string, showError = false) => (
    <Field.Root invalid={showError && !!error}>
      <Field.Label>{label}</Field.Label>
      <Input type="password" name={name} autoComplete={autoComplete} value={values[name]} onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))} />
      {showError && <Field.ErrorText data-testid="password-error">{error}</Field.ErrorText>}
    </Field.Root>
  );
  const complete = values.currentPassword !== '' && values.newPassword !== '' && values.confirmPassword !== '';

  return (
    <Card.Root data-testid="change-password">
      <Card.Header>
        <Heading size="md">Change Password</Heading>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate>
          <Stack gap="4" maxW="md">
            {/* A username field lets password managers file the new password under the right account. */}
            <input type="text" name="username" autoComplete="username" hidden readOnly />
            {field('currentPassword', 'Old password', 'current-password')}
            {field('newPassword', 'New password', 'new-password')}
            {field('confirmPassword', 'Confirm new password', 'new-password', true)}
            <Button type="submit" colorPalette="blue" alignSelf="start" disabled={!complete} loading={change.isPending}>
              Confirm password
            </Button>
          </Stack>
        </form>
      </Card.Body>
      <MessageDialog open={failure !== null} title="Error" message={failure} onClose={() => setFailure(null)} />
      <MessageDialog open={changed} title="Password changed" message={PROFILE_TEXTS.PASSWORD_CHANGED} onClose={() => void signOut(PROFILE_TEXTS.PASSWORD_LOGOUT_REASON)} />
    </Card.Root>
  );
}

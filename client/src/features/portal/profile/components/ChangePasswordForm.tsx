import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Button, Field, Input, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { breachedPasswordMessage, errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { usersApi } from '@/features/identity/users';
import { MessageDialog } from '@/components/ui/message-dialog';
import { PasswordForm, PROFILE_TEXTS, validatePasswordForm } from '../profile-texts';
import { ProfileCard } from './ProfileCard';

const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The change-password rule, shown under the confirmation field. */
const passwordSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) => {
    const message = validatePasswordForm(values);
    if (message) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message });
  });

/** 'Change Password': old, new, confirm; afterwards an alert, then logout (spec 000 §4, §8). */
export function ChangePasswordForm() {
  const { signOut, holdSignOut } = useAuth();
  // Checked when submitted, and only then (spec 000 §5): the message stays until the next attempt.
  const form = useForm<PasswordForm>({
    resolver: zodResolver(passwordSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: EMPTY,
  });
  const error = form.formState.errors.confirmPassword?.message;
  const newPasswordError = form.formState.errors.newPassword?.message;
  const [failure, setFailure] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);

  const change = useMutation({
    mutationFn: (f: PasswordForm) => usersApi.updatePassword(f.newPassword, f.currentPassword),
    // The change ends this session on the server too: keep the page until the alert is closed.
    onMutate: () => ({ release: holdSignOut() }),
    onSuccess: () => {
      form.reset(EMPTY);
      setChanged(true);
    },
    onError: (err, _f, context) => {
      context?.release();
      const breached = breachedPasswordMessage(err);
      if (breached) form.setError('newPassword', { message: breached }, { shouldFocus: true });
      else setFailure(errorMessage(err, PROFILE_TEXTS.FAILED));
    },
  });

  const submit = form.handleSubmit((values) => change.mutate(values));

  const field = (name: keyof PasswordForm, label: string, autoComplete: string, shown?: string, testId?: string) => (
    <Field.Root invalid={!!shown}>
      <Field.Label>{label}</Field.Label>
      <Input type="password" autoComplete={autoComplete} {...form.register(name)} />
      {testId && <Field.ErrorText data-testid={testId}>{shown}</Field.ErrorText>}
    </Field.Root>
  );
  const values = useWatch({ control: form.control });
  const complete = values.currentPassword !== '' && values.newPassword !== '' && values.confirmPassword !== '';

  return (
    <ProfileCard
      title="Change Password"
      testId="change-password"
      dialogs={
        <>
          <MessageDialog open={failure !== null} title="Error" message={failure} onClose={() => setFailure(null)} />
          <MessageDialog
            open={changed}
            title="Password changed"
            message={PROFILE_TEXTS.PASSWORD_CHANGED}
            onClose={() => void signOut(PROFILE_TEXTS.PASSWORD_LOGOUT_REASON)}
          />
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="4" maxW="md">
          {/* A username field lets password managers file the new password under the right account. */}
          <input type="text" name="username" aria-label="Username" autoComplete="username" hidden readOnly />
          {field('currentPassword', 'Old password', 'current-password')}
          {field('newPassword', 'New password', 'new-password', newPasswordError, 'new-password-error')}
          {field('confirmPassword', 'Confirm new password', 'new-password', error, 'password-error')}
          <Button type="submit" colorPalette="blue" alignSelf="start" disabled={!complete} loading={change.isPending}>
            Confirm password
          </Button>
        </Stack>
      </form>
    </ProfileCard>
  );
}

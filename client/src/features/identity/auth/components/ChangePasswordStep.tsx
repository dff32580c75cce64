import { useState } from 'react';
import { Field, Input, Text, VStack } from '@chakra-ui/react';
import { AUTH_MESSAGES } from '@shared/messages';
import { ApiError, breachedPasswordMessage, errorMessage } from '@/lib/api';
import { authApi } from '../api/auth-api';
import { afterLoginError, LoginState, LOGIN_TEXTS, Toast } from '../login-machine';
import { validateForcedChange } from '../login-validation';
import { StepSubmit } from './StepSubmit';
import { toast } from './toast';

/** CHANGE_PASSWORD: the forced change; afterwards the user is logged out and the page reloads. */
export function ChangePasswordStep({
  login,
  onExpired,
  onSignOut,
}: {
  login: LoginState;
  onExpired: (next: LoginState, toast: Toast) => void;
  onSignOut: (reason: string) => Promise<void>;
}) {
  const [values, setValues] = useState({ currentPassword: login.password, newPassword: '', confirmPassword: '' });
  const [error, setError] = useState<string | null>(null);
  const [breached, setBreached] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const invalid = validateForcedChange(values);
    setError(invalid);
    setBreached(null);
    if (invalid || !login.challengeToken) return;
    setBusy(true);
    try {
      await authApi.changeForcedPassword(login.challengeToken, values.currentPassword, values.newPassword);
      toast({ type: 'success', title: LOGIN_TEXTS.PASSWORD_CHANGED });
      await onSignOut(LOGIN_TEXTS.FORCED_CHANGE_LOGOUT_REASON);
      setTimeout(() => window.location.reload(), 1500);
    } catch (err) {
      if (err instanceof ApiError && err.body.message === AUTH_MESSAGES.JWT_EXPIRED) {
        const { next, toast } = afterLoginError(login, err);
        if (toast) onExpired(next, toast);
        return;
      }
      const refused = breachedPasswordMessage(err);
      if (refused) setBreached(refused);
      else setError(errorMessage(err, 'Sorry, an error occurred.'));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: keyof typeof values, label: string, autoComplete: string, fieldError?: string | null) => (
    <Field.Root invalid={!!fieldError}>
      <Field.Label>{label}</Field.Label>
      <Input
        type="password"
        name={name}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      />
      {fieldError && <Field.ErrorText data-testid="new-password-error">{fieldError}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <form onSubmit={submit} noValidate>
      <VStack gap="4" align="stretch">
        <Text>For your security, please change your password now.</Text>
        {field('currentPassword', 'Current Password', 'current-password')}
        {field('newPassword', 'New Password', 'new-password', breached)}
        {field('confirmPassword', 'Confirm New Password', 'new-password')}
        <StepSubmit error={error} busy={busy} errorTestId="change-password-error" />
      </VStack>
    </form>
  );
}

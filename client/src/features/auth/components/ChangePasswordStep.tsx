import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Alert, Button, Field, Input, Text, VStack } from '@chakra-ui/react';
import { ApiError, errorMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { authApi } from '../api/auth-api';
import { afterLoginError, LoginState, LOGIN_TEXTS, Toast } from '../login-machine';
import { validateForcedChange } from '../validation';
import { showToast } from './login-step';

/** The forced change's rule (spec 000 §5): all three filled, the new one twice, within the limit; checked on submit. */
const forcedChangeSchema = z.object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() }).superRefine((values, ctx) => {
  const message = validateForcedChange(values);
  if (message) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message });
});
type ForcedChange = z.infer<typeof forcedChangeSchema>;

/** CHANGE_PASSWORD: the forced change; afterwards the user is logged out and the page reloads. */
export function ChangePasswordStep({ login, onExpired }: { login: LoginState; onExpired: (next: LoginState, toast: Toast) => void }) {
  const { signOut } = useAuth();
  const form = useForm<ForcedChange>({
    resolver: zodResolver(forcedChangeSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { currentPassword: login.password, newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  // The rule's message, or the server's (a root error lasts until the next submit).
  const error = errors.confirmPassword?.message ?? errors.root?.server?.message ?? null;
  const [busy, setBusy] = useState(false);

  async function change(values: ForcedChange) {
    if (!login.challengeToken) return;
    setBusy(true);
    try {
      await authApi.changeForcedPassword(login.challengeToken, values.currentPassword, values.newPassword);
      showToast({ type: 'success', title: LOGIN_TEXTS.PASSWORD_CHANGED });
      await signOut(LOGIN_TEXTS.FORCED_CHANGE_LOGOUT_REASON);
      setTimeout(() => window.location.reload(), 1500);
    } catch (err) {
      if (err instanceof ApiError && err.body.message === 'jwt expired') {
        const { next, toast } = afterLoginError(login, err);
        if (toast) onExpired(next, toast);
        return;
      }
      form.setError('root.server', { message: errorMessage(err, 'Sorry, an error occurred.') });
    } finally {
      setBusy(false);
    }
  }

  const field = (name: keyof ForcedChange, label: string, autoComplete: string) => (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <Input type="password" autoComplete={autoComplete} {...form.register(name)} />
    </Field.Root>
  );

  return (
    <form onSubmit={form.handleSubmit(change)} noValidate>
      <VStack gap="4" align="stretch">
        <Text>For your security, please change your password now.</Text>
        {field('currentPassword', 'Current Password', 'current-password')}
        {field('newPassword', 'New Password', 'new-password')}
        {field('confirmPassword', 'Confirm New Password', 'new-password')}
        {error && (
          <Alert.Root status="error" size="sm" data-testid="change-password-error">
            <Alert.Indicator />
            <Alert.Title>{error}</Alert.Title>
          </Alert.Root>
        )}
        <Button type="submit" colorPalette="blue" loading={busy}>
          Confirm
        </Button>
      </VStack>
    </form>
  );
}

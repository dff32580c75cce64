import { useEffect, useRef, useState } from 'react';
import { Box, Button, Field, Input, Text, VStack } from '@chakra-ui/react';
import { LIMITS } from '@shared/limits';
import { errorMessage } from '@/lib/api';
import { authApi } from '../api/auth-api';
import { LOGIN_TEXTS } from '../login-machine';
import { validateLoginPassword, validateMfaCode } from '../login-validation';
import type { StepProps } from './login-step';
import { StepSubmit } from './StepSubmit';
import { toast } from './toast';

/** PASSWORD: hidden username, password (Enter submits, debounced 100 ms), Confirm, and the forgot-password box. */
export function PasswordStep({
  login,
  update,
  busy,
  error,
  onSubmit,
  onBack,
}: StepProps & { busy: boolean; error: string | null; onSubmit: () => void; onBack: () => void }) {
  const [forgot, setForgot] = useState(false);
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const passwordError = validateLoginPassword(login.password);
  const canSubmit = !busy && login.password.length > 0 && !passwordError;

  useEffect(() => () => clearTimeout(debounce.current), []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => canSubmit && onSubmit(), LIMITS.PASSWORD_CONFIRM_DEBOUNCE_MS);
  };

  return (
    <VStack gap="4" align="stretch">
      <form onSubmit={(e) => (e.preventDefault(), canSubmit && onSubmit())} noValidate>
        <VStack gap="4" align="stretch">
          <Text fontSize="sm" color="fg.muted">
            {login.username}{' '}
            <Button variant="plain" size="xs" colorPalette="blue" onClick={onBack}>
              Change
            </Button>
          </Text>
          <input
            type="text"
            name="username"
            aria-label="Username"
            autoComplete="username"
            value={login.username}
            readOnly
            hidden
          />
          <Field.Root invalid={!!passwordError}>
            <Field.Label>Password</Field.Label>
            <Input
              type="password"
              name="password"
              autoComplete="current-password"
              autoFocus
              value={login.password}
              onChange={(e) => update({ password: e.target.value })}
              onKeyDown={onKeyDown}
            />
            {passwordError && <Field.ErrorText>{passwordError}</Field.ErrorText>}
          </Field.Root>
          <StepSubmit error={error} busy={busy} disabled={!canSubmit} />
        </VStack>
      </form>
      {!forgot ? (
        <Button variant="plain" colorPalette="blue" size="sm" onClick={() => setForgot(true)}>
          Forgot your password?
        </Button>
      ) : (
        <ForgotPasswordBox username={login.username} />
      )}
    </VStack>
  );
}

/** The forgot-password box: a code from the authenticator app, or 'MFA not enabled'. */
function ForgotPasswordBox({ username }: { username: string }) {
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const codeError = validateMfaCode(code);

  async function request(withCode: boolean) {
    if (withCode) {
      setTouched(true);
      if (codeError) return;
    }
    setBusy(true);
    try {
      const res = await authApi.forgotPassword(username.trim(), withCode ? code.trim() : undefined);
      toast({ type: 'success', title: res.message || LOGIN_TEXTS.FORGOT_SENT });
    } catch (e) {
      toast({ type: 'error', title: errorMessage(e, 'Sorry, an error occurred. Please try again.') });
    } finally {
      // Spec 000 §4: after a request, answered or not, the request is not offered again.
      setSent(true);
      setBusy(false);
    }
  }

  return (
    <Box borderWidth="1px" borderRadius="md" p="4" data-testid="forgot-password-box">
      <VStack gap="3" align="stretch">
        <Field.Root invalid={touched && !!codeError}>
          <Field.Label>Enter MFA Code</Field.Label>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            onBlur={() => setTouched(true)}
          />
          {touched && codeError && <Field.ErrorText>{codeError}</Field.ErrorText>}
        </Field.Root>
        <Button colorPalette="blue" disabled={sent || busy} loading={busy} onClick={() => request(true)}>
          Request password reset
        </Button>
        <Button variant="outline" disabled={sent || busy} onClick={() => request(false)}>
          MFA not enabled
        </Button>
        <Text fontSize="sm" color="fg.muted">
          If MFA has not been enabled yet, click 'MFA not enabled' to request a password reset.
        </Text>
      </VStack>
    </Box>
  );
}

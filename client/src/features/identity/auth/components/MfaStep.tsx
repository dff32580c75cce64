import { useState } from 'react';
import { Alert, Button, Field, Input, Text, VStack } from '@chakra-ui/react';
import { authApi } from '../api/auth-api';
import { LOGIN_TEXTS } from '../login-machine';
import { validateMfaCode } from '../login-validation';
import type { StepProps } from './login-step';
import {
  RecoveryCodeField,
  RecoveryCodeToggle,
  RememberDeviceCheckbox,
  validateRecoveryCode,
} from '@/features/identity/mfa';
import { PASSKEY_TEXTS, PasskeyButton } from '@/features/identity/passkeys';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { StepSubmit } from './StepSubmit';
import { toast } from './toast';

/** MFA: the server's message, the 'MFA Token' input, Confirm, and 'Send code to email instead' until used. */
export function MfaStep({
  login,
  update,
  busy,
  error,
  onSubmit,
  passkey,
}: StepProps & {
  busy: boolean;
  error: string | null;
  onSubmit: () => void;
  passkey?: { onAssertion: (p: AuthenticationResponseJSON) => void; onError: (message: string) => void };
}) {
  const [emailSent, setEmailSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [touched, setTouched] = useState(false);
  // A recovery code in place of the TOTP.
  const codeError = login.useRecoveryCode
    ? validateRecoveryCode(login.recoveryCode ?? '')
    : validateMfaCode(login.mfaToken);

  async function sendEmail() {
    if (!login.challengeToken) return;
    setSending(true);
    try {
      await authApi.sendEmailCode(login.challengeToken);
      setEmailSent(true);
      toast({ type: 'success', title: LOGIN_TEXTS.MFA_EMAIL_SENT });
    } catch {
      toast({ type: 'error', title: LOGIN_TEXTS.MFA_EMAIL_FAILED });
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!codeError) onSubmit();
      }}
    >
      <VStack gap="4" align="stretch">
        {login.mfaMessage && (
          <Alert.Root status="info" size="sm">
            <Alert.Indicator />
            <Alert.Title>{login.mfaMessage}</Alert.Title>
          </Alert.Root>
        )}
        {login.useRecoveryCode ? (
          <RecoveryCodeField
            value={login.recoveryCode ?? ''}
            onChange={(recoveryCode) => update({ recoveryCode })}
            error={touched ? codeError : null}
          />
        ) : (
          <Field.Root invalid={touched && !!codeError}>
            <Field.Label>MFA Token</Field.Label>
            <Input
              name="mfaToken"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              maxLength={6}
              value={login.mfaToken}
              onChange={(e) => update({ mfaToken: e.target.value.replace(/\D/g, '') })}
            />
            {touched && codeError && <Field.ErrorText>{codeError}</Field.ErrorText>}
          </Field.Root>
        )}
        <RememberDeviceCheckbox
          days={login.rememberDeviceDays ?? 0}
          checked={!!login.rememberDevice}
          onChange={(rememberDevice) => update({ rememberDevice })}
        />
        <StepSubmit error={error} busy={busy} />
        {login.passkeyOffered && passkey && (
          <PasskeyButton
            label={PASSKEY_TEXTS.USE}
            challengeToken={login.challengeToken}
            disabled={busy}
            onAssertion={passkey.onAssertion}
            onError={passkey.onError}
          />
        )}
        <RecoveryCodeToggle
          useRecoveryCode={!!login.useRecoveryCode}
          onToggle={() => {
            setTouched(false);
            update({ useRecoveryCode: !login.useRecoveryCode });
          }}
        />
        {login.useRecoveryCode ? null : !emailSent ? (
          <Button variant="outline" loading={sending} onClick={sendEmail}>
            Send code to email instead
          </Button>
        ) : (
          <Text fontSize="sm" color="fg.muted" data-testid="mfa-email-note">
            {LOGIN_TEXTS.MFA_EMAIL_SENT} Enter it above; it is valid for 10 minutes.
          </Text>
        )}
      </VStack>
    </form>
  );
}

import { useState } from 'react';
import { Alert, Box, Button, Checkbox, Field, HStack, Input, Link, Separator, Text, VStack } from '@chakra-ui/react';
import { useAppInfo } from '@/lib/app-info';
import { paths } from '@/config/paths';
import { MESSAGES, validateLoginEmail } from '../validation';
import type { StepProps } from './login-step';
import { PASSKEY_TEXTS, PasskeyButton } from '@/features/passkeys';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';

/** Passkeys: the password-less sign-in of the ROOT step. */
interface PasskeySignIn {
  busy: boolean;
  error: string | null;
  onAssertion: (p: AuthenticationResponseJSON) => void;
  onError: (message: string) => void;
}

/** ROOT: terms, e-mail, Login; 'OR'; Corporate Login when SSO is configured. */
export function RootStep({
  login,
  update,
  onNext,
  ssoError,
  passkey,
  busy,
}: StepProps & { onNext: () => void; ssoError?: string | null; passkey?: PasskeySignIn; busy?: boolean }) {
  const [touched, setTouched] = useState(false);
  const [termsHint, setTermsHint] = useState(false);
  const appInfo = useAppInfo();
  const emailError = validateLoginEmail(login.username);
  const canLogin = login.acceptToS && !emailError;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!login.acceptToS) return setTermsHint(true);
    setTouched(true);
    if (canLogin) onNext();
  };

  return (
    <form onSubmit={submit} noValidate>
      <VStack gap="4" align="stretch">
        <Field.Root invalid={termsHint && !login.acceptToS}>
          <Checkbox.Root
            checked={login.acceptToS}
            onCheckedChange={(e) => {
              update({ acceptToS: !!e.checked });
              setTermsHint(false);
            }}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control data-testid="terms-checkbox" />
            <Checkbox.Label>
              I agree to the{' '}
              <Link href={paths.terms} target="_blank" rel="noopener" colorPalette="blue" variant="underline">
                Terms and Conditions
              </Link>
            </Checkbox.Label>
          </Checkbox.Root>
          {termsHint && !login.acceptToS && <Field.ErrorText>{MESSAGES.TERMS_REQUIRED}</Field.ErrorText>}
        </Field.Root>

        <Field.Root invalid={touched && !!emailError && login.acceptToS}>
          <Field.Label>Email</Field.Label>
          {/* A disabled input swallows clicks: the wrapper explains why it is disabled. */}
          <Box width="full" onClick={() => !login.acceptToS && setTermsHint(true)}>
            <Input
              name="username"
              type="email"
              autoComplete="username"
              maxLength={150}
              disabled={!login.acceptToS}
              value={login.username}
              onChange={(e) => update({ username: e.target.value })}
              onBlur={() => setTouched(true)}
            />
          </Box>
          {touched && emailError && login.acceptToS && <Field.ErrorText>{emailError}</Field.ErrorText>}
        </Field.Root>

        <Box onClick={() => !login.acceptToS && setTermsHint(true)}>
          <Button type="submit" colorPalette="blue" width="full" disabled={!canLogin} loading={busy}>
            Login
          </Button>
        </Box>

        {/* Passkeys: the terms apply as to Login. */}
        {passkey && (
          <>
            <Box onClick={() => !login.acceptToS && setTermsHint(true)}>
              <PasskeyButton
                label={PASSKEY_TEXTS.SIGN_IN}
                disabled={!login.acceptToS || passkey.busy}
                onAssertion={passkey.onAssertion}
                onError={passkey.onError}
              />
            </Box>
            {passkey.error && (
              <Alert.Root status="error" size="sm" data-testid="passkey-error">
                <Alert.Indicator />
                <Alert.Title>{passkey.error}</Alert.Title>
              </Alert.Root>
            )}
          </>
        )}

        {appInfo.data?.ssoEnabled && (
          <>
            <HStack>
              <Separator flex="1" />
              <Text flexShrink="0" color="fg.muted" fontSize="sm">
                OR
              </Text>
              <Separator flex="1" />
            </HStack>
            <Button variant="outline" width="full" onClick={() => (window.location.href = '/auth/sso')}>
              Corporate Login
            </Button>
            {ssoError && (
              <Alert.Root status="error" size="sm" data-testid="sso-error">
                <Alert.Indicator />
                <Alert.Title>Sorry, an error occurred. {ssoError}</Alert.Title>
              </Alert.Root>
            )}
          </>
        )}
      </VStack>
    </form>
  );
}

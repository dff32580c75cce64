import { useEffect, useState } from 'react';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { Box, Card, Center, Heading, Image, VStack } from '@chakra-ui/react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { lastWorkingPath, useAuth } from '@/lib/auth';
import { afterDiscovery, afterLoginError, initialLoginState, LoginState, secondFactorOf } from '../login-machine';
import { signedInWithRecoveryCode } from '@/features/mfa';
import { authApi } from '../api/auth-api';
import { RootStep } from './RootStep';
import { PasswordStep } from './PasswordStep';
import { MfaStep } from './MfaStep';
import { ChangePasswordStep } from './ChangePasswordStep';
import { SsoStep } from './SsoStep';
import { showToast } from './login-step';

/**
 * Only a path of this origin: returnTo must not send anyone to another site, and a crafted one is simply ignored.
 * Browsers read a backslash as a slash and drop tabs and newlines, so `/\evil.example` and `/<TAB>/evil.example`
 * would leave the origin: no backslash and no control character at all, and the path must still resolve to
 * this origin.
 */
export function safeReturnPath(value: string | null, origin = window.location.origin): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (!value || !value.startsWith('/') || /[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let target: URL;
  try {
    target = new URL(value, origin);
  } catch {
    return null;
  }
  if (target.origin !== origin || target.pathname.startsWith('/logIn')) return null;
  return `${target.pathname}${target.search}${target.hash}`;
}

/** Spec 000 §2 'Login page': a 450 px card with the product logo and one of four steps. */
export function LoginPage() {
  const { isAuthenticated, checking, signIn } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [login, setLogin] = useState<LoginState>(initialLoginState);
  const [busy, setBusy] = useState(false);
  const [inlineError, setInlineError] = useState<string | null>(null);
  const [justSignedIn, setJustSignedIn] = useState(false);

  const destination = safeReturnPath(params.get('returnTo')) ?? safeReturnPath(lastWorkingPath.get()) ?? '/';

  useEffect(() => {
    if (justSignedIn) navigate(destination, { replace: true });
  }, [justSignedIn, destination, navigate]);

  // A corporate login that did not succeed comes back here with the reason, shown in the card.
  const ssoError = params.get('ssoError');

  if (checking) return null;
  if (isAuthenticated && !justSignedIn) return <Navigate to={safeReturnPath(lastWorkingPath.get()) ?? '/'} replace />;

  const update = (patch: Partial<LoginState>) => setLogin((s) => ({ ...s, ...patch }));

  /** After the ROOT step: the e-mail's own identity provider, if its organisation has one, else the password. */
  async function discover(state: LoginState) {
    setBusy(true);
    const found = await authApi.discover(state.username.trim()).catch(() => null);
    setBusy(false);
    setLogin((s) => (s.state === 'ROOT' ? afterDiscovery(s, found) : s));
  }

  /** `passkey`: in the ROOT step a password-less sign-in, in the MFA step the second factor. */
  async function submitLogin(state: LoginState, passkey?: AuthenticationResponseJSON) {
    setBusy(true);
    setInlineError(null);
    try {
      const res = await authApi.login(
        passkey && state.state === 'ROOT'
          ? { acceptToS: state.acceptToS, passkey }
          : {
              username: state.username.trim(),
              password: state.password,
              acceptToS: state.acceptToS,
              ...(state.state === 'MFA' ? secondFactorOf(state, passkey) : {}),
            },
        state.state === 'MFA' ? state.challengeToken : undefined,
      );
      signIn(res.accessToken);
      // After a recovery code, how many are left.
      if (typeof res.recoveryCodesLeft === 'number') showToast(signedInWithRecoveryCode(res.recoveryCodesLeft), 10_000);
      setJustSignedIn(true);
    } catch (error) {
      const { next, toast, inline } = afterLoginError(state, error);
      setLogin(next);
      if (toast) showToast(toast);
      setInlineError(inline ?? null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root width="450px" maxW="100%" data-testid="login-card" data-step={login.state}>
        <Card.Header>
          <VStack gap="2">
            <Image src="/logo.svg" alt="Tax Portal" boxSize="56px" />
            <Heading size="lg">Tax Portal</Heading>
          </VStack>
        </Card.Header>
        <Card.Body>
          <Box>
            {login.state === 'ROOT' && (
              <RootStep
                login={login}
                update={update}
                ssoError={ssoError}
                passkey={{
                  busy,
                  error: inlineError,
                  onAssertion: (passkey) => submitLogin({ ...login }, passkey),
                  onError: setInlineError,
                }}
                busy={busy}
                onNext={() => discover(login)}
              />
            )}
            {login.state === 'SSO' && (
              <SsoStep
                login={login}
                update={update}
                onPassword={() => update({ state: 'PASSWORD' })}
                onBack={() => update({ state: 'ROOT', sso: undefined })}
              />
            )}
            {login.state === 'PASSWORD' && (
              <PasswordStep
                login={login}
                update={update}
                busy={busy}
                error={inlineError}
                onSubmit={() => submitLogin({ ...login })}
                onBack={() => update({ state: 'ROOT', password: '' })}
              />
            )}
            {login.state === 'MFA' && (
              <MfaStep
                login={login}
                update={update}
                busy={busy}
                error={inlineError}
                onSubmit={() => submitLogin({ ...login })}
                passkey={{ onAssertion: (passkey) => submitLogin({ ...login }, passkey), onError: setInlineError }}
              />
            )}
            {login.state === 'CHANGE_PASSWORD' && (
              <ChangePasswordStep login={login} onExpired={(next, toast) => (setLogin(next), showToast(toast))} />
            )}
          </Box>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}

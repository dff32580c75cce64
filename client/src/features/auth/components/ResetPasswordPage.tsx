import { useState } from 'react';
import { Alert, Button, Card, Center, Field, Heading, Image, Input, VStack } from '@chakra-ui/react';
import { useNavigate, useSearchParams } from 'react-router';
import { LIMITS } from '@shared/limits';
import { errorMessage } from '@/lib/api';
import { authApi } from '../api/auth-api';
import { MESSAGES, tokenFromQuery } from '../validation';
import { showToast } from './login-step';

/** Spec 000 §2 / 001 §2.17: the reset-password page, public and without the header. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = tokenFromQuery(params);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(token ? null : MESSAGES.RESET_TOKEN_MISSING);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!token) return setError(MESSAGES.RESET_TOKEN_MISSING);
    if (password !== confirm) return setError(MESSAGES.RESET_MISMATCH);
    if (password.length > LIMITS.PASSWORD_MAX) return setError(MESSAGES.NEW_PASSWORD_TOO_LONG);
    setError(null);
    setBusy(true);
    try {
      await authApi.resetPassword(token, password);
      showToast({ type: 'success', title: 'Your password has been reset.' });
      navigate('/', { replace: true });
    } catch (err) {
      showToast({ type: 'error', title: errorMessage(err, 'Your authentication information is incorrect. Please try again.') }, LIMITS.RESET_ERROR_TOAST_MS);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root width="450px" maxW="100%">
        <Card.Header>
          <VStack gap="2">
            <Image src="/logo.svg" alt="Tax Portal" boxSize="48px" />
            <Heading size="lg">Reset your password</Heading>
          </VStack>
        </Card.Header>
        <Card.Body>
          <form onSubmit={submit} noValidate>
            <VStack gap="4" align="stretch">
              <Field.Root>
                <Field.Label>New password</Field.Label>
                <Input type="password" name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} disabled={!token} />
              </Field.Root>
              <Field.Root>
                <Field.Label>Confirm password</Field.Label>
                <Input type="password" name="confirmPassword" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} disabled={!token} />
              </Field.Root>
              {error && (
                <Alert.Root status="error" size="sm" data-testid="reset-error">
                  <Alert.Indicator />
                  <Alert.Title>{error}</Alert.Title>
                </Alert.Root>
              )}
              <Button type="submit" colorPalette="blue" loading={busy} disabled={!token || !password}>
                Reset password
              </Button>
            </VStack>
          </form>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}

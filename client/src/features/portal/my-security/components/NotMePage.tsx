import { useState } from 'react';
import { Alert, Button, Card, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router';
import { INSIGHTS_MESSAGES } from '@shared/administration/insights';
import { errorMessage } from '@/lib/api';
import { mySecurityApi } from '../api/my-security-api';

/**
 * The "This wasn't me" link of a new-browser e-mail: public. Opening the link changes nothing (mail scanners open
 * links); the button ends every session of the account and sends a password reset link.
 */
export function NotMePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<{ busy: boolean; done?: string; error?: string }>({ busy: false });
  const confirm = async () => {
    setState({ busy: true });
    try {
      const r = await mySecurityApi.notMe(token);
      setState({ busy: false, done: r.message });
    } catch (e) {
      setState({ busy: false, error: errorMessage(e, INSIGHTS_MESSAGES.NOT_ME_INVALID) });
    }
  };
  return (
    <Center minH="60vh" p="4">
      <Card.Root maxW="lg" w="full" data-testid="not-me-page">
        <Card.Body>
          <Stack gap="4">
            <Heading as="h1" size="lg">
              This wasn't me
            </Heading>
            {state.done ? (
              <Alert.Root status="success" data-testid="not-me-done">
                <Alert.Indicator />
                <Alert.Title>{state.done}</Alert.Title>
              </Alert.Root>
            ) : (
              <>
                <Text>
                  If you did not sign in from that browser, sign your account out everywhere now. We will e-mail you a
                  link to choose a new password.
                </Text>
                {(state.error || !token) && (
                  <Alert.Root status="error">
                    <Alert.Indicator />
                    <Alert.Title>{state.error ?? INSIGHTS_MESSAGES.NOT_ME_INVALID}</Alert.Title>
                  </Alert.Root>
                )}
                <Button colorPalette="red" onClick={confirm} loading={state.busy} disabled={!token}>
                  Sign out everywhere and reset my password
                </Button>
              </>
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}

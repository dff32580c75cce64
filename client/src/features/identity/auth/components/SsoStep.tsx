import { Button, Link, Text, VStack } from '@chakra-ui/react';
import type { StepProps } from './login-step';

export const SSO_STEP_TEXTS = {
  CONTINUE: (name?: string) => (name ? `Continue with ${name}` : 'Continue with corporate login'),
  EXPLAIN: 'Your organisation signs you in through its own identity provider.',
  USE_PASSWORD: 'Sign in with a password instead',
  BACK: 'Use another e-mail',
} as const;

/** SSO: the e-mail's organisation has its own identity provider; the browser goes there. */
export function SsoStep({ login, onPassword, onBack }: StepProps & { onPassword: () => void; onBack: () => void }) {
  const sso = login.sso;
  return (
    <VStack gap="4" align="stretch" data-testid="sso-step">
      <Text>{login.username}</Text>
      <Text color="fg.muted" fontSize="sm">
        {SSO_STEP_TEXTS.EXPLAIN}
      </Text>
      <Button colorPalette="blue" width="full" autoFocus onClick={() => sso && window.location.assign(sso.url)}>
        {SSO_STEP_TEXTS.CONTINUE(sso?.name)}
      </Button>
      <Link as="button" colorPalette="blue" variant="underline" fontSize="sm" onClick={onPassword}>
        {SSO_STEP_TEXTS.USE_PASSWORD}
      </Link>
      <Link as="button" colorPalette="blue" variant="underline" fontSize="sm" onClick={onBack}>
        {SSO_STEP_TEXTS.BACK}
      </Link>
    </VStack>
  );
}

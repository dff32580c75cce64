import { useState } from 'react';
import { Button, ButtonProps } from '@chakra-ui/react';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { browserCeremonyError, passkeysApi } from '../api/passkeys-api';

/**
 * A sign-in button that asks the browser for a passkey assertion ("Sign in with a passkey" in the ROOT step,
 * "Use a passkey" in the MFA step, with its challenge token) and hands it on for POST /auth/login.
 */
export function PasskeyButton({
  label,
  challengeToken,
  onAssertion,
  onError,
  ...button
}: {
  label: string;
  challengeToken?: string;
  onAssertion: (passkey: AuthenticationResponseJSON) => void;
  onError: (message: string) => void;
} & Omit<ButtonProps, 'onError'>) {
  const [asking, setAsking] = useState(false);

  async function ask() {
    setAsking(true);
    try {
      onAssertion(await passkeysApi.assert(challengeToken));
    } catch (e) {
      onError(browserCeremonyError(e) ?? `Sorry, an error occurred. ${(e as Error).message}`);
    } finally {
      setAsking(false);
    }
  }

  return (
    <Button
      variant="outline"
      width="full"
      loading={asking}
      onClick={() => void ask()}
      data-testid="passkey-button"
      {...button}
    >
      {label}
    </Button>
  );
}

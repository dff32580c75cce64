import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import type { LoginState } from '../login-machine';
import { ChangePasswordStep } from './ChangePasswordStep';
import { MfaStep } from './MfaStep';
import { PasswordStep } from './PasswordStep';
import { SsoStep } from './SsoStep';
import { toast } from './toast';

export { Toaster } from '@/components/ui/toaster';
export { toast };

/** The card's steps after the e-mail (spec 000 §4), in Chakra like the rest of the application. */
export function LaterSteps({
  login,
  update,
  setLogin,
  busy,
  error,
  onSubmit,
  onPasskey,
  onPasskeyError,
  onSignOut,
}: {
  login: LoginState;
  update: (patch: Partial<LoginState>) => void;
  setLogin: (next: LoginState) => void;
  busy: boolean;
  error: string | null;
  onSubmit: () => void;
  onPasskey: (passkey: AuthenticationResponseJSON) => void;
  onPasskeyError: (message: string) => void;
  onSignOut: (reason: string) => Promise<void>;
}) {
  switch (login.state) {
    case 'SSO':
      return (
        <SsoStep
          login={login}
          update={update}
          onPassword={() => update({ state: 'PASSWORD' })}
          onBack={() => update({ state: 'ROOT', sso: undefined })}
        />
      );
    case 'PASSWORD':
      return (
        <PasswordStep
          login={login}
          update={update}
          busy={busy}
          error={error}
          onSubmit={onSubmit}
          onBack={() => update({ state: 'ROOT', password: '' })}
        />
      );
    case 'MFA':
      return (
        <MfaStep
          login={login}
          update={update}
          busy={busy}
          error={error}
          onSubmit={onSubmit}
          passkey={{ onAssertion: onPasskey, onError: onPasskeyError }}
        />
      );
    case 'CHANGE_PASSWORD':
      return (
        <ChangePasswordStep login={login} onSignOut={onSignOut} onExpired={(next, t) => (setLogin(next), toast(t))} />
      );
    default:
      return null;
  }
}

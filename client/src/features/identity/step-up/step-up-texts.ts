/** The 'Confirm it's you' dialog's words. */
export const STEP_UP_TEXTS = {
  TITLE: 'Confirm it\u2019s you',
  HOW: 'How to confirm',
  CONFIRM: 'Confirm',
  USE_PASSKEY: 'Use a passkey',
  CONTINUE_SSO: 'Continue with corporate login',
  FAILED: 'That did not confirm it is you. Please try again.',
  PASSWORD_REQUIRED: 'Enter your password.',
  FACTORS: {
    password: 'Password',
    mfaToken: 'Code from your authenticator app',
    recoveryCode: 'Recovery code',
    passkey: 'Passkey',
    sso: 'Corporate login',
  },
  LABELS: {
    password: 'Password',
    mfaToken: 'Authenticator code',
    recoveryCode: 'Recovery code',
    passkey: '',
    sso: '',
  },
  PASSKEY_HELP: 'Your browser will ask for your passkey (fingerprint, face, PIN or security key).',
  SSO_HELP: 'You will sign in again at your organisation\u2019s identity provider, then come back to this page.',
  SSO_DONE: 'You confirmed it is you. Please repeat what you were doing.',
} as const;

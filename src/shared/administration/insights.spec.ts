import { SESSION_METHOD_LABELS } from './insights';

describe('SESSION_METHOD_LABELS', () => {
  it('names every session method as My Security shows it', () => {
    expect(Object.entries(SESSION_METHOD_LABELS)).toEqual([
      ['password', 'Password'],
      ['password+totp', 'Password and authenticator code'],
      ['password+email', 'Password and e-mailed code'],
      ['password+recovery', 'Password and recovery code'],
      ['password+passkey', 'Password and passkey'],
      ['password+device', 'Password on a trusted device'],
      ['passkey', 'Passkey'],
      ['sso', 'Single sign-on'],
      ['support', 'Support access (E-Support acting for you)'],
    ]);
  });
});

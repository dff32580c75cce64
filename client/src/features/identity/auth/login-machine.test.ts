import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { afterLoginError, initialLoginState, LoginState } from './login-machine';

const at = (state: LoginState['state']): LoginState => ({
  ...initialLoginState,
  state,
  username: 'jane@example.com',
  password: 'pw',
  acceptToS: true,
});
const apiError = (status: number, body: object) =>
  new ApiError(status, { success: false, statusCode: status, ...body });

describe('login step transitions (spec 000 §4)', () => {
  it('PASSWORD → MFA when a TOTP is needed, showing the server message and keeping the challenge', () => {
    const { next, toast } = afterLoginError(
      at('PASSWORD'),
      apiError(401, { code: 'TOTP_REQUIRED', message: 'Please enter TOTP before proceeding.', challengeToken: 'c1' }),
    );
    expect(next).toMatchObject({
      state: 'MFA',
      mfaMessage: 'Please enter TOTP before proceeding.',
      challengeToken: 'c1',
      username: 'jane@example.com',
      password: 'pw',
    });
    expect(toast).toBeUndefined();
  });

  it('PASSWORD → CHANGE_PASSWORD when a forced change is due', () => {
    const { next } = afterLoginError(
      at('PASSWORD'),
      apiError(401, {
        code: 'PASSWORD_CHANGE_REQUIRED',
        message: 'Please change password before proceeding.',
        challengeToken: 'c2',
      }),
    );
    expect(next).toMatchObject({ state: 'CHANGE_PASSWORD', challengeToken: 'c2' });
  });

  it('PASSWORD → the organisation’s provider when its policy requires single sign-on (SSO_REQUIRED)', () => {
    const { next, toast, redirect } = afterLoginError(
      { ...at('PASSWORD'), password: 'secret' },
      apiError(401, {
        code: 'SSO_REQUIRED',
        message: 'Sign in through your provider.',
        url: '/auth/sso/4?login_hint=a',
      }),
    );
    expect(redirect).toBe('/auth/sso/4?login_hint=a');
    expect(next).toMatchObject({ state: 'SSO', password: '', sso: { url: '/auth/sso/4?login_hint=a' } });
    expect(toast).toMatchObject({ type: 'info', title: 'Sign in through your provider.' });
    // Only a path of this site is followed.
    const elsewhere = afterLoginError(
      at('PASSWORD'),
      apiError(401, { code: 'SSO_REQUIRED', message: 'x', url: '//evil.example/' }),
    );
    expect(elsewhere.redirect).toBeUndefined();
  });

  it("PASSWORD → ROOT with the error toast when the message is exactly 'Please try again.'", () => {
    const { next, toast } = afterLoginError(
      at('PASSWORD'),
      apiError(401, { code: 'INVALID_CREDENTIALS', message: 'Please try again.' }),
    );
    expect(next.state).toBe('ROOT');
    expect(next.password).toBe('');
    expect(toast).toEqual({ type: 'error', title: 'Your authentication information is incorrect. Please try again.' });
  });

  it("MFA → ROOT with the warning 'Session expired. Please relogin.' on 'jwt expired'", () => {
    const { next, toast } = afterLoginError(at('MFA'), apiError(403, { message: 'jwt expired' }));
    expect(next.state).toBe('ROOT');
    expect(next.challengeToken).toBeUndefined();
    expect(toast).toEqual({ type: 'warning', title: 'Session expired. Please relogin.' });
  });

  it("stays on MFA with 'That doesn't look right: …' for a wrong code, 'Sorry, an error occurred. …' otherwise", () => {
    const wrong = afterLoginError(
      at('MFA'),
      apiError(401, { code: 'INVALID_MFA_TOKEN', message: 'The MFA token is invalid or has already been used.' }),
    );
    expect(wrong.next.state).toBe('MFA');
    expect(wrong.inline).toBe("That doesn't look right: The MFA token is invalid or has already been used.");
    const other = afterLoginError(
      at('MFA'),
      apiError(429, { message: 'Too many failed sign-in attempts. Please wait 15 minutes before trying again.' }),
    );
    expect(other.inline).toBe(
      'Sorry, an error occurred. Too many failed sign-in attempts. Please wait 15 minutes before trying again.',
    );
  });

  it("stays on PASSWORD with 'That doesn't look right. …' for other credential errors and 'Sorry, an error occurred. …' for the rest", () => {
    expect(afterLoginError(at('PASSWORD'), apiError(401, { message: 'Something odd.' })).inline).toBe(
      "That doesn't look right. Something odd.",
    );
    expect(
      afterLoginError(
        at('PASSWORD'),
        apiError(403, { code: 'ACCOUNT_DISABLED', message: 'Your account has been disabled.' }),
      ).inline,
    ).toBe('Sorry, an error occurred. Your account has been disabled.');
    expect(afterLoginError(at('PASSWORD'), new TypeError('Failed to fetch')).inline).toBe(
      'Sorry, an error occurred. Failed to fetch',
    );
  });
});

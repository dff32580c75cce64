import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '@/test/render';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { validateRecoveryCode } from '@/features/identity/mfa';
import { initialLoginState, secondFactorOf } from '../login-machine';
import { LoginPage } from './LoginPage';

vi.setConfig({ testTimeout: 30_000 });

const TOTP_REQUIRED = {
  success: false,
  statusCode: 401,
  code: 'TOTP_REQUIRED',
  message: 'Please enter TOTP before proceeding.',
  challengeToken: 'chal',
};

/** "Use a recovery code" and "Don't ask again on this device" in the login card's MFA step. */
describe('MFA step: recovery code and trusted device', () => {
  let server: ReturnType<typeof fakeServer>;
  beforeEach(() => {
    server = fakeServer({}, { unmatched: NO_SESSION });
    server.respond('GET', '/api/app-info', 200, {
      ssoEnabled: false,
      appEnv: 'production',
      productName: 'Tax Portal',
      version: '1',
      supportEmail: 's@x.test',
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  async function toMfaStep(rememberDeviceDays: number) {
    server.respond('POST', '/auth/login', 401, { ...TOTP_REQUIRED, rememberDeviceDays });
    const user = userEvent.setup();
    renderRoutes(
      [
        { path: '/logIn', element: <LoginPage /> },
        { path: '*', element: <div>landed</div> },
      ],
      '/logIn',
    );
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Please enter TOTP before proceeding.');
    return user;
  }

  it('sends a recovery code in the same MFA Token step, with the challenge token, and tells how many are left', async () => {
    const user = await toMfaStep(30);
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    expect(screen.queryByRole('button', { name: 'Send code to email instead' })).not.toBeInTheDocument();
    const input = screen.getByLabelText('MFA Token');
    expect(input).toHaveAttribute('name', 'recoveryCode');
    await user.type(input, 'abc');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText('A recovery code has ten letters and digits, e.g. 7kq2m-xw9ad.'),
    ).toBeInTheDocument();
    expect(server.calls.filter((c) => c.url === '/auth/login')).toHaveLength(1);

    server.respond('POST', '/auth/login', 200, {
      success: true,
      accessToken: 'header.eyJzdWIiOjF9.sig',
      recoveryCodesLeft: 2,
    });
    await user.clear(input);
    await user.type(input, 'abcde-fghij');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('You signed in with a recovery code. 2 recovery codes left.')).toBeInTheDocument();
    const last = server.calls.filter((c) => c.url === '/auth/login').pop()!;
    expect(last.body).toEqual({
      username: 'jane@example.com',
      password: 'secret-pass',
      acceptToS: true,
      recoveryCode: 'abcde-fghij',
    });
    expect(last.headers.get('Authorization')).toBe('Bearer chal');
  });

  it('offers "Don\'t ask again on this device for N days" from the server\'s answer, and sends the wish with the code', async () => {
    const user = await toMfaStep(14);
    await user.click(screen.getByRole('checkbox', { name: "Don't ask again on this device for 14 days" }));
    server.respond('POST', '/auth/login', 200, { success: true, accessToken: 'header.eyJzdWIiOjF9.sig' });
    await user.type(screen.getByLabelText('MFA Token'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('landed')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.url === '/auth/login').pop()!.body).toMatchObject({
      mfaToken: '123456',
      rememberDevice: true,
    });
  });

  it('hides the option when MFA_REMEMBER_DAYS is 0', async () => {
    await toMfaStep(0);
    expect(screen.getByLabelText('MFA Token')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /Don't ask again/ })).not.toBeInTheDocument();
  });

  it('secondFactorOf and validateRecoveryCode', () => {
    const mfa = { ...initialLoginState, state: 'MFA' as const, mfaToken: ' 123456 ' };
    expect(secondFactorOf(mfa)).toEqual({ mfaToken: '123456' });
    expect(secondFactorOf({ ...mfa, useRecoveryCode: true, recoveryCode: ' abcde-fghij ' })).toEqual({
      recoveryCode: 'abcde-fghij',
    });
    expect(secondFactorOf({ ...mfa, rememberDevice: true, rememberDeviceDays: 30 })).toEqual({
      mfaToken: '123456',
      rememberDevice: true,
    });
    expect(secondFactorOf({ ...mfa, rememberDevice: true, rememberDeviceDays: 0 })).toEqual({ mfaToken: '123456' });
    expect(validateRecoveryCode('')).toBe('A recovery code is required.');
    expect(validateRecoveryCode('ABCDE FGHIJ')).toBeNull();
    expect(validateRecoveryCode('abcdefghij')).toBeNull();
    expect(validateRecoveryCode('abcd-efgh')).not.toBeNull();
  });
});

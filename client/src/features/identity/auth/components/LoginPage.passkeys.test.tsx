import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '@/test/render';
import { fakeServer } from '@/test/fake-server';
import { LoginPage } from './LoginPage';

const assertion = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
};
const startAuthentication = vi.fn();
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<object>()),
  startAuthentication: (...args: unknown[]) => startAuthentication(...args),
}));
vi.setConfig({ testTimeout: 30_000 });

const renderLogin = () =>
  renderRoutes(
    [
      { path: '/logIn', element: <LoginPage /> },
      { path: '*', element: <div>landed</div> },
    ],
    '/logIn',
  );

/** 'Sign in with a passkey' in the ROOT step and 'Use a passkey' in the MFA step. */
describe('Passkeys in the login card', () => {
  let server: ReturnType<typeof fakeServer>;
  beforeEach(() => {
    startAuthentication.mockReset();
    server = fakeServer();
    server.respond('GET', '/api/app-info', 200, { ssoEnabled: false });
    server.respond('POST', '/auth/passkey/options', 200, { challenge: 'c1', rpId: 'localhost' });
    server.respond('GET', '/api/users/current', 200, { id: 1, email: 'jane@example.com', roles: [] });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('signs in without a password once the terms are accepted: options, then POST /auth/login {acceptToS, passkey}', async () => {
    server.respond('POST', '/auth/login', 200, { success: true, accessToken: 'tok' });
    startAuthentication.mockResolvedValue(assertion);
    const user = userEvent.setup();
    renderLogin();
    const button = await screen.findByRole('button', { name: 'Sign in with a passkey' });
    expect(button).toBeDisabled();
    await user.click(button.parentElement!);
    expect(screen.getByText('Please review and accept the terms and conditions.')).toBeInTheDocument();
    expect(server.calls.some((c) => c.url === '/auth/passkey/options')).toBe(false);

    await user.click(screen.getByTestId('terms-checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('landed')).toBeInTheDocument();
    const options = server.calls.find((c) => c.url === '/auth/passkey/options')!;
    expect(options.headers.get('Authorization')).toBeNull();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c1', rpId: 'localhost' } });
    expect(server.calls.find((c) => c.url === '/auth/login')!.body).toEqual({ acceptToS: true, passkey: assertion });
  });

  it('tells the user when the browser dialog is cancelled, and a refused passkey in the words of the server', async () => {
    startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
    );
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(
      await screen.findByText('The passkey request was cancelled or timed out. Please try again.'),
    ).toBeInTheDocument();
    expect(server.calls.some((c) => c.url === '/auth/login')).toBe(false);

    server.respond('POST', '/auth/login', 401, {
      success: false,
      statusCode: 401,
      code: 'PASSKEY_INVALID',
      message: 'This passkey is not registered for an account here.',
    });
    startAuthentication.mockResolvedValue(assertion);
    await user.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(
      await screen.findByText("That doesn't look right. This passkey is not registered for an account here."),
    ).toBeInTheDocument();
  });

  it("offers 'Use a passkey' in the MFA step only when the server says the account has one, and sends it with the challenge token", async () => {
    server.respond('POST', '/auth/login', 401, {
      success: false,
      statusCode: 401,
      code: 'TOTP_REQUIRED',
      message: 'Please enter TOTP before proceeding.',
      challengeToken: 'chal',
      passkey: true,
    });
    startAuthentication.mockResolvedValue(assertion);
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await user.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    server.respond('POST', '/auth/login', 200, { success: true, accessToken: 'tok' });
    await waitFor(() => expect(server.calls.filter((c) => c.url === '/auth/login')).toHaveLength(2));
    const options = server.calls.find((c) => c.url === '/auth/passkey/options')!;
    expect(options.headers.get('Authorization')).toBe('Bearer chal');
    const last = server.calls.filter((c) => c.url === '/auth/login').pop()!;
    expect(last.headers.get('Authorization')).toBe('Bearer chal');
    expect(last.body).toEqual({
      username: 'jane@example.com',
      password: 'secret-pass',
      acceptToS: true,
      passkey: assertion,
    });
  });

  it('does not offer a passkey in the MFA step of an account without one', async () => {
    server.respond('POST', '/auth/login', 401, {
      success: false,
      statusCode: 401,
      code: 'TOTP_REQUIRED',
      message: 'Please enter TOTP before proceeding.',
      challengeToken: 'chal',
    });
    const user = userEvent.setup();
    renderLogin();
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByLabelText('MFA Token')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
  });
});

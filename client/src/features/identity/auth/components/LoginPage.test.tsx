import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '@/test/render';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { LoginPage } from './LoginPage';

// Typing through user-event is slow on a loaded machine: a wide limit, so only a real failure fails.
vi.setConfig({ testTimeout: 30_000 });

function renderLogin(path = '/logIn') {
  return renderRoutes(
    [
      { path: '/logIn', element: <LoginPage /> },
      { path: '*', element: <div>landed</div> },
    ],
    path,
  );
}

async function toPasswordStep(user: ReturnType<typeof userEvent.setup>, email = 'jane@example.com') {
  await user.click(await screen.findByTestId('terms-checkbox'));
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Login' }));
  return screen.findByLabelText('Password');
}

describe('LoginPage (spec 000 §2 login page)', () => {
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
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('keeps the e-mail disabled until the terms are accepted, and Login until the e-mail is valid', async () => {
    const user = userEvent.setup();
    renderLogin();
    const email = await screen.findByLabelText('Email');
    expect(email).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    await user.click(email.parentElement!);
    expect(screen.getByText('Please review and accept the terms and conditions.')).toBeInTheDocument();

    await user.click(screen.getByTestId('terms-checkbox'));
    expect(email).toBeEnabled();
    expect(screen.queryByText('Please review and accept the terms and conditions.')).not.toBeInTheDocument();
    await user.type(email, 'jane@');
    await user.tab();
    expect(screen.getByText('Entered email is not a valid email')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeDisabled();
    await user.type(email, 'example.com');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('href', '/terms/terms');
  });

  it("shows 'OR' and 'Corporate Login' only when single sign-on is configured", async () => {
    renderLogin();
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('button', { name: 'Corporate Login' })).not.toBeInTheDocument();
    vi.unstubAllGlobals();
    server = fakeServer({}, { unmatched: NO_SESSION });
    server.respond('GET', '/api/app-info', 200, { ssoEnabled: true });
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Corporate Login' })).toBeInTheDocument();
    expect(screen.getByText('OR')).toBeInTheDocument();
  });

  it('submits the password on Enter once, debounced by 100 ms, and lands on returnTo', async () => {
    server.respond('POST', '/auth/login', 200, { success: true, accessToken: 'tok' });
    server.respond('GET', '/api/users/current', 200, { id: 1, email: 'jane@example.com', roles: [] });
    const user = userEvent.setup();
    const { router } = renderLogin('/logIn?returnTo=%2Fusers%2Fnew');
    const password = await toPasswordStep(user);
    await user.type(password, 'secret-pass');
    await user.keyboard('{Enter}{Enter}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/new'));
    const logins = server.calls.filter((c) => c.url === '/auth/login');
    expect(logins).toHaveLength(1);
    expect(logins[0].body).toEqual({ username: 'jane@example.com', password: 'secret-pass', acceptToS: true });
    expect(localStorage.getItem('accessToken')).toBe('tok');
  });

  it('shows the password limit message', async () => {
    const user = userEvent.setup();
    renderLogin();
    const password = await toPasswordStep(user);
    await user.type(password, 'x'.repeat(51));
    expect(screen.getByText('Entered password must be less than or equal to 50 characters.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  });

  it('moves to the MFA step with the server message, and sends the code by e-mail once', async () => {
    server.respond('POST', '/auth/login', 401, {
      success: false,
      statusCode: 401,
      code: 'TOTP_REQUIRED',
      message: 'Please enter TOTP before proceeding.',
      challengeToken: 'chal',
    });
    server.respond('POST', '/mfa/email-mfa', 200, {
      success: true,
      message: 'MFA code has been sent to your email address.',
    });
    const user = userEvent.setup();
    renderLogin();
    await user.type(await toPasswordStep(user), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Please enter TOTP before proceeding.')).toBeInTheDocument();
    expect(screen.getByLabelText('MFA Token')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send code to email instead' }));
    expect(await screen.findByTestId('mfa-email-note')).toHaveTextContent(
      'MFA code has been sent to your email address.',
    );
    expect(screen.queryByRole('button', { name: 'Send code to email instead' })).not.toBeInTheDocument();
    const sent = server.calls.find((c) => c.url === '/mfa/email-mfa')!;
    expect(sent.headers.get('Authorization')).toBe('Bearer chal');

    // The confirm sends the code with the challenge as bearer.
    server.respond('POST', '/auth/login', 401, {
      success: false,
      statusCode: 401,
      code: 'INVALID_MFA_TOKEN',
      message: 'The MFA token is invalid or has already been used.',
    });
    await user.type(screen.getByLabelText('MFA Token'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(
      await screen.findByText("That doesn't look right: The MFA token is invalid or has already been used."),
    ).toBeInTheDocument();
    const last = server.calls.filter((c) => c.url === '/auth/login').pop()!;
    expect(last.body).toMatchObject({ mfaToken: '123456' });
    expect(last.headers.get('Authorization')).toBe('Bearer chal');
  });

  it('validates the forgot-password code and disables the request after it is sent', async () => {
    server.respond('POST', '/auth/forgot-password', 200, {
      success: true,
      message: 'An email has been sent with instructions to reset your password.',
    });
    const user = userEvent.setup();
    renderLogin();
    await toPasswordStep(user);
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    await user.click(screen.getByRole('button', { name: 'Request password reset' }));
    expect(screen.getByText('MFA is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Enter MFA Code'), '123');
    expect(screen.getByText('MFA must contain exactly 6 digits')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Enter MFA Code'), '456');
    await user.click(screen.getByRole('button', { name: 'Request password reset' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Request password reset' })).toBeDisabled());
    expect(server.calls.find((c) => c.url === '/auth/forgot-password')!.body).toEqual({
      username: 'jane@example.com',
      mfaCode: '123456',
    });
    expect(
      screen.getByText("If MFA has not been enabled yet, click 'MFA not enabled' to request a password reset."),
    ).toBeInTheDocument();
  });

  it('disables the forgot-password request after a request that failed too (spec 000 §4)', async () => {
    server.respond('POST', '/auth/forgot-password', 429, {
      success: false,
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many requests. Please wait a minute.',
    });
    const user = userEvent.setup();
    renderLogin();
    await toPasswordStep(user);
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    await user.click(screen.getByRole('button', { name: 'MFA not enabled' }));
    expect(await screen.findByText('Too many requests. Please wait a minute.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'MFA not enabled' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Request password reset' })).toBeDisabled();
    expect(server.calls.filter((c) => c.url === '/auth/forgot-password')).toHaveLength(1);
  });

  it('redirects a signed-in visitor to the last working path', async () => {
    localStorage.setItem('accessToken', 'tok');
    localStorage.setItem('lastWorkingPath', '/about');
    server.respond('GET', '/api/users/current', 200, { id: 1, email: 'a@b.c', roles: [] });
    const { router } = renderLogin();
    await waitFor(() => expect(router.state.location.pathname).toBe('/about'));
    await act(async () => {});
  });
});

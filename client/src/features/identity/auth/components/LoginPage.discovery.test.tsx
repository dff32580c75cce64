import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '@/test/render';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { LoginPage } from './LoginPage';

vi.setConfig({ testTimeout: 30_000 });

/** docs/product-rules.md §6: after the ROOT step's e-mail, an address of an organisation with its own provider goes there. */
describe('LoginPage discovery', () => {
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

  async function submitEmail(email: string, at = '/logIn') {
    const user = userEvent.setup();
    renderRoutes([{ path: '/logIn', element: <LoginPage /> }], at);
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.type(screen.getByLabelText('Email'), email);
    await user.click(screen.getByRole('button', { name: 'Login' }));
    return user;
  }

  it("offers 'Continue with <connection name>' and still lets the password be used", async () => {
    server.respond('POST', '/auth/sso/discover', 200, {
      sso: true,
      url: '/auth/sso/3?login_hint=jane%40acme.test',
      name: 'Acme Entra ID',
    });
    const user = await submitEmail('jane@acme.test');
    expect(await screen.findByRole('button', { name: 'Continue with Acme Entra ID' })).toBeInTheDocument();
    expect(server.callsTo('POST', 'auth/sso/discover')[0].body).toEqual({ email: 'jane@acme.test' });
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in with a password instead' }));
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
  });

  it('goes on to the password step when discovery answers sso: false, or fails', async () => {
    server.respond('POST', '/auth/sso/discover', 200, { sso: false });
    await submitEmail('jane@example.com');
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('POST', 'auth/sso/discover')).toHaveLength(1));
  });

  it("sent by the OpenID provider's sign-in, the corporate sign-in carries its return path", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: window.location.origin, assign });
    server.respond('POST', '/auth/sso/discover', 200, {
      sso: true,
      url: '/auth/sso/3?login_hint=jane%40acme.test',
      name: 'Acme Entra ID',
    });
    const back = '/oidc/interaction/abc_DEF-1';
    const user = await submitEmail('jane@acme.test', `/logIn?returnTo=${encodeURIComponent(back)}`);
    await user.click(await screen.findByRole('button', { name: 'Continue with Acme Entra ID' }));
    expect(assign).toHaveBeenCalledWith(`/auth/sso/3?login_hint=jane%40acme.test&returnTo=${encodeURIComponent(back)}`);
  });

  it('Corporate Login carries the same return path', async () => {
    const location = { ...window.location, origin: window.location.origin, href: window.location.href };
    vi.stubGlobal('location', location);
    server.respond('GET', '/api/app-info', 200, {
      ssoEnabled: true,
      appEnv: 'production',
      productName: 'Tax Portal',
      version: '1',
      supportEmail: 's@x.test',
    });
    const user = userEvent.setup();
    const back = '/oidc/interaction/abc_DEF-1';
    renderRoutes([{ path: '/logIn', element: <LoginPage /> }], `/logIn?returnTo=${encodeURIComponent(back)}`);
    await user.click(await screen.findByRole('button', { name: 'Corporate Login' }));
    expect(location.href).toBe(`/auth/sso?returnTo=${encodeURIComponent(back)}`);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Root } from 'react-dom/client';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { isLoginAddress } from '@shared/identity/login-address';
import { mountLogin } from './standalone-login';
import { renderLogin } from './prerender-login';

/** The page the server sends for /logIn: the build's pre-rendered card in #root. */
function prerenderedPage(): HTMLElement {
  const container = document.createElement('div');
  container.id = 'root';
  container.innerHTML = renderLogin();
  document.body.append(container);
  return container;
}

describe('the login page on its own (a visit that opens on /logIn)', () => {
  let server: ReturnType<typeof fakeServer>;
  let errors: ReturnType<typeof vi.spyOn>;
  let roots: Root[];
  beforeEach(() => {
    roots = [];
    window.history.replaceState(null, '', '/logIn?returnTo=%2Fusers%2Fbilling');
    server = fakeServer({}, { unmatched: NO_SESSION });
    server.respond('GET', '/api/app-info', 200, { ssoEnabled: false });
    errors = vi.spyOn(console, 'error');
  });
  afterEach(() => {
    act(() => roots.forEach((r) => r.unmount()));
    document.body.innerHTML = '';
    errors.mockRestore();
    vi.unstubAllGlobals();
  });
  const mount = (container: HTMLElement) => {
    const mountApp = vi.fn((root: Root) => roots.push(root));
    act(() => mountLogin(container, mountApp));
    return mountApp;
  };

  it('knows the login addresses as the router does, without regard to case', () => {
    for (const path of ['/logIn', '/login', '/LOGIN/', '/logIn/']) expect(isLoginAddress(path)).toBe(true);
    for (const path of ['/', '/logInx', '/logIn/more', '/users/logIn']) expect(isLoginAddress(path)).toBe(false);
  });

  it('hydrates the pre-rendered card without a mismatch, works, and asks nothing of /refresh on an anonymous visit', async () => {
    const container = prerenderedPage();
    const rendered = container.querySelector('[data-testid="login-card"]');
    expect(rendered).not.toBeNull();
    mount(container);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('terms-checkbox'));
    // The same element, brought to life: hydration kept the server's markup.
    expect(screen.getByTestId('login-card')).toBe(rendered);
    expect(screen.getByLabelText('Email')).toBeEnabled();
    await waitFor(() => expect(server.calls.map((c) => c.url)).toContain('/api/app-info'));
    expect(server.calls.map((c) => c.url)).not.toContain('/refresh');
    expect(errors).not.toHaveBeenCalled();
  });

  it('keeps the terms ticked before the script arrived: the e-mail field opens once the card hydrates', async () => {
    const container = prerenderedPage();
    const box = container.querySelector<HTMLInputElement>('[data-testid="terms-checkbox"]')!;
    box.click();
    expect(box.checked).toBe(true);
    mount(container);
    await waitFor(() => expect(screen.getByLabelText('Email')).toBeEnabled());
    expect(screen.getByTestId('terms-checkbox')).toBeChecked();
    expect(errors).not.toHaveBeenCalled();
  });

  it('signs in on the card and hands the page to the application at returnTo, with the token stored', async () => {
    server.respond('POST', '/auth/sso/discover', 200, { sso: false });
    server.respond('POST', '/auth/login', 200, { success: true, accessToken: 'tok' });
    const mountApp = mount(prerenderedPage());
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(mountApp).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/users/billing');
    expect(localStorage.getItem('accessToken')).toBe('tok');
  });

  it("with the server's session hint, resumes the session from the refresh cookie without showing the card", async () => {
    document.cookie = 'signedIn=1; path=/';
    localStorage.setItem('lastWorkingPath', '/users/audit');
    server.respond('POST', '/refresh', 200, { success: true, newAccessToken: 'fresh' });
    const mountApp = mount(prerenderedPage());
    await waitFor(() => expect(mountApp).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/users/audit');
    expect(localStorage.getItem('accessToken')).toBe('fresh');
  });

  it('with a hint the refresh cookie no longer honours, shows the card after one refused /refresh', async () => {
    document.cookie = 'signedIn=1; path=/';
    const mountApp = mount(prerenderedPage());
    expect(await screen.findByTestId('terms-checkbox')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.url === '/refresh')).toHaveLength(1);
    expect(mountApp).not.toHaveBeenCalled();
  });

  it("goes back to the OpenID provider's sign-in with a full navigation, not a client route", async () => {
    window.history.replaceState(null, '', '/logIn?returnTo=%2Foidc%2Finteraction%2Fabc123');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    server.respond('POST', '/auth/sso/discover', 200, { sso: false });
    server.respond('POST', '/auth/login', 200, { success: true, accessToken: 'tok' });
    const mountApp = mount(prerenderedPage());
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('terms-checkbox'));
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/oidc/interaction/abc123'));
    expect(mountApp).not.toHaveBeenCalled();
    expect(localStorage.getItem('accessToken')).toBe('tok');
  });

  it('with a session, returns at once to the OpenID provider that sent the browser here', async () => {
    window.history.replaceState(null, '', '/logIn?returnTo=%2Foidc%2Finteraction%2Fxyz');
    document.cookie = 'signedIn=1; path=/';
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    server.respond('POST', '/refresh', 200, { success: true, newAccessToken: 'fresh' });
    const mountApp = mount(prerenderedPage());
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/oidc/interaction/xyz'));
    expect(mountApp).not.toHaveBeenCalled();
  });

  it('shows the card despite a session when the application asked for a fresh sign-in (prompt=login)', async () => {
    window.history.replaceState(null, '', '/logIn?prompt=login&returnTo=%2Foidc%2Finteraction%2Fxyz');
    document.cookie = 'signedIn=1; path=/';
    server.respond('POST', '/refresh', 200, { success: true, newAccessToken: 'fresh' });
    const mountApp = mount(prerenderedPage());
    expect(await screen.findByTestId('terms-checkbox')).toBeInTheDocument();
    expect(server.calls.map((c) => c.url)).not.toContain('/refresh');
    expect(mountApp).not.toHaveBeenCalled();
  });
});

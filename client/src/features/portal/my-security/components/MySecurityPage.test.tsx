import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MySession, MySignIn } from '@shared/administration/insights';
import type { MyOidcApp } from '@shared/identity/oidc-clients';
import type { MyPrivacy } from '@shared/administration/privacy';
import { PRIVACY_TEXTS as T } from '../my-security-texts';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { MySecurityPage } from './MySecurityPage';

vi.setConfig({ testTimeout: 20_000 });

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const at = new Date(2026, 10, 28, 9, 0).toISOString();
const sessions: MySession[] = [
  { id: 'a', current: true, createdAt: at, lastUsedAt: at, ip: '10.0.0.1', userAgent: CHROME, method: 'password+totp' },
  { id: 'b', current: false, createdAt: at, lastUsedAt: at, ip: '::ffff:10.0.0.2', userAgent: FIREFOX, method: 'sso' },
];
const signIns: MySignIn[] = [
  { at, outcome: 'succeeded', method: 'password', ip: '2001:db8::7', userAgent: CHROME, newDevice: true },
  { at, outcome: 'failed', method: 'password', ip: '::ffff:10.0.0.9', userAgent: FIREFOX, newDevice: false },
];

const allowed: MyPrivacy = { canDeleteAccount: true, refusal: null, auditRetentionDays: 365, signInHistoryDays: 90 };

const apps: MyOidcApp[] = [
  {
    clientId: 'app_Hr1',
    name: 'HR system',
    scopes: ['openid', 'email', 'organisation'],
    grantedAt: at,
    lastUsedAt: at,
  },
  { clientId: 'app/Cli 2', name: 'Reporting CLI', scopes: ['openid'], grantedAt: at, lastUsedAt: null },
];

function setup(routes: Record<string, { status?: number; body?: unknown }> = {}) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.VIEWER]) },
    'GET api/me/privacy': { body: allowed },
    'DELETE api/me': { body: { success: true, message: 'Your account has been deleted.' } },
    'GET api/me/sessions': { body: sessions },
    'GET api/me/sign-ins': { body: signIns },
    'DELETE api/me/sessions/b': { body: { success: true, ended: 1 } },
    'DELETE api/me/sessions': { body: { success: true, ended: 1 } },
    'GET api/me/apps': { body: apps },
    'DELETE api/me/apps/app_Hr1': { body: { success: true } },
    ...routes,
  });
  renderPage('/my-security', '/my-security', <MySecurityPage />);
  return server;
}

describe('MySecurityPage (docs/product-rules.md §10)', () => {
  it('lists my sessions with this one marked, and my recent sign-ins with new browsers marked', async () => {
    setup();
    const rows = await screen.findAllByTestId('my-session');
    expect(rows[0]).toHaveTextContent('Chrome on Windows');
    expect(rows[0]).toHaveTextContent('This browser');
    expect(within(rows[0]).queryByRole('button')).toBeNull();
    // The factors the session was opened with.
    expect(rows[0]).toHaveTextContent('Password and authenticator code');
    expect(rows[1]).toHaveTextContent('Firefox on Linux');
    expect(rows[1]).toHaveTextContent('Single sign-on');
    const history = await screen.findByTestId('my-sign-ins');
    expect(history).toHaveTextContent('New browser');
    expect(history).toHaveTextContent('Failed');
    expect(screen.getByTestId('my-security-page')).not.toHaveTextContent('::ffff:');
  });

  it('shows times the way every page does, and IPv4 clients without the IPv6 mapping (IPv6 as it is)', async () => {
    setup();
    const rows = await screen.findAllByTestId('my-session');
    expect(rows[0]).toHaveTextContent('10.0.0.1');
    expect(rows[1]).toHaveTextContent('10.0.0.2');
    expect(rows[1]).toHaveTextContent('Sat, 28 Nov 2026, 9:00:00 AM');
    expect(within(rows[1]).getByRole('button')).toHaveAccessibleName(
      'Sign out of Firefox on Linux at 10.0.0.2, signed in Sat, 28 Nov 2026, 9:00:00 AM',
    );
    const history = await screen.findByTestId('my-sign-ins');
    expect(history).toHaveTextContent('2001:db8::7');
    expect(history).toHaveTextContent('10.0.0.9');
    expect(history).not.toHaveTextContent('::ffff:');
    expect(screen.getByRole('link', { name: 'your profile' })).toHaveAttribute('href', '/users/profile/1');
  });

  it('signs out of one other session, and of every other', async () => {
    const server = setup();
    const rows = await screen.findAllByTestId('my-session');
    await userEvent.click(within(rows[1]).getByRole('button', { name: /Sign out of Firefox on Linux/ }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/me/sessions/b')).toHaveLength(1));
    await userEvent.click(screen.getByTestId('end-other-sessions'));
    await waitFor(() =>
      expect(server.callsTo('DELETE', 'api/me/sessions').map((c) => c.path)).toContain('api/me/sessions?others=true'),
    );
  });

  it('your data: how long what is kept, and "Delete my account" after a confirmation when the organisation allows it', async () => {
    const server = setup();
    expect(await screen.findByTestId('retention-note')).toHaveTextContent(T.retention(365, 90));
    expect(screen.getByRole('button', { name: T.DOWNLOAD })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.DELETE }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(T.DELETE_QUESTION);
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === 'api/me')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: T.DELETE_CONFIRM }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'DELETE' && c.path === 'api/me')).toBe(true));
  });

  it('says why the account cannot be deleted instead of offering it', async () => {
    setup({
      'GET api/me/privacy': {
        body: { canDeleteAccount: false, refusal: 'SELF_DELETION_OFF', auditRetentionDays: 90, signInHistoryDays: 90 },
      },
    });
    expect(await screen.findByTestId('delete-refused')).toHaveTextContent(T.REFUSED_OFF);
    expect(screen.queryByRole('button', { name: T.DELETE })).toBeNull();
  });

  it('lists the applications with access: what each may read, since when, last used', async () => {
    setup();
    const section = await screen.findByRole('region', { name: 'Applications with access' });
    const rows = await within(section).findAllByTestId('my-application');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('HR system');
    expect(within(rows[0]).getByText('Your e-mail address')).toBeInTheDocument();
    expect(within(rows[0]).getByText(/Your organisation, your roles/)).toBeInTheDocument();
    expect(within(rows[1]).getByText('Never')).toBeInTheDocument();
  });

  it('revokes an application’s access once confirmed, and reads the list again', async () => {
    const server = setup();
    let listed = apps;
    server.respondWith('GET', 'api/me/apps', () => ({ body: listed }));
    server.respondWith('DELETE', /^\/api\/me\/apps\//, () => {
      listed = apps.slice(1);
      return { body: { success: true } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the access of HR system' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('It is signed out of your account at once');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.callsTo('DELETE', 'api/me/apps')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Revoke the access of HR system' }));
    dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.getAllByTestId('my-application')).toHaveLength(1));
    expect(server.callsTo('DELETE', 'api/me/apps').map((c) => c.path)).toEqual(['api/me/apps/app_Hr1']);
    expect(await screen.findByText('The application no longer has access to your account.')).toBeInTheDocument();

    // A client id is one path segment, whatever it holds.
    await userEvent.click(screen.getByRole('button', { name: 'Revoke the access of Reporting CLI' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/me/apps')).toHaveLength(2));
    expect(server.callsTo('DELETE', 'api/me/apps')[1].path).toBe('api/me/apps/app%2FCli%202');
  });

  it('says so when no application has access', async () => {
    setup({ 'GET api/me/apps': { body: [] } });
    expect(await screen.findByTestId('my-applications-none')).toHaveTextContent(
      'No applications have access to your account.',
    );
    expect(screen.queryByRole('button', { name: /^Revoke/ })).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import type { SupportAccessItem } from '@shared/portal/support-access';
import { supportSessionStore } from '@/lib/support-session';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { SUPPORT_ACCESS_TEXTS as T } from '../support-access-texts';
import { SupportAccessPage } from './SupportAccessPage';
import { SupportSessionBanner } from './SupportSessionBanner';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => sessionStorage.clear());

const member = { id: 7, email: 'mia@acme.test', firstName: 'Mia', lastName: 'Member' };
const item = (patch: Partial<SupportAccessItem>): SupportAccessItem => ({
  id: 5,
  organisationId: 10,
  organisationName: 'Acme Pty Ltd',
  supportUser: { id: 1, email: 'ada@example.com', firstName: 'Ada', lastName: 'Admin' },
  user: member,
  reason: 'The holdings page shows no data',
  status: 'pending',
  requestedAt: '2026-12-02T08:00:00.000Z',
  expiresAt: '2026-12-03T08:00:00.000Z',
  startedAt: null,
  endsAt: null,
  endedAt: null,
  ...patch,
});

const bearerOf = (headers: Headers) => headers.get('Authorization');

describe('Support access page (users/support-access)', () => {
  it('a site admin approves or refuses a pending request', async () => {
    const server = fakeServer({
      'GET api/users/current': { body: currentUser([Role.SITE_ADMIN], { id: 2 }) },
      'GET api/support-access': { body: [item({})] },
      'POST api/support-access/5/approve': { body: item({ status: 'approved' }) },
    });
    renderPage('/users/support-access', '/users/support-access', <SupportAccessPage />);
    const row = await screen.findByTestId('support-access-5');
    expect(within(row).getByText('Mia Member (mia@acme.test)')).toBeInTheDocument();
    expect(within(row).getByText(T.STATUS.pending)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: T.REFUSE })).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: T.APPROVE }));
    await waitFor(() => expect(server.callsTo('POST', 'api/support-access/5/approve')).toHaveLength(1));
    expect(await screen.findByText(T.APPROVED)).toBeInTheDocument();
  });

  it('E-Support starts its approved request: the tab then acts as the member, apart from its own token', async () => {
    const server = fakeServer({
      'GET api/users/current': { body: currentUser([Role.E_SUPPORT], { id: 1 }) },
      'GET api/support-access': { body: [item({ status: 'approved' })] },
      'POST api/support-access/5/start': {
        body: { accessToken: 'member-token', endsAt: '2026-12-02T09:00:00.000Z' },
      },
    });
    renderPage('/users/support-access', '/users/support-access', <SupportAccessPage />);
    const row = await screen.findByTestId('support-access-5');
    expect(within(row).queryByRole('button', { name: T.APPROVE })).not.toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: T.START }));
    await waitFor(() => expect(supportSessionStore.get()?.accessToken).toBe('member-token'));
    expect(supportSessionStore.get()).toEqual(
      expect.objectContaining({ id: 5, member, reason: 'The holdings page shows no data' }),
    );
    // The account's own token stays where it was; calls now carry the member's.
    expect(localStorage.getItem('accessToken')).toBe('test-token');
    await waitFor(() => expect(server.calls.some((c) => bearerOf(c.headers) === 'Bearer member-token')).toBe(true));
  });
});

describe('The banner of a support-access session', () => {
  function inSession() {
    sessionStorage.setItem(
      'supportSession',
      JSON.stringify({
        id: 5,
        accessToken: 'member-token',
        endsAt: '2026-12-02T09:00:00.000Z',
        member,
        reason: 'The holdings page shows no data',
      }),
    );
  }

  it('names the member and the reason; Stop ends it with the E-Support account’s own token and goes back', async () => {
    inSession();
    const server = fakeServer({
      'GET api/users/current': { body: currentUser([Role.ANALYST], { id: 7, email: member.email }) },
      'DELETE api/support-access/5': { body: item({ status: 'ended' }) },
    });
    renderPage('/', '/', <SupportSessionBanner />);
    const banner = await screen.findByTestId('support-session-banner');
    expect(banner).toHaveTextContent('You are acting as Mia Member (mia@acme.test)');
    expect(banner).toHaveTextContent('Reason: The holdings page shows no data');
    await userEvent.click(within(banner).getByRole('button', { name: T.STOP }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/support-access/5')).toHaveLength(1));
    expect(bearerOf(server.callsTo('DELETE', 'api/support-access/5')[0].headers)).toBe('Bearer test-token');
    await waitFor(() => expect(screen.queryByTestId('support-session-banner')).not.toBeInTheDocument());
    expect(supportSessionStore.get()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBe('test-token');
  });

  it('an ended session (401 SESSION_ENDED) returns the tab to its own session without refreshing', async () => {
    inSession();
    const server = fakeServer({
      'GET api/users/current': (call) =>
        bearerOf(call.headers) === 'Bearer member-token'
          ? { status: 401, body: { success: false, statusCode: 401, code: 'SESSION_ENDED', message: 'ended' } }
          : { body: currentUser([Role.E_SUPPORT]) },
    });
    renderPage('/', '/', <SupportSessionBanner />);
    await waitFor(() => expect(supportSessionStore.get()).toBeNull());
    expect(server.callsTo('POST', 'refresh')).toHaveLength(0);
    expect(localStorage.getItem('accessToken')).toBe('test-token');
    await waitFor(() =>
      expect(
        server.calls.some((c) => c.path === 'api/users/current' && bearerOf(c.headers) === 'Bearer test-token'),
      ).toBe(true),
    );
  });
});

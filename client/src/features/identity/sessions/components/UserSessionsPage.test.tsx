import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { UserSessionRow, UserSessionsResponse } from '@shared/api-types';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { UserSessionsPage } from './UserSessionsPage';

vi.setConfig({ testTimeout: 20_000 });

const login = new Date(2026, 2, 4, 9, 5, 1).toISOString();
const refresh = new Date(2026, 2, 4, 9, 15, 30).toISOString();
const rows: UserSessionRow[] = [
  {
    id: 2,
    email: 'online@acme.test',
    roles: ['Standard Admin', 'Administrator'],
    status: 'online',
    onlineSessions: 2,
    lastLoginTime: login,
    lastRefreshTime: refresh,
    canForceLogoff: true,
  },
  {
    id: 3,
    email: 'offline@acme.test',
    roles: ['Viewer'],
    status: 'offline',
    onlineSessions: 0,
    lastLoginTime: null,
    lastRefreshTime: null,
    canForceLogoff: true,
  },
];

function setup(
  list: UserSessionsResponse,
  logoff: { status?: number; body?: unknown } = { body: { success: true, message: 'ok', sessionsEnded: 2 } },
) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
    'GET api/userLoginActivities/user-sessions': { body: list },
    'POST api/userLoginActivities/force-logoff': logoff,
  });
  renderPage('/users/user-sessions', '/users/user-sessions', <UserSessionsPage />);
  return server;
}

describe('UserSessionsPage (spec 001 §2.14, §4, §8, §9)', () => {
  it('titles the page with the maximum and shows the columns, rows, dates and severities', async () => {
    setup({ userSessions: rows, maxConcurrentUsers: 5 });
    expect(await screen.findByRole('heading', { name: 'Max allowed concurrent users: 5' })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1, 7)).toEqual(['Email', 'Roles', 'Status', 'Online Sessions', 'Last Login', 'Last Refresh']);
    const [online, offline] = screen.getAllByTestId('session-row');
    expect(within(online).getByText('Standard Admin, Administrator')).toBeInTheDocument();
    expect(within(online).getByText('Wed, 4 Mar 2026, 9:05:01 AM')).toBeInTheDocument();
    expect(within(online).getByText('Wed, 4 Mar 2026, 9:15:30 AM')).toBeInTheDocument();
    expect(within(online).getByTestId('session-status')).toHaveAttribute('data-severity', 'success');
    expect(within(online).getByTestId('session-status')).toHaveTextContent('online');
    expect(within(offline).getByTestId('session-status')).toHaveAttribute('data-severity', 'warning');
    expect(within(online).getByRole('button', { name: 'Force LogOff User' })).toBeInTheDocument();
    expect(screen.queryByTestId('concurrency-banner')).not.toBeInTheDocument();
  });

  it('names the E-Support account acting as a member in a support-access session, and until when', async () => {
    const supported: UserSessionRow = {
      ...rows[0],
      supportSession: { supportAccessId: 4, supportUserEmail: 'help@vendor.test', endsAt: refresh },
    };
    setup({ userSessions: [supported, rows[1]], maxConcurrentUsers: 5 });
    const [online, offline] = await screen.findAllByTestId('session-row');
    expect(within(online).getByTestId('support-session')).toHaveTextContent(
      'Support access: help@vendor.test acting as this member until Wed, 4 Mar 2026, 9:15:30 AM',
    );
    expect(within(offline).queryByTestId('support-session')).not.toBeInTheDocument();
  });

  it("says 'No users found' for an empty list", async () => {
    setup({ userSessions: [], maxConcurrentUsers: 1 });
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Force logoff' })).toBeDisabled();
  });

  it('shows the reached banner (warning) at the maximum', async () => {
    setup({ userSessions: rows, maxConcurrentUsers: 1 });
    const banner = await screen.findByTestId('concurrency-banner');
    expect(banner).toHaveTextContent(
      'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed.',
    );
    expect(banner).toHaveAttribute('data-status', 'warning');
  });

  it('shows the exceeded banner above the maximum', async () => {
    const third: UserSessionRow = { ...rows[0], id: 4, email: 'third@acme.test' };
    setup({ userSessions: [...rows, third], maxConcurrentUsers: 1 });
    const banner = await screen.findByTestId('concurrency-banner');
    expect(banner).toHaveTextContent(
      'Your organisation has exceeded the maximum allowed concurrent users. Please disable or force logoff one or more users.',
    );
    expect(banner).toHaveAttribute('data-status', 'error');
  });

  it("enables 'Force logoff' once rows are selected and sends their ids", async () => {
    const server = setup({ userSessions: rows, maxConcurrentUsers: 5 });
    const button = await screen.findByRole('button', { name: 'Force logoff' });
    expect(button).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select online@acme.test' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select offline@acme.test' }));
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    expect(await screen.findByText('Successfully marked selected user(s) for force log off')).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/userLoginActivities/force-logoff')[0].body).toEqual({ userIds: [2, 3] });
    await waitFor(() =>
      expect(server.callsTo('GET', 'api/userLoginActivities/user-sessions').length).toBeGreaterThan(1),
    );
  });

  it('selects all rows with the header checkbox', async () => {
    const server = setup({ userSessions: rows, maxConcurrentUsers: 5 });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all users' }));
    await userEvent.click(screen.getByRole('button', { name: 'Force logoff' }));
    await waitFor(() =>
      expect(server.callsTo('POST', 'api/userLoginActivities/force-logoff')[0]?.body).toEqual({ userIds: [2, 3] }),
    );
  });

  it('offers no force log-off for users the caller may not act on (an administrator and the site admin), not even through select all', async () => {
    const siteAdmin: UserSessionRow = {
      ...rows[0],
      id: 9,
      email: 'site.admin@acme.test',
      roles: ['Site Admin'],
      canForceLogoff: false,
    };
    const server = setup({ userSessions: [siteAdmin, ...rows], maxConcurrentUsers: 5 });
    const [protectedRow] = await screen.findAllByTestId('session-row');
    expect(within(protectedRow).getByRole('button', { name: 'Force LogOff User' })).toBeDisabled();
    expect(within(protectedRow).getByRole('checkbox', { name: 'Select site.admin@acme.test' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all users' }));
    await userEvent.click(screen.getByRole('button', { name: 'Force logoff' }));
    await waitFor(() =>
      expect(server.callsTo('POST', 'api/userLoginActivities/force-logoff')[0]?.body).toEqual({ userIds: [2, 3] }),
    );
  });

  it("forces one user off from the row action, and reports a failure with 'Failed to mark selected user(s) for force logoff'", async () => {
    const server = setup(
      { userSessions: rows, maxConcurrentUsers: 5 },
      { status: 404, body: { success: false, message: 'User not found.' } },
    );
    const [, offline] = await screen.findAllByTestId('session-row');
    await userEvent.click(within(offline).getByRole('button', { name: 'Force LogOff User' }));
    expect(await screen.findByText('Failed to mark selected user(s) for force logoff')).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/userLoginActivities/force-logoff')[0].body).toEqual({ userIds: [3] });
  });
});

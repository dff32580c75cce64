import { describe, expect, it, vi, beforeEach } from 'vitest';
import { screen, waitFor, within, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationItem } from '@shared/portal/notifications';
import { renderAt } from '@/test/render';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import type { NotificationSocketHandlers } from '@/lib/socket';
import { NotificationBell } from './NotificationBell';

const socket = vi.hoisted(() => ({ handlers: null as NotificationSocketHandlers | null, started: 0, stopped: 0 }));
vi.mock('@/lib/socket', () => ({
  startNotificationSocket: (handlers: NotificationSocketHandlers) => {
    socket.handlers = handlers;
    socket.started++;
    return { socket: {}, stop: () => socket.stopped++ };
  },
}));

const user = {
  id: 7,
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  organisationId: 1,
  organisationCode: 'ORG',
  masterAccountName: 'Org',
  applications: [],
  roles: [{ roleId: 4, roleCode: 'STANDARD_ADMIN', roleName: 'Standard Admin' }],
  isMFAEnforced: false,
  isMFAEnabled: false,
  isSSO: false,
};

const item = (id: number, type: NotificationItem['type'], content: NotificationItem['content']): NotificationItem => ({
  notificationId: id,
  read: false,
  date: new Date(2026, 0, 2, 9, 5).toISOString(),
  type,
  content,
});

function setup(list: NotificationItem[], me = user) {
  localStorage.setItem('accessToken', 'token-1');
  const fetch = fakeServer({}, { unmatched: NO_SESSION });
  fetch.respond('GET', '/api/users/current', 200, me);
  fetch.respond('GET', '/api/notifications', 200, list);
  fetch.respond('POST', /^\/api\/notifications\/\d+\/dismiss$/, 200, { success: true });
  fetch.respond('POST', '/api/notifications/dismiss-all', 200, { success: true });
  renderAt(<NotificationBell />);
  return fetch;
}

describe('NotificationBell (spec 001 §2.7, §4)', () => {
  beforeEach(() => {
    socket.handlers = null;
    socket.started = 0;
    socket.stopped = 0;
  });

  it('counts the listed notifications, leaves silent types out, and shows each by the display rules', async () => {
    setup([
      item(3, 'REPORT', { status: 'failed', message: 'Engine crashed', portfolioName: 'Main' }),
      item(2, 'HOLDER_DOWNLOAD', { status: 'DONE' }),
      item(1, 'IMPORT_FILE', { fileName: 'a.csv' }),
    ]);
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('2');
    await userEvent.click(screen.getByTestId('notification-bell'));
    const panel = await screen.findByTestId('notification-panel');
    expect(within(panel).getByText('Notifications')).toBeInTheDocument();
    const items = within(panel).getAllByTestId('notification-item');
    expect(items.map((i) => i.dataset.type)).toEqual(['REPORT', 'IMPORT_FILE']);
    expect(within(items[0]).getByTestId('notification-status')).toHaveTextContent('FAILED');
    expect(within(items[0]).getByTestId('notification-failure')).toHaveTextContent('Engine crashed');
    expect(within(items[0]).getByTestId('notification-failure')).toHaveStyle({ color: 'var(--chakra-colors-red-600)' });
    expect(within(items[1]).getByTestId('notification-status')).toHaveTextContent('SCHEDULED');
    expect(within(items[1]).getByText('2/1/26, 9:05 AM')).toBeInTheDocument();
    expect(within(items[0]).queryByRole('button', { name: 'Download' })).toBeNull();
  });

  it("shows 'No notifications received' and a disabled Dismiss All when empty", async () => {
    setup([]);
    await waitFor(() => expect(socket.started).toBe(1));
    expect(screen.queryByTestId('notification-count')).toBeNull();
    await userEvent.click(screen.getByTestId('notification-bell'));
    expect(await screen.findByText('No notifications received')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dismiss All' })).toBeDisabled();
  });

  it('dismisses one item and then all, through the calls that persist', async () => {
    const fetch = setup([item(2, 'OTHER', { message: 'two' }), item(1, 'OTHER', { message: 'one' })]);
    await userEvent.click(await screen.findByTestId('notification-bell'));
    const panel = await screen.findByTestId('notification-panel');
    await within(panel).findByText('two');
    await userEvent.click(
      within(within(panel).getAllByTestId('notification-item')[0]).getByRole('button', { name: 'Dismiss' }),
    );
    await waitFor(() => expect(within(panel).queryByText('two')).toBeNull());
    expect(fetch.calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/notifications/2/dismiss'))).toBe(true);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('1');

    const all = within(panel).getByRole('button', { name: 'Dismiss All' });
    expect(all).toBeEnabled();
    await userEvent.click(all);
    expect(await within(panel).findByText('No notifications received')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/notifications/dismiss-all'))).toBe(true);
    expect(within(panel).getByRole('button', { name: 'Dismiss All' })).toBeDisabled();
  });

  it('grows the list with socket messages (not silent ones), toasts them, and checks the process log on processing completion', async () => {
    const fetch = setup([]);
    fetch.respond('GET', '/api/processedData/processLogUrl/PF1', 200, {
      url: '/files/process-logs/1/PF1.log?expires=1&sig=x',
      fileExists: true,
    });
    await waitFor(() => expect(socket.handlers).not.toBeNull());
    await act(async () => {
      socket.handlers!.onNotification(item(10, 'IMPORT_FILE', { fileName: 'holdings.csv', status: 'DONE' }));
      socket.handlers!.onNotification(item(11, 'UNMAPPED_DOC_COUNT', { message: '4' }));
      socket.handlers!.onNotification(
        item(12, 'PORTFOLIO_PROCESSING', { status: 'COMPLETED', portfolioCode: 'PF1', portfolioName: 'Main' }),
      );
    });
    expect(await screen.findByText('holdings.csv imported successfully')).toBeInTheDocument();
    expect(await screen.findByText('Portfolio processing completed')).toBeInTheDocument();
    expect(await screen.findByText('Warning logs available')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.url.endsWith('/api/processedData/processLogUrl/PF1'))).toBe(true);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');
  });

  it('shows a notification that arrives twice (replayed after an outage) once: one list entry, one toast', async () => {
    setup([]);
    await waitFor(() => expect(socket.handlers).not.toBeNull());
    const twice = item(20, 'IMPORT_FILE', { fileName: 'twice.csv', status: 'DONE' });
    await act(async () => {
      socket.handlers!.onNotification(twice);
      socket.handlers!.onNotification(item(21, 'OTHER', { message: 'between' }));
      socket.handlers!.onNotification({ ...twice });
    });
    expect(await screen.findByText('twice.csv imported successfully')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getAllByText('twice.csv imported successfully')).toHaveLength(1);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');
    await userEvent.click(screen.getByTestId('notification-bell'));
    const panel = await screen.findByTestId('notification-panel');
    expect(within(panel).getAllByTestId('notification-item')).toHaveLength(2);
  });

  it('does not start the socket for an account that must first enrol in MFA', async () => {
    const fetch = setup([], { ...user, isMFAEnforced: true, isMFAEnabled: false });
    await waitFor(() => expect(fetch.calls.some((c) => c.url.endsWith('/api/users/current'))).toBe(true));
    await new Promise((r) => setTimeout(r, 100));
    expect(socket.started).toBe(0);
    expect(fetch.calls.some((c) => c.url.endsWith('/api/notifications'))).toBe(false);
  });

  it('stops the socket when authentication no longer validates (session expired)', async () => {
    setup([]);
    await waitFor(() => expect(socket.started).toBe(1));
    await act(async () => {
      window.dispatchEvent(new Event('session-expired'));
    });
    await waitFor(() => expect(socket.stopped).toBe(1));
  });
});

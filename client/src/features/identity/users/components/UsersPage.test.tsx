import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UserListItem, UserListPage } from '@shared/api-types';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { UsersPage } from './UsersPage';

function item(id: number, patch: Partial<UserListItem> = {}): UserListItem {
  return {
    id,
    userEmail: `user${id}@example.com`,
    isBlocked: false,
    isDisabled: false,
    userRoles: [Role.STANDARD_ADMIN],
    firstName: 'User',
    lastName: String(id),
    lastLoginDateTime: '2026-03-04T05:06:00.000Z',
    isMFAEnforced: true,
    isMFAEnabled: false,
    isSSO: false,
    ...patch,
  };
}

function page(items: UserListItem[], totalRecords = items.length, p = 1, pageSize = 50): UserListPage {
  return { items, totalRecords, page: p, pageSize, organisationId: 10, organisationName: 'Acme Pty Ltd' };
}

function setup(
  roles: Role[],
  list: (query: URLSearchParams) => { status?: number; body?: unknown } = () => ({ body: page([item(2)]) }),
) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/users': (c) => list(new URL(c.path, 'http://x').searchParams),
    'GET api/app-info': {
      body: {
        productName: 'Tax Portal',
        version: '1',
        appEnv: 'production',
        ssoEnabled: false,
        supportEmail: 'help@vendor.test',
      },
    },
    'PUT api/mfa/disableUserMfa': { body: { success: true } },
    'POST api/users/3/erase': { body: { success: true, message: 'The account has been erased.' } },
  });
  const utils = renderPage('/users', '/users', <UsersPage />, [
    { path: '/users/roles/:id', element: <div data-testid="roles-page" /> },
    { path: '/users/:userId/user-groups', element: <div data-testid="groups-page" /> },
  ]);
  return { ...server, ...utils };
}

const listQueries = (calls: ReturnType<typeof setup>['calls']) =>
  calls
    .filter((c) => c.method === 'GET' && /^api\/users(\?|$)/.test(c.path))
    .map((c) => new URL(c.path, 'http://x').searchParams);

describe('UsersPage', () => {
  it('titles the page with the company and shows the columns in the order of the specification', async () => {
    setup([Role.SITE_ADMIN]);
    expect(await screen.findByRole('heading', { name: 'Users of Acme Pty Ltd' })).toBeInTheDocument();
    const headers = within(screen.getByTestId('users-table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Name',
      'Email',
      'Last Activity',
      'MFA Enabled',
      'SSO Enabled',
      'MFA Enforced',
      'Enabled',
      'System Enabled',
      'Role',
      'Actions',
    ]);
  });

  it.each([
    [Role.SITE_ADMIN, ['User Sessions', 'Create User', 'Manage Billing', 'Directory Provisioning', 'Integrations']],
    [Role.ADMINISTRATOR, ['User Sessions', 'Create User', 'Manage Billing', 'Directory Provisioning']],
    [Role.STANDARD_ADMIN, ['Manage Billing']],
    [Role.E_SUPPORT, ['Create Site Admin', 'Create E-Support Account', 'Directory Provisioning', 'Integrations']],
  ])('shows role %s only its header buttons', async (role, expected) => {
    setup([role]);
    await screen.findByRole('heading', { name: /Users of/ });
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(1));
    const all = [
      'User Sessions',
      'Create User',
      'Manage Billing',
      'Create Site Admin',
      'Create E-Support Account',
      'Directory Provisioning',
      'Integrations',
    ];
    for (const label of all) {
      if (expected.includes(label)) expect(screen.getByRole('link', { name: label })).toBeInTheDocument();
      else expect(screen.queryByRole('link', { name: label })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: expected[0] })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/users\//),
    );
  });

  it("shows 'N/A' for an empty name, 'Unknown / Never Logged In' without a login, and role display names comma separated", async () => {
    setup([Role.SITE_ADMIN], () => ({
      body: page([
        item(2, {
          firstName: '',
          lastName: '',
          lastLoginDateTime: null,
          userRoles: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR],
          isMFAEnabled: true,
          isBlocked: true,
        }),
      ]),
    }));
    const row = await screen.findByTestId('user-row');
    const cell = (c: string) => row.querySelector(`[data-column="${c}"]`)!.textContent;
    expect(cell('name')).toBe('N/A');
    expect(cell('lastActivity')).toBe('Unknown / Never Logged In');
    expect(cell('role')).toBe('Standard Admin, Administrator');
    expect(cell('mfaEnabled')).toBe('Yes');
    expect(cell('systemEnabled')).toBe('No');
    expect(cell('enabled')).toBe('Yes');
  });

  it("says 'No users found' when nothing matches", async () => {
    setup([Role.SITE_ADMIN], () => ({ body: page([], 0) }));
    expect(await screen.findByText('No users found')).toBeInTheDocument();
    expect(screen.getByTestId('page-report')).toHaveTextContent('Showing 0 to 0 of 0 entries');
  });

  it('pages on the server: 50 rows by default, 25/50/100 to choose, and the page report', async () => {
    const { calls } = setup([Role.SITE_ADMIN], (q) => {
      const size = Number(q.get('pageSize'));
      const p = Number(q.get('page'));
      return { body: page([item(p * 1000)], 120, p, size) };
    });
    expect(await screen.findByTestId('page-report')).toHaveTextContent('Showing 1 to 50 of 120 entries');
    expect(listQueries(calls)[0].get('pageSize')).toBe('50');
    const select = screen.getByRole('combobox', { name: 'Rows per page' });
    expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['25', '50', '100']);

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() =>
      expect(screen.getByTestId('page-report')).toHaveTextContent('Showing 51 to 100 of 120 entries'),
    );
    expect(listQueries(calls).at(-1)!.get('page')).toBe('2');

    await userEvent.click(screen.getByRole('button', { name: 'Last page' }));
    await waitFor(() =>
      expect(screen.getByTestId('page-report')).toHaveTextContent('Showing 101 to 120 of 120 entries'),
    );

    await userEvent.selectOptions(select, '25');
    await waitFor(() => expect(screen.getByTestId('page-report')).toHaveTextContent('Showing 1 to 25 of 120 entries'));
    const last = listQueries(calls).at(-1)!;
    expect([last.get('page'), last.get('pageSize')]).toEqual(['1', '25']);
  });

  it('sends the filters to the server, debouncing the text, and the roles dropdown can be cleared', async () => {
    const { calls } = setup([Role.SITE_ADMIN]);
    await screen.findByTestId('user-row');
    const before = listQueries(calls).length;
    await userEvent.type(screen.getByPlaceholderText('Filter by name or email'), 'smith');
    await waitFor(() => expect(listQueries(calls).at(-1)!.get('searchText')).toBe('smith'));
    // One request for the whole word, not one per key.
    expect(
      listQueries(calls)
        .slice(before)
        .filter((q) => q.get('searchText')).length,
    ).toBe(1);

    const access = screen.getByRole('combobox', { name: 'Access level' });
    expect([...access.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All users',
      'Has access',
      'Has no access',
    ]);
    await userEvent.selectOptions(access, 'noAccess');
    await waitFor(() => expect(listQueries(calls).at(-1)!.get('accessLevel')).toBe('noAccess'));

    const role = screen.getByRole('combobox', { name: 'Role' });
    expect([...role.querySelectorAll('option')].map((o) => o.textContent)).toContain('Portfolio Manager');
    await userEvent.selectOptions(role, String(Role.PORTFOLIO_MANAGER));
    await waitFor(() => expect(listQueries(calls).at(-1)!.get('role')).toBe('5'));
    await userEvent.click(screen.getByRole('button', { name: 'Clear role filter' }));
    await waitFor(() => expect(listQueries(calls).at(-1)!.get('role')).toBeNull());
    expect(role).toHaveValue('');
  });

  it('gives writers the actions column and double-click to the roles page', async () => {
    const { router } = setup([Role.ADMINISTRATOR]);
    const row = await screen.findByTestId('user-row');
    expect(screen.getByTestId('actions-column')).toBeInTheDocument();
    fireEvent.doubleClick(row);
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/roles/2'));
  });

  it('gives a read-only role neither the actions column nor the double-click', async () => {
    const { router } = setup([Role.STANDARD_ADMIN]);
    const row = await screen.findByTestId('user-row');
    expect(screen.queryByTestId('actions-column')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
    fireEvent.doubleClick(row);
    await new Promise((r) => setTimeout(r, 50));
    expect(router.state.location.pathname).toBe('/users');
  });

  it("offers 'Disable User MFA' only for a user with MFA, and reloads the list after it", async () => {
    const { calls } = setup([Role.SITE_ADMIN], () => ({
      body: page([item(2, { isMFAEnabled: false }), item(3, { isMFAEnabled: true })]),
    }));
    await screen.findAllByTestId('user-row');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for user2@example.com' }));
    expect(await screen.findByRole('menuitem', { name: 'Disable User MFA' })).toHaveAttribute('data-disabled');
    expect(screen.getByRole('menuitem', { name: 'Update User Details' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'View User Group Mapping' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for user3@example.com' }));
    const before = listQueries(calls).length;
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Disable User MFA' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT' && c.path === 'api/mfa/disableUserMfa')).toHaveLength(1),
    );
    expect(calls.find((c) => c.path === 'api/mfa/disableUserMfa')!.body).toEqual({ userId: 3 });
    await waitFor(() => expect(listQueries(calls).length).toBeGreaterThan(before));
  });

  it('E-Support asks for support access from the row menu, with a reason of 10 to 500 characters', async () => {
    const { calls, respond } = setup([Role.E_SUPPORT]);
    respond('POST', 'api/support-access', 201, { id: 9, status: 'pending', expiresAt: '2026-12-03T08:00:00.000Z' });
    await screen.findAllByTestId('user-row');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for user2@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Request support access' }));
    const dialog = await screen.findByTestId('support-access-request');
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    await userEvent.type(reason, 'too short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(calls.filter((c) => c.method === 'POST' && c.path === 'api/support-access')).toHaveLength(0);
    await userEvent.type(reason, ' for a real look');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(calls.filter((c) => c.path === 'api/support-access')).toHaveLength(1));
    expect(calls.find((c) => c.path === 'api/support-access')!.body).toEqual({
      userId: 2,
      reason: 'too short for a real look',
    });
  });

  it('only E-Support sees the support-access request in the row menu', async () => {
    setup([Role.SITE_ADMIN]);
    await screen.findAllByTestId('user-row');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for user2@example.com' }));
    await screen.findByRole('menuitem', { name: 'Update User Details' });
    expect(screen.queryByRole('menuitem', { name: 'Request support access' })).not.toBeInTheDocument();
  });

  it("shows 'Failed to disable user MFA' when that fails", async () => {
    fakeServer({
      'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
      'GET api/users': { body: page([item(3, { isMFAEnabled: true })]) },
      'PUT api/mfa/disableUserMfa': { status: 400, body: { success: false, message: 'nope' } },
    });
    renderPage('/users', '/users', <UsersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user3@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Disable User MFA' }));
    expect(await screen.findByText('Failed to disable user MFA')).toBeInTheDocument();
  });

  it("offers no 'Erase' for an account whose access is on", async () => {
    setup([Role.SITE_ADMIN], () => ({ body: page([item(2)]) }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user2@example.com' }));
    await screen.findByRole('menuitem', { name: 'Update User Details' });
    expect(screen.queryByRole('menuitem', { name: 'Erase' })).toBeNull();
  });

  it("offers 'Erase' to site admins for an account whose access is off, after a confirmation", async () => {
    const { calls } = setup([Role.SITE_ADMIN], () => ({ body: page([item(3, { isDisabled: true })]) }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user3@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Erase' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('user3@example.com will be erased for good');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST' && c.path === 'api/users/3/erase')).toHaveLength(1),
    );
    expect(await screen.findByText('The account has been erased.')).toBeInTheDocument();
    // A menu and a dialog: more than the default 5 s on a loaded machine.
  }, 20_000);

  it("an administrator is not offered 'Erase'", async () => {
    setup([Role.ADMINISTRATOR], () => ({ body: page([item(3, { isDisabled: true })]) }));
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user3@example.com' }));
    await screen.findByRole('menuitem', { name: 'Update User Details' });
    expect(screen.queryByRole('menuitem', { name: 'Erase' })).toBeNull();
  });

  it('opens the roles page and the user group mapping from the row menu', async () => {
    const { router } = setup([Role.SITE_ADMIN]);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for user2@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'View User Group Mapping' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/2/user-groups'));
  });

  it('tells the user the list is unavailable, support is notified, and how to reach support', async () => {
    setup([Role.SITE_ADMIN], () => ({ status: 500, body: { success: false, message: 'boom' } }));
    expect(await screen.findByText('User information is currently unavailable')).toBeInTheDocument();
    expect(screen.getByText(/support team has been notified/)).toBeInTheDocument();
    expect(await screen.findByTestId('support-contact')).toHaveAttribute('href', 'mailto:help@vendor.test');
  });

  it('shows a progress bar while the list loads', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fakeServer({
      'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
      'GET api/users': { body: page([item(2)]) },
    });
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (/api\/users\?/.test(String(input))) await gate;
      return original(input, init);
    }) as typeof fetch;
    renderPage('/users', '/users', <UsersPage />);
    expect(await screen.findByTestId('users-loading')).toBeInTheDocument();
    release();
    await screen.findByTestId('user-row');
    await waitFor(() => expect(screen.queryByTestId('users-loading')).not.toBeInTheDocument());
  });

  it('resizes a column by dragging the handle on its header edge', async () => {
    setup([Role.SITE_ADMIN]);
    await screen.findByTestId('user-row');
    const header = screen.getByTestId('column-email');
    const width = () => parseInt(header.style.width, 10);
    const w0 = width();
    fireEvent.pointerDown(screen.getByTestId('resize-email'), { clientX: 100 });
    fireEvent.pointerMove(window, { clientX: 180 });
    fireEvent.pointerUp(window);
    expect(width()).toBe(w0 + 80);
  });
});

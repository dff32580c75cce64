import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OrganisationInfo } from '@shared/api-types';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { CreateUserPage } from './CreateUserPage';

function org(patch: Partial<OrganisationInfo> = {}): OrganisationInfo {
  return {
    id: 10,
    code: 'ACME',
    name: 'Acme',
    accountType: 'Organization',
    applications: [],
    isSSOEnabled: false,
    allowedUsersNumber: 5,
    maxConcurrentUsers: 5,
    activeUsers: 1,
    users: [{ id: 1, userEmail: 'ada@example.com', isDisabled: false, isBlocked: false }],
    ...patch,
  };
}

function setup(
  roles: Role[] = [Role.SITE_ADMIN],
  o: { status?: number; body: unknown } = { body: org() },
  add: { status?: number; body: unknown } = { status: 201, body: { success: true, id: 9 } },
) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET auth/organisation': o,
    'POST api/users/add': add,
  });
  const utils = renderPage('/users/new', '/users/new', <CreateUserPage />, [
    { path: '/users', element: <div data-testid="users-list" /> },
  ]);
  return { ...server, ...utils };
}

describe('CreateUserPage', () => {
  it('notes the active-user allowance of the organisation', async () => {
    setup([Role.SITE_ADMIN], { body: org({ allowedUsersNumber: 3 }) });
    expect(
      await screen.findByText('Your organisation is allowed to create unlimited users but only 3 active user(s).'),
    ).toBeInTheDocument();
  });

  it("says 'User email must not be empty' and sends nothing without an e-mail", async () => {
    const { calls } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('User email must not be empty')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("creates a user with MFA enforced and no SSO by default, toasts 'The user has been added' and goes to the users", async () => {
    const { calls, router } = setup();
    await userEvent.type(await screen.findByLabelText('Email'), '  new.user@example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(calls.find((c) => c.path === 'api/users/add')!.body).toEqual({
      userEmail: 'new.user@example.com',
      isMFAEnforced: true,
      userRoleIds: [Role.STANDARD_ADMIN],
      isSSO: false,
    });
    expect(await screen.findByText('The user has been added')).toBeInTheDocument();
  });

  it("offers 'Grant Administrator Privileges' only with the base role, and sends role 3 beside it", async () => {
    const { calls } = setup();
    const role = await screen.findByRole('combobox', { name: 'Role' });
    expect([...role.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Standard Admin',
      'Portfolio Manager',
      'Analyst',
      'Viewer',
    ]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Grant Administrator Privileges' }));
    await userEvent.selectOptions(role, String(Role.VIEWER));
    expect(screen.queryByRole('checkbox', { name: 'Grant Administrator Privileges' })).not.toBeInTheDocument();
    await userEvent.selectOptions(role, String(Role.STANDARD_ADMIN));
    // Leaving the base role dropped the flag.
    expect(screen.getByRole('checkbox', { name: 'Grant Administrator Privileges' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Grant Administrator Privileges' }));
    await userEvent.type(screen.getByLabelText('Email'), 'boss@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/add')?.body).toMatchObject({
        userRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR],
      }),
    );
  });

  it("disables 'Single Sign-On' unless the organisation has SSO", async () => {
    setup();
    expect(await screen.findByRole('checkbox', { name: 'Single Sign-On' })).toBeDisabled();
  });

  it("enables 'Single Sign-On' when the organisation has SSO and sends it", async () => {
    const { calls } = setup([Role.SITE_ADMIN], { body: org({ isSSOEnabled: true }) });
    const sso = await screen.findByRole('checkbox', { name: 'Single Sign-On' });
    expect(sso).toBeEnabled();
    await userEvent.click(sso);
    await userEvent.type(screen.getByLabelText('Email'), 'sso@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'api/users/add')?.body).toMatchObject({ isSSO: true }));
  });

  it('shows the failure in a dialog with the message', async () => {
    setup(
      [Role.SITE_ADMIN],
      { body: org() },
      { status: 409, body: { success: false, message: 'A user with this email already exists.' } },
    );
    await userEvent.type(await screen.findByLabelText('Email'), 'dup@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('A user with this email already exists.');
  });

  it("says 'Failed to load current customer organisation information' when the organisation cannot be read", async () => {
    setup([Role.SITE_ADMIN], { status: 500, body: { success: false, message: 'x' } });
    expect(await screen.findByText('Failed to load current customer organisation information')).toBeInTheDocument();
  });
});

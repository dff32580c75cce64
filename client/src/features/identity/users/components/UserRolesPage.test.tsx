import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SingleUser } from '@shared/api-types';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { UserRolesPage } from './UserRolesPage';

function single(patch: Partial<SingleUser> = {}, roleIds: number[] = [Role.STANDARD_ADMIN]): SingleUser {
  return {
    id: 7,
    organisationId: 10,
    isDisabled: false,
    isMFAEnforced: true,
    isMFAEnabled: false,
    isSSO: false,
    firstName: 'Grace',
    lastName: 'Hopper',
    userEmail: 'grace@example.com',
    userUserRoleMapping: roleIds.map((roleId) => ({ roleId })),
    jobTitle: '',
    department: '',
    location: '',
    ...patch,
  };
}

function setup(
  myRoles: Role[],
  user: SingleUser = single(),
  opts: {
    me?: number;
    change?: { status: number; body: unknown };
    lastLogin?: { status?: number; body: unknown };
  } = {},
) {
  const ok = opts.change ?? { status: 200, body: { success: true } };
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(myRoles, { id: opts.me ?? 1 }) },
    [`GET api/users/byId/${user.id}`]: { body: user },
    [`GET api/userLoginActivities/${user.id}`]: opts.lastLogin ?? {
      body: { loginDateTime: '2026-01-02T03:04:00.000Z' },
    },
    'PUT api/users/updateRole': ok,
    'PUT api/users/disableUser': ok,
    'PUT api/users/updateSsoStatus': ok,
    'PUT api/users/enforceMFA': ok,
    'PUT api/mfa/disableUserMfa': ok,
  });
  renderPage(`/users/roles/${user.id}`, '/users/roles/:id', <UserRolesPage />);
  return server;
}

const roleOptions = () =>
  [...screen.getByRole('combobox', { name: 'Role' }).querySelectorAll('option:not([disabled])')].map(
    (o) => o.textContent,
  );

describe('UserRolesPage', () => {
  it('heads the page "{name}\'s Details" with the e-mail and the last access date', async () => {
    setup([Role.SITE_ADMIN]);
    expect(await screen.findByRole('heading', { name: "Grace Hopper's Details" })).toBeInTheDocument();
    expect(screen.getByText('grace@example.com')).toBeInTheDocument();
    expect(await screen.findByTestId('last-access')).toHaveTextContent(
      /Last access: \w{3}, \d{1,2} Jan 2026, \d{1,2}:04:00 (AM|PM)$/,
    );
  });

  it("heads it 'Account Details' without a name, and says when the last access cannot be read", async () => {
    setup([Role.SITE_ADMIN], single({ firstName: '', lastName: '' }), {
      lastLogin: { status: 500, body: { success: false, message: 'down' } },
    });
    expect(await screen.findByRole('heading', { name: 'Account Details' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('last-access')).toHaveTextContent('The last access date could not be loaded: down'),
    );
  });

  it('toggles access (hasAccess is isDisabled inverted), toasts the save and reloads the account', async () => {
    const { calls } = setup([Role.ADMINISTRATOR]);
    const box = await screen.findByRole('checkbox', { name: 'User Enabled' });
    expect(box).toBeChecked();
    await userEvent.click(box);
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/disableUser')?.body).toEqual({ userId: 7, isDisabled: true }),
    );
    expect(await screen.findByText('Your change has been saved')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.path === 'api/users/byId/7').length).toBe(2));
  });

  it('keeps the own access read-only and offers only the own role when editing oneself', async () => {
    const { calls } = setup([Role.SITE_ADMIN], single({ id: 1 }, [Role.SITE_ADMIN]), { me: 1 });
    const box = await screen.findByRole('checkbox', { name: 'User Enabled' });
    await userEvent.click(box);
    expect(box).toBeChecked();
    expect(roleOptions()).toEqual(['Site Admin']);
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('lets site admins and administrators assign the four roles, support only Site Admin', async () => {
    setup([Role.ADMINISTRATOR]);
    await screen.findByRole('combobox', { name: 'Role' });
    expect(roleOptions()).toEqual(['Standard Admin', 'Portfolio Manager', 'Analyst', 'Viewer']);
  });

  it('lets support assign only the site admin role', async () => {
    const { calls } = setup([Role.E_SUPPORT]);
    await screen.findByRole('combobox', { name: 'Role' });
    expect(roleOptions()).toEqual(['Site Admin']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Role' }), String(Role.SITE_ADMIN));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/updateRole')?.body).toEqual({
        userId: 7,
        newUserRoleIds: [Role.SITE_ADMIN],
      }),
    );
    // Support edits roles only: no access, administrator, SSO or MFA toggles.
    const access = screen.getByRole('checkbox', { name: 'User Enabled' });
    await userEvent.click(access);
    expect(access).toBeChecked();
    expect(calls.some((c) => c.path === 'api/users/disableUser')).toBe(false);
    expect(screen.queryByRole('checkbox', { name: 'Administrator' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'SSO Enabled' })).not.toBeInTheDocument();
  });

  it("shows site admins 'Administrator' (base role only) and 'SSO Enabled'; saving sends the role plus 3", async () => {
    const { calls } = setup([Role.SITE_ADMIN]);
    const admin = await screen.findByRole('checkbox', { name: 'Administrator' });
    expect(screen.getByRole('checkbox', { name: 'SSO Enabled' })).not.toBeChecked();
    await userEvent.click(admin);
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/updateRole')?.body).toEqual({
        userId: 7,
        newUserRoleIds: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR],
      }),
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'SSO Enabled' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/updateSsoStatus')?.body).toEqual({
        userId: 7,
        isSSOEnabled: true,
      }),
    );
  });

  it('hides the administrator checkbox for a role other than the base role, and for administrators', async () => {
    setup([Role.SITE_ADMIN], single({}, [Role.ANALYST]));
    await screen.findByRole('checkbox', { name: 'SSO Enabled' });
    expect(screen.queryByRole('checkbox', { name: 'Administrator' })).not.toBeInTheDocument();
  });

  it('administrators see neither the administrator, SSO nor the Disable User MFA controls', async () => {
    setup([Role.ADMINISTRATOR], single({ isMFAEnabled: true }));
    await screen.findByRole('checkbox', { name: 'User Enabled' });
    expect(screen.queryByRole('checkbox', { name: 'Administrator' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'SSO Enabled' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disable User MFA' })).not.toBeInTheDocument();
  });

  it('turning off the base role clears the administrator flag', async () => {
    const { calls } = setup([Role.SITE_ADMIN], single({}, [Role.STANDARD_ADMIN, Role.ADMINISTRATOR]));
    expect(await screen.findByRole('checkbox', { name: 'Administrator' })).toBeChecked();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Role' }), String(Role.ANALYST));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/updateRole')?.body).toEqual({
        userId: 7,
        newUserRoleIds: [Role.ANALYST],
      }),
    );
  });

  it("enables 'Disable User MFA' only when the user has MFA", async () => {
    setup([Role.SITE_ADMIN]);
    expect(await screen.findByRole('button', { name: 'Disable User MFA' })).toBeDisabled();
  });

  it("disables the user's MFA for a site admin and reloads", async () => {
    const { calls } = setup([Role.SITE_ADMIN], single({ isMFAEnabled: true }));
    await userEvent.click(await screen.findByRole('button', { name: 'Disable User MFA' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'api/mfa/disableUserMfa')?.body).toEqual({ userId: 7 }));
    expect(await screen.findByText('Your change has been saved')).toBeInTheDocument();
  });

  it("toasts 'Error' with the server's message when a change fails", async () => {
    setup([Role.SITE_ADMIN], single(), {
      change: { status: 400, body: { success: false, message: 'The organisation has reached its limit' } },
    });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'User Enabled' }));
    const toast = await screen.findByText('The organisation has reached its limit');
    expect(within(toast.closest('[data-testid="toast"]') as HTMLElement).getByText('Error')).toBeInTheDocument();
  });

  it("toasts 'Error' with the message when the account cannot be loaded", async () => {
    fakeServer({
      'GET api/users/current': { body: currentUser([Role.SITE_ADMIN]) },
      'GET api/users/byId/99': { status: 404, body: { success: false, message: 'User not found' } },
    });
    renderPage('/users/roles/99', '/users/roles/:id', <UserRolesPage />);
    expect(await screen.findByTestId('roles-error')).toHaveTextContent('User not found');
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Error');
    expect(toast).toHaveTextContent('User not found');
  });
});

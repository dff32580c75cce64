import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CurrentUserInfo, SingleUser } from '@shared/api-types';
import { Role } from '@shared/roles';
import { LOGOUT_REASON_KEY } from '@/lib/auth-storage';
import { SESSION_EXPIRED_EVENT, tokenStore } from '@/lib/api';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { ProfilePage } from './ProfilePage';

function me(patch: Partial<SingleUser> = {}): SingleUser {
  return {
    id: 1,
    organisationId: 10,
    isDisabled: false,
    isMFAEnforced: false,
    isMFAEnabled: false,
    isSSO: false,
    firstName: 'Ada',
    lastName: 'Admin',
    userEmail: 'ada@example.com',
    userUserRoleMapping: [{ roleId: Role.VIEWER }],
    jobTitle: 'Analyst',
    department: 'Tax',
    location: 'Sydney',
    ...patch,
  };
}

type R = { status?: number; body?: unknown };
function setup(opts: { user?: Partial<CurrentUserInfo>; single?: R; update?: R; password?: R; path?: string } = {}) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([Role.VIEWER], opts.user) },
    'GET api/users/byId/1': opts.single ?? {
      body: me({ isMFAEnforced: !!opts.user?.isMFAEnforced, isMFAEnabled: !!opts.user?.isMFAEnabled }),
    },
    'PUT api/users/updateUser': opts.update ?? { body: { success: true } },
    'PATCH api/users/updatePassword': opts.password ?? { body: { success: true } },
    'POST auth/logout': { body: { success: true } },
  });
  const utils = renderPage(opts.path ?? '/users/profile/1', '/users/profile/:id', <ProfilePage />);
  return { ...server, ...utils };
}

describe('ProfilePage', () => {
  it('titles the page exactly and fills the About you form', async () => {
    setup();
    expect(
      await screen.findByRole('heading', { name: 'Profile – Manage your profile and personal information' }),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Job title')).toHaveValue('Analyst');
    expect(
      screen.queryByText('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.'),
    ).not.toBeInTheDocument();
  });

  it("shows the directory's fields read-only with a note when the organisation's directory manages the account", async () => {
    setup({ single: { body: me({ isDirectoryManaged: true }) } });
    expect(await screen.findByTestId('directory-managed-note')).toHaveTextContent(/directory manages this account/);
    for (const label of ['First name', 'Last name', 'Job title', 'Department'])
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Location')).not.toHaveAttribute('readonly');
  });

  it('sends another id to the own profile', async () => {
    const { router } = setup({ path: '/users/profile/42?mfaRequired=true' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/profile/1'));
    expect(router.state.location.search).toBe('?mfaRequired=true');
  });

  it("saves the details trimmed and says 'Your details have been saved'", async () => {
    const { calls } = setup();
    const first = await screen.findByLabelText('First name');
    await userEvent.clear(first);
    await userEvent.type(first, '  Ada  ');
    await userEvent.clear(screen.getByLabelText('Location'));
    await userEvent.type(screen.getByLabelText('Location'), ' Melbourne ');
    await userEvent.click(screen.getByRole('button', { name: 'Update profile' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'api/users/updateUser')?.body).toEqual({
        firstName: 'Ada',
        lastName: 'Admin',
        jobTitle: 'Analyst',
        department: 'Tax',
        location: 'Melbourne',
      }),
    );
    expect(await screen.findByText('Your details have been saved')).toBeInTheDocument();
  });

  it('shows a failure dialog with the message, or "Something went wrong" without one', async () => {
    setup({ update: { status: 500, body: {} } });
    await userEvent.click(await screen.findByRole('button', { name: 'Update profile' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Something went wrong');
  });

  it('shows the server message in the failure dialog', async () => {
    setup({
      update: {
        status: 400,
        body: { success: false, message: 'firstName must be shorter than or equal to 100 characters' },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Update profile' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      'firstName must be shorter than or equal to 100 characters',
    );
  });

  it("says 'Failed to get user data.' when the profile cannot be read", async () => {
    setup({ single: { status: 500, body: { success: false, message: 'x' } } });
    expect(await screen.findByText('Failed to get user data.')).toBeInTheDocument();
  });

  it("shows the enforced-MFA banner and hides 'Update profile' while MFA is enforced but not enabled", async () => {
    setup({ user: { isMFAEnforced: true, isMFAEnabled: false }, path: '/users/profile/1?mfaRequired=true' });
    expect(
      await screen.findByText('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.'),
    ).toBeInTheDocument();
    await screen.findByLabelText('First name');
    expect(screen.queryByRole('button', { name: 'Update profile' })).not.toBeInTheDocument();
    expect(screen.getByTestId('mfa-status')).toHaveTextContent('Disabled');
    expect(screen.getByRole('button', { name: 'Enable' })).toBeInTheDocument();
  });

  it("refuses different new passwords with 'Your passwords don't match'", async () => {
    const { calls } = setup();
    await userEvent.type(await screen.findByLabelText('Old password'), 'Old-Pass-1');
    await userEvent.type(screen.getByLabelText('New password'), 'New-Pass-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'New-Pass-2');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm password' }));
    expect(await screen.findByText("Your passwords don't match")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('changes the password, tells the user to log in again, and logs out', async () => {
    const { calls } = setup();
    await userEvent.type(await screen.findByLabelText('Old password'), 'Old-Pass-1');
    await userEvent.type(screen.getByLabelText('New password'), 'New-Pass-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'New-Pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm password' }));
    const alert = await screen.findByRole('alertdialog');
    expect(alert).toHaveTextContent('Your password has been changed. Please log in again using your new password.');
    expect(calls.find((c) => c.path === 'api/users/updatePassword')!.body).toEqual({
      userPassword: 'New-Pass-1',
      currentPassword: 'Old-Pass-1',
    });
    await userEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'auth/logout')).toBe(true));
    await waitFor(() => expect(tokenStore.get()).toBeNull());
  });

  it('keeps the alert up although the change has already ended this session on the server, then logs out with its reason', async () => {
    setup();
    await userEvent.type(await screen.findByLabelText('Old password'), 'Old-Pass-1');
    await userEvent.type(screen.getByLabelText('New password'), 'New-Pass-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'New-Pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm password' }));
    const alert = await screen.findByRole('alertdialog');
    // Another call of this page meets the ended session (401 SESSION_ENDED).
    act(() => void window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT)));
    expect(screen.getByRole('alertdialog')).toHaveTextContent(
      'Your password has been changed. Please log in again using your new password.',
    );
    expect(tokenStore.get()).not.toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sessionStorage.getItem(LOGOUT_REASON_KEY)).toBe('Logged out as password changed'));
    expect(tokenStore.get()).toBeNull();
  });

  it('shows a failed password change in the failure dialog', async () => {
    setup({ password: { status: 400, body: { success: false, message: 'The current password is not correct.' } } });
    await userEvent.type(await screen.findByLabelText('Old password'), 'Wrong-1');
    await userEvent.type(screen.getByLabelText('New password'), 'New-Pass-1');
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'New-Pass-1');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm password' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('The current password is not correct.');
    expect(sessionStorage.getItem(LOGOUT_REASON_KEY)).toBeNull();
  });
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { authState, chooseMenuItem, renderRoutes, signedIn, signedOut } from '@/test/shell';
import { initials, ProfileMenu, profileTooltip } from './ProfileMenu';

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const items = async () =>
  within(await screen.findByTestId('profile-menu'))
    .getAllByRole('menuitem')
    .map((i) => i.textContent);

function renderMenu(path = '/reports') {
  return renderRoutes(
    [
      { path: '*', element: <ProfileMenu /> },
      { path: '/logIn', element: <p>login page</p> },
      { path: '/user-manual', element: <p>manual page</p> },
    ],
    path,
  );
}

describe('Profile menu (spec 001 §2.5)', () => {
  beforeEach(() => {
    authState.current = signedOut();
  });

  it('logged in: the status line and the eight entries', async () => {
    authState.current = signedIn([Role.ANALYST]);
    renderMenu();
    expect(screen.getByTestId('profile-button')).toHaveTextContent('AL');
    await userEvent.click(screen.getByTestId('profile-button'));
    expect(await items()).toEqual([
      "You're logged in.",
      'Profile',
      'My Security',
      'User Manual',
      'Give Feedback',
      'Announcements',
      'Contact Us',
      'About',
      'Log Out',
    ]);
    expect(screen.getByRole('menuitem', { name: "You're logged in." })).toHaveAttribute('aria-disabled', 'true');
  });

  it('logged out: the status line, Give Feedback and Log In', async () => {
    renderMenu('/terms/terms');
    await userEvent.click(screen.getByTestId('profile-button'));
    expect(await items()).toEqual(["You're logged out.", 'Give Feedback', 'Log In']);
    await chooseMenuItem(await screen.findByTestId('profile-menu'), 'Log In');
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it('logged out, Give Feedback opens the Contact Us form with the subject Feedback', async () => {
    renderMenu('/terms/privacy');
    await userEvent.click(screen.getByTestId('profile-button'));
    await chooseMenuItem(await screen.findByTestId('profile-menu'), 'Give Feedback');
    const dialog = await screen.findByTestId('contact-dialog');
    expect(within(dialog).getByLabelText(/Subject/)).toHaveValue('Feedback');
    expect(within(dialog).getByLabelText(/Name/)).toHaveValue('');
  });

  it('Log Out asks first, then signs out and remembers the last working path', async () => {
    authState.current = signedIn([Role.SITE_ADMIN]);
    renderMenu('/reports?tab=2');
    await userEvent.click(screen.getByTestId('profile-button'));
    await chooseMenuItem(await screen.findByTestId('profile-menu'), 'Log Out');
    expect(await screen.findByText('Are you sure you want to log out?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(authState.current.signOut).toHaveBeenCalled();
    expect(localStorage.getItem('lastWorkingPath')).toBe('/reports?tab=2');
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });

  it.each([
    ['Give Feedback', 'feedback-dialog'],
    ['Contact Us', 'contact-dialog'],
  ])('%s opens its dialog', async (entry, testId) => {
    authState.current = signedIn([Role.VIEWER]);
    renderMenu();
    await userEvent.click(screen.getByTestId('profile-button'));
    await chooseMenuItem(await screen.findByTestId('profile-menu'), entry);
    expect(await screen.findByTestId(testId)).toBeInTheDocument();
  });

  it('User Manual navigates to the manual', async () => {
    authState.current = signedIn([Role.VIEWER]);
    renderMenu();
    await userEvent.click(screen.getByTestId('profile-button'));
    await chooseMenuItem(await screen.findByTestId('profile-menu'), 'User Manual');
    expect(await screen.findByText('manual page')).toBeInTheDocument();
  });

  it('initials fall back to the e-mail local part; the tooltip shows the organisation or the e-mail', () => {
    expect(initials({ firstName: 'Ada', lastName: 'Lovelace', email: 'x@y.z' })).toBe('AL');
    expect(initials({ firstName: '', lastName: '', email: 'john.smith@y.z' })).toBe('JS');
    expect(initials({ firstName: '', lastName: '', email: 'jo@y.z' })).toBe('JO');
    const user = signedIn([Role.VIEWER]).user!;
    expect(profileTooltip(user)).toBe('ACME - Acme Pty Ltd');
    expect(profileTooltip({ ...user, organisationCode: '', masterAccountName: '' })).toBe('ada@example.com');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { authState, renderAt, ROLE_CASES, signedIn, signedOut } from '@/test/shell';
import { AppLayout } from './AppLayout';
import { Header } from './Header';

// Typing through user-event is slow on a loaded machine: a wide limit, so only a real failure fails.
vi.setConfig({ testTimeout: 30_000 });

vi.mock('@/lib/auth', async (importOriginal) => {
  const { authState: state } = await import('@/test/shell');
  return { ...(await importOriginal<object>()), useAuth: () => state.current };
});

const MAIN: Record<string, string[]> = {
  E_SUPPORT: ['Home'],
  SITE_ADMIN: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
  ADMINISTRATOR: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
  STANDARD_ADMIN: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
  PORTFOLIO_MANAGER: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
  ANALYST: ['Home', 'Activities', 'External data', 'User Security', 'Reports'],
  VIEWER: ['Home', 'Activities', 'Reports'],
  CA_VIEWER: ['Home'],
};
const COG: Record<string, string[]> = {
  E_SUPPORT: [
    'Users',
    'Audit Log',
    'Single Sign-On',
    'Directory Provisioning',
    'Integrations',
    'Security Policy',
    'Organisation Settings',
  ],
  SITE_ADMIN: [
    'Users',
    'User Groups',
    'Clients',
    'Audit Log',
    'Single Sign-On',
    'Directory Provisioning',
    'Integrations',
    'Security Policy',
    'Organisation Settings',
  ],
  ADMINISTRATOR: [
    'Users',
    'User Groups',
    'Clients',
    'Audit Log',
    'Single Sign-On',
    'Directory Provisioning',
    'Organisation Settings',
  ],
  STANDARD_ADMIN: ['Users', 'User Groups', 'Clients'],
  PORTFOLIO_MANAGER: ['User Groups', 'Clients'],
  ANALYST: [],
  VIEWER: [],
  CA_VIEWER: [],
};

describe('Header (spec 001 §2.2, §2.4)', () => {
  beforeEach(() => {
    authState.current = signedOut();
  });

  it.each(ROLE_CASES)('%s sees its main menu, cog entries and notice', async (code, roles) => {
    authState.current = signedIn(roles);
    renderAt(<Header />);
    const main = screen.getByTestId('main-menu');
    expect(
      within(main)
        .getAllByRole('link', { hidden: true })
        .map((a) => a.textContent),
    ).toEqual(MAIN[code]);
    if (COG[code].length === 0) {
      expect(screen.queryByTestId('cog-button')).toBeNull();
    } else {
      await userEvent.click(screen.getByTestId('cog-button'));
      const menu = await screen.findByTestId('cog-menu');
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((i) => i.textContent),
      ).toEqual(COG[code]);
    }
    if (code === 'CA_VIEWER')
      expect(screen.getByTestId('ca-viewer-notice')).toHaveTextContent(
        'To enrol as a Tax Manager, please contact support.',
      );
    else expect(screen.queryByTestId('ca-viewer-notice')).toBeNull();
  });

  it('Home links to /portfolios in the tax manager view and to / without the application', () => {
    authState.current = signedIn([Role.ANALYST]);
    const first = renderAt(<Header />);
    expect(within(screen.getByTestId('main-menu')).getByRole('link', { name: 'Home', hidden: true })).toHaveAttribute(
      'href',
      '/portfolios',
    );
    first.unmount();
    authState.current = signedIn([Role.ANALYST], { applications: ['CA_VIEWER'] });
    renderAt(<Header />);
    expect(within(screen.getByTestId('main-menu')).getByRole('link', { name: 'Home', hidden: true })).toHaveAttribute(
      'href',
      '/',
    );
  });

  it('in develop the cog offers the server and engine choices, kept in local storage', async () => {
    authState.current = signedIn([Role.VIEWER]);
    renderAt(<Header />, '/', { appInfo: { appEnv: 'develop' } });
    await userEvent.click(screen.getByTestId('cog-button'));
    const menu = await screen.findByTestId('cog-menu');
    expect(within(menu).queryByText('Users')).toBeNull();
    await userEvent.click(within(menu).getByRole('menuitemradio', { name: 'Cloud server' }));
    expect(localStorage.getItem('serverChoice')).toBe('cloud');
    await userEvent.click(screen.getByTestId('cog-button'));
    await userEvent.click(
      within(await screen.findByTestId('cog-menu')).getByRole('menuitemradio', { name: 'Cloud engine' }),
    );
    expect(localStorage.getItem('engineChoice')).toBe('cloud');
  });

  it('the logo links home and the compact switch changes the theme and is remembered', async () => {
    authState.current = signedIn([Role.SITE_ADMIN]);
    renderAt(<Header />);
    expect(screen.getByTestId('app-header').querySelector('a[aria-label="Tax Portal home"]')).toHaveAttribute(
      'href',
      '/',
    );
    // The theme follows the stored choice in an effect after the render: waited for, never read before it ran.
    await waitFor(() => expect(document.documentElement.dataset.compact).toBe('false'));
    await userEvent.click(screen.getByTestId('compact-switch').querySelector('input')!);
    expect(localStorage.getItem('compactMode')).toBe('true');
    await waitFor(() => expect(document.documentElement.dataset.compact).toBe('true'));
  });

  it('the mobile menu toggles between active and inactive', async () => {
    authState.current = signedIn([Role.VIEWER]);
    renderAt(<Header />);
    expect(screen.queryByTestId('mobile-menu')).toBeNull();
    await userEvent.click(screen.getByTestId('mobile-menu-button'));
    expect(
      within(screen.getByTestId('mobile-menu'))
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Home', 'Activities', 'Reports']);
    await userEvent.click(within(screen.getByTestId('mobile-menu')).getByText('Activities'));
    // It hides itself after a choice (auto-hide delay).
    await waitFor(() => expect(screen.queryByTestId('mobile-menu')).toBeNull());
    await userEvent.click(screen.getByTestId('mobile-menu-button'));
    expect(screen.getByTestId('mobile-menu-button')).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByTestId('mobile-menu-button'));
    expect(screen.queryByTestId('mobile-menu')).toBeNull();
  });

  it('the page below the header is padded 70px, or 110px with the CA Viewer notice', async () => {
    authState.current = signedIn([Role.ANALYST]);
    const a = renderAt(<AppLayout />, '/about');
    expect(a.container.querySelector('main')).toHaveStyle({ paddingTop: '70px' });
    a.unmount();
    authState.current = signedIn([Role.CA_VIEWER]);
    const b = renderAt(<AppLayout />, '/about');
    await waitFor(() => expect(b.container.querySelector('main')).toHaveStyle({ paddingTop: '110px' }));
  });

  it('a site admin of an organisation opened with the defaults (corporate actions viewer, no tax manager) is a CA Viewer: notice, 110px, Home only', async () => {
    authState.current = signedIn([Role.SITE_ADMIN], { applications: ['CA_VIEWER'] });
    const view = renderAt(<AppLayout />, '/about');
    expect(screen.getByTestId('ca-viewer-notice')).toHaveTextContent(
      'Your access is limited to the Corporate Actions Viewer',
    );
    expect(
      within(screen.getByTestId('main-menu'))
        .getAllByRole('link', { hidden: true })
        .map((a) => a.textContent),
    ).toEqual(['Home']);
    await waitFor(() => expect(view.container.querySelector('main')).toHaveStyle({ paddingTop: '110px' }));
    view.unmount();
    authState.current = signedIn([Role.SITE_ADMIN], { applications: ['TAX_MANAGER', 'CA_VIEWER'] });
    renderAt(<Header />);
    expect(screen.queryByTestId('ca-viewer-notice')).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { OrganisationSettingsLayout } from './OrganisationSettingsLayout';

vi.setConfig({ testTimeout: 20_000 });

function setup(roles: Role[], path = '/organisation-settings/invitations') {
  fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/announcements/organisations': {
      body: [
        { id: 3, code: 'BETA', name: 'Beta Ltd' },
        { id: 4, code: 'GAMMA', name: 'Gamma Ltd' },
      ],
    },
  });
  return renderPage(path, '/organisation-settings/:tab', <OrganisationSettingsLayout />);
}

const tabNames = () =>
  within(screen.getByRole('navigation', { name: 'Organisation settings' }))
    .getAllByRole('link')
    .map((l) => l.textContent);

describe('OrganisationSettingsLayout (one place for an organisation’s administration)', () => {
  it('shows a site admin every tab, the current one marked', async () => {
    setup([Role.SITE_ADMIN]);
    await waitFor(() =>
      expect(tabNames()).toEqual([
        'Members',
        'Invitations',
        'Single sign-on and domains',
        'Directory provisioning',
        'Audit log',
        'Security policy',
        'Integrations',
        'Support access',
      ]),
    );
    expect(screen.getByRole('link', { name: 'Invitations' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByTestId('settings-organisation')).not.toBeInTheDocument();
  });

  it('lets E-Support choose the organisation once, for every tab', async () => {
    const { router } = setup([Role.E_SUPPORT]);
    const picker = await screen.findByTestId('settings-organisation');
    await screen.findByRole('option', { name: 'Beta Ltd (BETA)' });
    await userEvent.selectOptions(picker, '3');
    await waitFor(() => expect(router.state.location.search).toBe('?organisationId=3'));
    expect(screen.getByRole('link', { name: 'Single sign-on and domains' })).toHaveAttribute(
      'href',
      '/organisation-settings/sso?organisationId=3',
    );
    expect(screen.getByRole('link', { name: 'Members' })).toHaveAttribute(
      'href',
      '/organisation-settings/members?organisationId=3',
    );
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { OidcClientItem } from '@shared/identity/oidc-clients';
import { Role } from '@shared/roles';
import { paths } from '@/config/paths';
import { ApplicationsPage } from '@/features/identity/oidc-clients';
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
        'Applications',
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

describe('the Applications tab in the area', () => {
  const app = (id: number, name: string, organisationId: number | null): OidcClientItem => ({
    id,
    clientId: `app_${id}`,
    name,
    type: 'confidential',
    redirectUris: [`https://app${id}.example.com/cb`],
    postLogoutRedirectUris: [],
    backchannelLogoutUri: null,
    organisationId,
    createdAt: '2026-11-20T09:00:00.000Z',
    lastUsedAt: null,
  });

  function setupApplications(roles: Role[], path: string = paths.applications) {
    const server = fakeServer({
      'GET api/users/current': { body: currentUser(roles) },
      'GET api/announcements/organisations': { body: [{ id: 3, code: 'BETA', name: 'Beta Ltd' }] },
    });
    server.respondWith('GET', 'api/oidc-clients', (call) => ({
      body: call.path.includes('organisationId=3')
        ? [app(2, 'Beta payroll', 3)]
        : [app(1, roles.includes(Role.E_SUPPORT) ? 'Tax manager' : 'Acme intranet', null)],
    }));
    const view = renderPage(
      path,
      '/organisation-settings/*',
      <Routes>
        <Route element={<OrganisationSettingsLayout />}>
          <Route path="applications" element={<ApplicationsPage />} />
        </Route>
      </Routes>,
    );
    return { server, ...view };
  }

  it('is a tab of site admins and E-Support only', async () => {
    for (const [role, shown] of [
      [Role.E_SUPPORT, true],
      [Role.SITE_ADMIN, true],
      [Role.ADMINISTRATOR, false],
    ] as const) {
      const { unmount } = setup([role]);
      await waitFor(() => expect(tabNames()).toContain('Invitations'));
      expect(tabNames().includes('Applications')).toBe(shown);
      unmount();
    }
  });

  it("E-Support sees the deployment's applications with no organisation chosen, the chosen organisation's after", async () => {
    const { server, router } = setupApplications([Role.E_SUPPORT]);
    expect(await screen.findByText('Tax manager')).toBeInTheDocument();
    expect(screen.getByText(/these are the deployment's own applications/)).toBeInTheDocument();
    expect(server.callsTo('GET', 'api/oidc-clients').map((c) => c.path)).toEqual(['api/oidc-clients']);

    await screen.findByRole('option', { name: 'Beta Ltd (BETA)' });
    await userEvent.selectOptions(screen.getByTestId('settings-organisation'), '3');
    expect(await screen.findByText('Beta payroll')).toBeInTheDocument();
    expect(screen.queryByText('Tax manager')).toBeNull();
    expect(router.state.location.search).toBe('?organisationId=3');
    expect(server.callsTo('GET', 'api/oidc-clients?organisationId=3')).toHaveLength(1);
    expect(screen.queryByText(/these are the deployment's own applications/)).toBeNull();

    // What E-Support registers goes to the organisation chosen.
    server.respond('POST', 'api/oidc-clients', 201, { ...app(4, 'Beta HR', 3), clientSecret: 'ocs_x' });
    await userEvent.type(screen.getByRole('textbox', { name: /Application name/ }), 'Beta HR');
    await userEvent.type(screen.getByRole('textbox', { name: /^Redirect URIs/ }), 'https://hr.beta.test/cb');
    await userEvent.click(screen.getByRole('button', { name: 'Register application' }));
    await waitFor(() => expect(server.callsTo('POST', 'api/oidc-clients')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/oidc-clients')[0].path).toBe('api/oidc-clients?organisationId=3');
  });

  it("a site admin works on its own organisation's applications, whatever the address names", async () => {
    const { server } = setupApplications([Role.SITE_ADMIN], `${paths.applications}?organisationId=3`);
    expect(await screen.findByText('Acme intranet')).toBeInTheDocument();
    expect(screen.queryByTestId('settings-organisation')).toBeNull();
    expect(server.callsTo('GET', 'api/oidc-clients').map((c) => c.path)).toEqual(['api/oidc-clients']);
  });
});

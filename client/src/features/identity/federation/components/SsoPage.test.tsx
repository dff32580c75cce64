import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DomainItem } from '@shared/identity/domains';
import { Role } from '@shared/roles';
import type { SsoConnectionItem } from '@shared/identity/sso';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { SsoPage } from './SsoPage';

vi.setConfig({ testTimeout: 20_000 });

const pending: DomainItem = {
  id: 7,
  organisationId: 10,
  domain: 'acme.test',
  verified: false,
  verifiedAt: null,
  checkedAt: null,
  recordMissingSince: null,
  txtName: '_tax-portal-verification.acme.test',
  txtValue: 'tax-portal-verification=abc123',
  createdAt: '2026-11-26T09:00:00.000Z',
};
const verified: DomainItem = {
  ...pending,
  id: 8,
  domain: 'eu.acme.test',
  verified: true,
  verifiedAt: '2026-11-26T10:00:00.000Z',
  txtName: '_tax-portal-verification.eu.acme.test',
};
const oidc: SsoConnectionItem = {
  id: 3,
  organisationId: 10,
  name: 'Acme Entra ID',
  protocol: 'oidc',
  enabled: false,
  jitProvisioning: false,
  defaultRoleId: null,
  issuer: 'https://login.example.com/acme/v2.0',
  clientId: 'portal-app',
  hasClientSecret: true,
  redirectUri: 'https://portal.test/callback',
  loginUrl: '/auth/sso/3',
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
};
const saml: SsoConnectionItem = {
  id: 4,
  organisationId: 10,
  name: 'Acme ADFS',
  protocol: 'saml',
  enabled: true,
  jitProvisioning: true,
  defaultRoleId: Role.ANALYST,
  idpEntityId: 'http://adfs.acme.test/adfs/services/trust',
  idpSsoUrl: 'https://adfs.acme.test/adfs/ls/',
  idpSloUrl: null,
  spEntityId: 'https://portal.test/auth/saml/4/metadata',
  spMetadataUrl: 'https://portal.test/auth/saml/4/metadata',
  acsUrl: 'https://portal.test/auth/saml/4/acs',
  loginUrl: '/auth/sso/4',
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
};

function setup(role: Role, path = '/users/sso', more: Parameters<typeof fakeServer>[0] = {}) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser([role]) },
    'GET api/sso-connections': { body: [oidc, saml] },
    'GET api/domains': { body: [pending, verified] },
    'GET api/announcements/organisations': {
      body: [
        { id: 10, code: 'ACME', name: 'Acme' },
        { id: 11, code: 'GLOBEX', name: 'Globex' },
      ],
    },
    ...more,
  });
  renderPage(path, '/users/sso', <SsoPage />);
  return server;
}

describe('Single Sign-On page', () => {
  it('lists the connections with their URLs and the domains with their TXT records', async () => {
    setup(Role.SITE_ADMIN);
    expect(await screen.findByRole('heading', { name: 'Single Sign-On', level: 1 })).toBeInTheDocument();
    const entra = await screen.findByTestId('connection-3');
    expect(within(entra).getByText('OpenID Connect')).toBeInTheDocument();
    expect(within(entra).getByTestId('connection-status')).toHaveTextContent('Disabled');
    expect(within(entra).getByText('https://portal.test/callback')).toBeInTheDocument();
    expect(within(entra).getByRole('combobox', { name: 'Role of new accounts: Acme Entra ID' })).toHaveValue('4');
    const adfs = screen.getByTestId('connection-4');
    expect(within(adfs).getByText('https://portal.test/auth/saml/4/acs')).toBeInTheDocument();
    expect(within(adfs).getByRole('link', { name: 'Download SP metadata' })).toHaveAttribute(
      'href',
      'https://portal.test/auth/saml/4/metadata',
    );
    expect(within(adfs).getByRole('combobox', { name: 'Role of new accounts: Acme ADFS' })).toHaveValue(
      String(Role.ANALYST),
    );
    const domain = await screen.findByTestId('domain-acme.test');
    expect(within(domain).getByTestId('domain-status')).toHaveTextContent('Not verified');
    expect(within(domain).getByTestId('txt-name')).toHaveTextContent('_tax-portal-verification.acme.test');
    expect(within(domain).getByTestId('txt-value')).toHaveTextContent('tax-portal-verification=abc123');
    expect(within(domain).getByRole('button', { name: 'Copy TXT record value' })).toBeInTheDocument();
    const done = screen.getByTestId('domain-eu.acme.test');
    expect(within(done).getByTestId('domain-status')).toHaveTextContent('Verified');
    expect(within(done).queryByRole('button', { name: /Verify/ })).not.toBeInTheDocument();
  });

  it('claims a domain, refusing a malformed one before asking the server', async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respond('POST', 'api/domains', 201, { ...pending, id: 9, domain: 'new.acme.test' });
    const input = await screen.findByRole('textbox', { name: /Domain/ });
    await userEvent.type(input, 'https://acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    expect(await screen.findByText(/Enter a domain name such as example.com/)).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/domains')).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, ' New.Acme.test ');
    await userEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(server.callsTo('POST', 'api/domains')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/domains')[0].body).toEqual({ domain: 'New.Acme.test' });
    expect(await screen.findByText('new.acme.test added. Publish its TXT record, then verify it.')).toBeInTheDocument();
  });

  it("verifies a domain and shows the server's reason when DNS does not hold the record", async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respond('POST', 'api/domains/7/verify', 400, {
      success: false,
      statusCode: 400,
      code: 'DOMAIN_NOT_VERIFIED',
      reason: 'NO_RECORD',
      message: 'No TXT record was found at that name yet.',
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Verify acme.test' }));
    expect(await screen.findByTestId('verify-problem')).toHaveTextContent('No TXT record was found at that name yet.');
    server.respond('POST', 'api/domains/7/verify', 200, { verified: true });
    await userEvent.click(screen.getByRole('button', { name: 'Verify acme.test' }));
    expect(await screen.findByText('acme.test is verified.')).toBeInTheDocument();
    // The lists are read again after each change.
    await waitFor(() => expect(server.callsTo('GET', 'api/domains').length).toBeGreaterThanOrEqual(3));
  });

  it('warns of a verified domain whose record went missing: by when to publish it again, and checks it again', async () => {
    const server = setup(Role.SITE_ADMIN, '/users/sso', {
      'GET api/domains': { body: [{ ...verified, recordMissingSince: '2026-11-20T10:00:00.000Z' }] },
    });
    const row = await screen.findByTestId('domain-eu.acme.test');
    expect(within(row).getByTestId('domain-status')).toHaveTextContent('Verified');
    expect(within(row).getByTestId('record-missing')).toHaveTextContent(
      'The TXT record of eu.acme.test was not found at the last check. Publish it again before',
    );
    expect(within(row).getByTestId('txt-value')).toHaveTextContent('tax-portal-verification=abc123');
    server.respond('POST', 'api/domains/8/verify', 200, { verified: true });
    await userEvent.click(within(row).getByRole('button', { name: 'Check again eu.acme.test' }));
    await waitFor(() => expect(server.callsTo('POST', 'api/domains/8/verify')).toHaveLength(1));
  });

  it('removes a domain after confirmation', async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respond('DELETE', 'api/domains/8', 200, { success: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove eu.acme.test' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Corporate sign-in stops trusting addresses of this domain at once.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/domains/8')).toHaveLength(1));
  });

  it("starts 'Test connection' for editors: the browser goes to the start URL the server gives", async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respond('POST', 'api/sso-connections/3/test', 201, { url: '/auth/sso/3?test=ticket' });
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    try {
      await userEvent.click(await screen.findByRole('button', { name: 'Test connection Acme Entra ID' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('/auth/sso/3?test=ticket'));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('offers no test to administrators, who only read', async () => {
    setup(Role.ADMINISTRATOR);
    await screen.findByTestId('connection-3');
    expect(screen.queryByRole('button', { name: /^Test connection/ })).not.toBeInTheDocument();
  });

  it('shows the result the test came back with: the outcome, the reason and the claims; Close removes it', async () => {
    setup(Role.SITE_ADMIN, '/users/sso?connection=4&ssoTest=k3y', {
      'GET api/sso-connections/4/test-results/k3y': {
        body: {
          connectionId: 4,
          connectionName: 'Acme ADFS',
          protocol: 'saml',
          testedAt: '2026-11-26T10:00:00.000Z',
          ok: true,
          outcome: 'REFUSED',
          message: 'There is no account for you yet. Please ask your administrator to create one.',
          claims: [
            { name: 'nameID', value: 'persistent-ann' },
            { name: 'email', value: 'ann@acme.test' },
          ],
        },
      },
    });
    const panel = await screen.findByTestId('sso-test-result');
    expect(await within(panel).findByRole('heading', { name: 'Test of Acme ADFS' })).toBeInTheDocument();
    expect(within(panel).getByTestId('sso-test-outcome')).toHaveTextContent(
      'The provider answered, but this sign-in would be refused',
    );
    expect(within(panel).getByTestId('sso-test-outcome')).toHaveTextContent('There is no account for you yet.');
    const claims = within(panel).getByRole('table', { name: 'What the provider sent' });
    expect(within(claims).getByRole('row', { name: 'email ann@acme.test' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('sso-test-result')).not.toBeInTheDocument());
  });

  it("shows a failed round trip's technical reason", async () => {
    setup(Role.SITE_ADMIN, '/users/sso?connection=3&ssoTest=k3y', {
      'GET api/sso-connections/3/test-results/k3y': {
        body: {
          connectionId: 3,
          connectionName: 'Acme Entra ID',
          protocol: 'oidc',
          testedAt: '2026-11-26T10:00:00.000Z',
          ok: false,
          outcome: 'FAILED',
          message: 'The round trip with the identity provider did not succeed.',
          detail: 'unexpected JWT "aud" (audience) claim value',
          claims: [],
        },
      },
    });
    const panel = await screen.findByTestId('sso-test-result');
    expect(await within(panel).findByTestId('sso-test-detail')).toHaveTextContent('"aud" (audience)');
    expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
  });

  it('adds an OpenID Connect connection, each field checked first', async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respond('POST', 'api/sso-connections', 201, { ...oidc, id: 5, name: 'Okta' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add connection' }));
    const form = screen.getByTestId('add-connection');
    await userEvent.click(within(form).getByRole('button', { name: 'Add connection' }));
    expect(await within(form).findByText(/Enter a name people will recognise/)).toBeInTheDocument();
    expect(within(form).getByText(/Enter the issuer URL/)).toBeInTheDocument();
    expect(within(form).getByText('Enter the client secret.')).toBeInTheDocument();
    await userEvent.type(within(form).getByRole('textbox', { name: /Name/ }), 'Okta');
    await userEvent.type(within(form).getByRole('textbox', { name: /Issuer URL/ }), 'https://acme.okta.com');
    await userEvent.type(within(form).getByRole('textbox', { name: /Client ID/ }), 'client-1');
    await userEvent.type(within(form).getByLabelText(/Client secret/), 's3cret');
    await userEvent.click(within(form).getByRole('checkbox', { name: /just-in-time/ }));
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: /Role of new accounts/ }), 'Viewer');
    await userEvent.click(within(form).getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(server.callsTo('POST', 'api/sso-connections')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/sso-connections')[0].body).toEqual({
      protocol: 'oidc',
      name: 'Okta',
      issuer: 'https://acme.okta.com',
      clientId: 'client-1',
      clientSecret: 's3cret',
      jitProvisioning: true,
      defaultRoleId: Role.VIEWER,
    });
  });

  it('adds a SAML connection from pasted metadata', async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respond('POST', 'api/sso-connections', 201, { ...saml, id: 6 });
    await userEvent.click(await screen.findByRole('button', { name: 'Add connection' }));
    const form = screen.getByTestId('add-connection');
    await userEvent.click(within(form).getByRole('radio', { name: 'SAML 2.0' }));
    await userEvent.type(within(form).getByRole('textbox', { name: /Name/ }), 'ADFS');
    await userEvent.click(within(form).getByRole('button', { name: 'Add connection' }));
    expect(await within(form).findByText(/Paste the identity provider's SAML metadata/)).toBeInTheDocument();
    const xml = '<EntityDescriptor entityID="x"/>';
    await userEvent.click(within(form).getByRole('textbox', { name: /metadata/ }));
    await userEvent.paste(xml);
    await userEvent.click(within(form).getByRole('button', { name: 'Add connection' }));
    await waitFor(() => expect(server.callsTo('POST', 'api/sso-connections')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/sso-connections')[0].body).toEqual({
      protocol: 'saml',
      name: 'ADFS',
      metadataXml: xml,
      jitProvisioning: false,
      defaultRoleId: Role.STANDARD_ADMIN,
    });
  });

  it('enables a connection, changes its role and removes it', async () => {
    const server = setup(Role.SITE_ADMIN);
    server.respondWith('PUT', 'api/sso-connections/3', (call) => ({ body: { ...oidc, ...(call.body as object) } }));
    server.respond('DELETE', 'api/sso-connections/3', 200, { success: true });
    await userEvent.click(within(await screen.findByTestId('connection-3')).getByRole('checkbox', { name: 'Enabled' }));
    await waitFor(() => expect(server.callsTo('PUT', 'api/sso-connections/3')).toHaveLength(1));
    expect(server.callsTo('PUT', 'api/sso-connections/3')[0].body).toEqual({ enabled: true });
    await userEvent.selectOptions(
      screen.getByRole('combobox', { name: 'Role of new accounts: Acme Entra ID' }),
      'Analyst',
    );
    await waitFor(() => expect(server.callsTo('PUT', 'api/sso-connections/3')).toHaveLength(2));
    expect(server.callsTo('PUT', 'api/sso-connections/3')[1].body).toEqual({ defaultRoleId: Role.ANALYST });
    await userEvent.click(screen.getByRole('button', { name: 'Remove Acme Entra ID' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/sso-connections/3')).toHaveLength(1));
  });

  it('is read-only for administrators: no forms, no buttons, switches disabled', async () => {
    setup(Role.ADMINISTRATOR);
    expect(await screen.findByTestId('sso-read-only')).toBeInTheDocument();
    await screen.findByTestId('connection-3');
    await screen.findByTestId('domain-acme.test');
    expect(screen.queryByRole('button', { name: /Add connection|Add domain|Verify|Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId('claim-domain')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('connection-3')).getByRole('checkbox', { name: 'Enabled' })).toBeDisabled();
    // The values to copy stay available.
    expect(screen.getAllByRole('button', { name: /^Copy / }).length).toBeGreaterThan(0);
  });

  it('lets E-Support pick the organisation, and sends it with every call', async () => {
    const server = setup(Role.E_SUPPORT);
    const picker = await screen.findByRole('combobox', { name: 'Organisation' });
    await screen.findByRole('option', { name: 'Globex (GLOBEX)' });
    await userEvent.selectOptions(picker, 'Globex (GLOBEX)');
    await waitFor(() => expect(server.calls.some((c) => c.path === 'api/domains?organisationId=11')).toBe(true));
    expect(server.calls.some((c) => c.path === 'api/sso-connections?organisationId=11')).toBe(true);
    server.respond('POST', /^\/api\/domains\?organisationId=11$/, 201, { ...pending, organisationId: 11 });
    await userEvent.type(screen.getByRole('textbox', { name: /Domain/ }), 'globex.test');
    await userEvent.click(screen.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(server.callsTo('POST', 'api/domains?organisationId=11')).toHaveLength(1));
  });
});

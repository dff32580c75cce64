import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { OIDC_CLIENT_MESSAGES as M, type OidcClientItem } from '@shared/identity/oidc-clients';
import { Role } from '@shared/roles';
import { paths } from '@/config/paths';
import { OrganisationArea } from '@/lib/organisation-scope';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { OIDC_CLIENTS_TEXTS as T } from '../oidc-clients-texts';
import { ApplicationsPage } from './ApplicationsPage';

vi.setConfig({ testTimeout: 20_000 });

const hr: OidcClientItem = {
  id: 7,
  clientId: 'app_HrSystem123',
  name: 'HR system',
  type: 'confidential',
  redirectUris: ['https://hr.acme.test/callback', 'https://hr.acme.test/alt'],
  postLogoutRedirectUris: ['https://hr.acme.test/'],
  backchannelLogoutUri: 'https://hr.acme.test/logout',
  organisationId: 10,
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: new Date(2026, 10, 28, 9, 30).toISOString(),
};
const cli: OidcClientItem = {
  ...hr,
  id: 8,
  clientId: 'app_Cli456',
  name: 'Reporting CLI',
  type: 'public',
  redirectUris: ['http://127.0.0.1:8765/cb'],
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  lastUsedAt: null,
};
const stepUpRefusal = {
  status: 403,
  body: { success: false, statusCode: 403, code: 'STEP_UP_REQUIRED', message: 'Please confirm it is you to continue.' },
};

function setup(routes: Record<string, { status?: number; body?: unknown }> = {}, roles = [Role.SITE_ADMIN]) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/oidc-clients': { body: [hr, cli] },
    'POST api/oidc-clients': {
      status: 201,
      body: { ...hr, id: 9, clientId: 'app_Billing789', name: 'Billing', clientSecret: 'ocs_secret-shown-once' },
    },
    'PUT api/oidc-clients/7': { body: hr },
    'POST api/oidc-clients/7/rotate-secret': { body: { clientSecret: 'ocs_rotated' } },
    'DELETE api/oidc-clients/7': { body: { success: true } },
    'GET .well-known/openid-configuration': { body: { issuer: 'https://portal.acme.test' } },
    ...routes,
  });
  renderPage(
    paths.applications,
    paths.applications,
    <OrganisationArea>
      <ApplicationsPage />
    </OrganisationArea>,
  );
  return server;
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

describe('ApplicationsPage (organisation settings, Applications tab)', () => {
  it('lists the applications: name, type, client id, redirect URIs and last use', async () => {
    setup();
    const [first, second] = await screen.findAllByTestId('application-row');
    for (const text of ['HR system', 'Confidential', 'app_HrSystem123', 'https://hr.acme.test/callback'])
      expect(within(first).getByText(text)).toBeInTheDocument();
    expect(within(first).getByText('https://hr.acme.test/alt')).toBeInTheDocument();
    expect(within(first).queryByText(T.NEVER)).toBeNull();
    expect(within(second).getByText('Public')).toBeInTheDocument();
    expect(within(second).getByText(T.NEVER)).toBeInTheDocument();
    // A public application has no secret to rotate.
    expect(within(first).getByRole('button', { name: `${T.ROTATE} HR system` })).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: new RegExp(T.ROTATE) })).toBeNull();
    expect(screen.getByText(T.INTRO)).toBeInTheDocument();
  });

  it('names the issuer the applications are configured with, read from the discovery document', async () => {
    setup();
    expect(await screen.findByTestId('oidc-issuer')).toHaveTextContent(/^https:\/\/portal\.acme\.test$/);
    expect(screen.getByRole('button', { name: T.COPY_ISSUER })).toBeInTheDocument();
  });

  it('leaves the issuer out while the discovery document cannot be read', async () => {
    const server = setup({ 'GET .well-known/openid-configuration': { status: 404, body: {} } });
    await screen.findAllByTestId('application-row');
    await waitFor(() => expect(server.callsTo('GET', '.well-known/openid-configuration')).toHaveLength(1));
    expect(screen.queryByTestId('oidc-issuer')).toBeNull();
  });

  it('says so when there are none', async () => {
    setup({ 'GET api/oidc-clients': { body: [] } });
    expect(await screen.findByText(T.NONE)).toBeInTheDocument();
    expect(screen.queryByTestId('application-row')).toBeNull();
  });

  it('says calmly when the list cannot be read, and still offers to register', async () => {
    setup({ 'GET api/oidc-clients': { status: 500, body: { success: false, statusCode: 500, message: 'x' } } });
    expect(await screen.findByTestId('applications-unavailable')).toHaveTextContent(T.UNAVAILABLE);
    expect(screen.getByRole('button', { name: T.REGISTER })).toBeInTheDocument();
  });

  it('refuses what the provider would refuse before sending: name, redirect URIs by type, logout URI', async () => {
    const server = setup();
    await screen.findAllByTestId('application-row');
    await userEvent.click(screen.getByRole('button', { name: T.REGISTER }));
    expect(await screen.findByText(M.NAME_REQUIRED)).toBeInTheDocument();
    expect(screen.getByText(M.REDIRECT_URIS_REQUIRED)).toBeInTheDocument();

    await userEvent.type(field(/Application name/), 'Desktop tool');
    await userEvent.type(field(/Redirect URIs/), 'https://ok.acme.test/cb\nhttp://127.0.0.1:8765/cb');
    await userEvent.type(field(/Back-channel logout URI/), 'http://tool.acme.test/logout');
    await userEvent.click(screen.getByRole('button', { name: T.REGISTER }));
    // Plain http on loopback is for public applications only, and the logout URI is https.
    expect(await screen.findByText(`http://127.0.0.1:8765/cb: ${M.REDIRECT_URI_INVALID}`)).toBeInTheDocument();
    expect(screen.getByText(M.LOGOUT_URI_INVALID)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Redirect URIs/ })).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('POST', 'api/oidc-clients')).toHaveLength(0);

    await userEvent.click(screen.getByRole('radio', { name: T.TYPES.public }));
    await userEvent.clear(field(/Back-channel logout URI/));
    await userEvent.click(screen.getByRole('button', { name: T.REGISTER }));
    await waitFor(() => expect(server.callsTo('POST', 'api/oidc-clients')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/oidc-clients')[0].body).toEqual({
      name: 'Desktop tool',
      type: 'public',
      redirectUris: ['https://ok.acme.test/cb', 'http://127.0.0.1:8765/cb'],
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
    });
  });

  it('follows the deployment: where it allows private networks (app-info), plain http as the server takes it', async () => {
    const server = setup({
      'GET api/app-info': {
        body: {
          productName: 'Tax Portal',
          version: '1',
          appEnv: 'dev',
          ssoEnabled: false,
          supportEmail: 's@x.test',
          allowPrivateNetworks: true,
        },
      },
    });
    await screen.findAllByTestId('application-row');
    await waitFor(() => expect(server.callsTo('GET', 'api/app-info')).toHaveLength(1));
    await userEvent.type(field(/Application name/), 'Intranet tool');
    await userEvent.type(field(/Redirect URIs/), 'http://tool.intranet.test/cb');
    await userEvent.type(field(/Back-channel logout URI/), 'http://tool.intranet.test/logout');
    await userEvent.click(screen.getByRole('button', { name: T.REGISTER }));
    await waitFor(() => expect(server.callsTo('POST', 'api/oidc-clients')).toHaveLength(1));
    expect(server.callsTo('POST', 'api/oidc-clients')[0].body).toMatchObject({
      redirectUris: ['http://tool.intranet.test/cb'],
      backchannelLogoutUri: 'http://tool.intranet.test/logout',
    });
  });

  it('registers a confidential application after the step-up, and shows its secret once with its client id', async () => {
    const server = setup();
    let refusals = 1;
    server.respondWith('POST', 'api/oidc-clients', () =>
      refusals-- > 0
        ? stepUpRefusal
        : {
            status: 201,
            body: { ...hr, id: 9, clientId: 'app_Billing789', name: 'Billing', clientSecret: 'ocs_secret-shown-once' },
          },
    );
    server.respond('POST', 'auth/step-up', 200, { success: true, stepUpUntil: '2030-01-01T00:00:00.000Z' });
    await screen.findAllByTestId('application-row');
    await userEvent.type(field(/Application name/), '  Billing ');
    await userEvent.type(field(/Redirect URIs/), ' https://billing.acme.test/cb \n\n');
    await userEvent.type(field(/Post-logout redirect URIs/), 'https://billing.acme.test/');
    await userEvent.type(field(/Back-channel logout URI/), 'https://billing.acme.test/logout');
    await userEvent.click(screen.getByRole('button', { name: T.REGISTER }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Correct-Horse-9{Enter}');
    expect(await screen.findByTestId('new-client-secret-value')).toHaveTextContent('ocs_secret-shown-once');
    expect(screen.getByTestId('new-client-secret-note')).toHaveTextContent('Client ID: app_Billing789');
    const posts = server.callsTo('POST', 'api/oidc-clients');
    expect(posts).toHaveLength(2);
    expect(posts[1].body).toEqual({
      name: 'Billing',
      type: 'confidential',
      redirectUris: ['https://billing.acme.test/cb'],
      postLogoutRedirectUris: ['https://billing.acme.test/'],
      backchannelLogoutUri: 'https://billing.acme.test/logout',
    });
    // The form is empty again, the list read again; once put away, the secret is gone for good.
    expect(field(/Application name/)).toHaveValue('');
    await waitFor(() => expect(server.callsTo('GET', 'api/oidc-clients').length).toBeGreaterThan(1));
    await userEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByTestId('new-client-secret')).not.toBeInTheDocument();
    expect(screen.queryByText('ocs_secret-shown-once')).toBeNull();
  });

  it('registers a public application without a secret to show', async () => {
    setup({ 'POST api/oidc-clients': { status: 201, body: { ...cli, id: 10 } } });
    await screen.findAllByTestId('application-row');
    await userEvent.type(field(/Application name/), 'Reporting CLI');
    await userEvent.click(screen.getByRole('radio', { name: T.TYPES.public }));
    await userEvent.type(field(/Redirect URIs/), 'http://localhost:8765/cb');
    await userEvent.click(screen.getByRole('button', { name: T.REGISTER }));
    expect(await screen.findByText(T.REGISTERED_PUBLIC)).toBeInTheDocument();
    expect(screen.queryByTestId('new-client-secret')).not.toBeInTheDocument();
  });

  it('edits an application: its name and addresses, never its type', async () => {
    const server = setup();
    await userEvent.click(await screen.findByRole('button', { name: `${T.EDIT} HR system` }));
    const dialog = await screen.findByRole('dialog', { name: T.EDIT_TITLE });
    expect(within(dialog).queryByRole('radio')).toBeNull();
    expect(within(dialog).getByText('Confidential')).toBeInTheDocument();
    const uris = within(dialog).getByRole('textbox', { name: /^Redirect URIs/ });
    expect(uris).toHaveValue('https://hr.acme.test/callback\nhttps://hr.acme.test/alt');
    await userEvent.clear(uris);
    await userEvent.type(uris, 'https://hr.acme.test/new');
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Back-channel logout URI/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: T.SAVE }));
    await waitFor(() => expect(server.callsTo('PUT', 'api/oidc-clients/7')).toHaveLength(1));
    expect(server.callsTo('PUT', 'api/oidc-clients/7')[0].body).toEqual({
      name: 'HR system',
      redirectUris: ['https://hr.acme.test/new'],
      postLogoutRedirectUris: ['https://hr.acme.test/'],
      backchannelLogoutUri: null,
    });
    expect(await screen.findByText(T.SAVED)).toBeInTheDocument();
  });

  it('rotates the secret after confirmation and shows the new one once', async () => {
    const server = setup();
    await userEvent.click(await screen.findByRole('button', { name: `${T.ROTATE} HR system` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(T.rotateQuestion('HR system'));
    await userEvent.click(within(dialog).getByRole('button', { name: T.ROTATE }));
    expect(await screen.findByTestId('new-client-secret-value')).toHaveTextContent('ocs_rotated');
    expect(screen.getByTestId('new-client-secret-note')).toHaveTextContent('Client ID: app_HrSystem123');
    expect(server.callsTo('POST', 'api/oidc-clients/7/rotate-secret')).toHaveLength(1);
  });

  it('removes an application only once confirmed, saying that every grant and token is revoked', async () => {
    const server = setup();
    await userEvent.click(await screen.findByRole('button', { name: `${T.REMOVE} HR system` }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Removing revokes every grant and token');
    await userEvent.click(within(dialog).getByRole('button', { name: T.CANCEL }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(server.callsTo('DELETE', 'api/oidc-clients')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: `${T.REMOVE} HR system` }));
    dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: T.REMOVE }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/oidc-clients/7')).toHaveLength(1));
    expect(await screen.findByText(T.REMOVED)).toBeInTheDocument();
  });

  it('says why a change was refused', async () => {
    setup({
      'DELETE api/oidc-clients/7': {
        status: 404,
        body: { success: false, statusCode: 404, code: 'NOT_FOUND', message: M.NOT_FOUND },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: `${T.REMOVE} HR system` }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: T.REMOVE }));
    expect(await screen.findByText(M.NOT_FOUND)).toBeInTheDocument();
  });
});

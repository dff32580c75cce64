import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { API_KEY_MESSAGES, type ApiKeyItem } from '@shared/administration/api-keys';
import {
  INTEGRATION_MESSAGES,
  type LogStreamItem,
  type WebhookDeliveryItem,
  type WebhookEndpointItem,
} from '@shared/administration/integrations';
import { Role } from '@shared/roles';
import { currentUser, fakeServer, renderPage } from '@/test/fake-server';
import { INTEGRATIONS_TEXTS as T } from '../integrations-texts';
import { IntegrationsPage } from './IntegrationsPage';

vi.setConfig({ testTimeout: 20_000 });

const key: ApiKeyItem = {
  id: 7,
  name: 'HR system',
  prefix: 'tpk_AbCdEfGh',
  scopes: ['users:read', 'users:write'],
  organisationId: 3,
  createdAt: new Date(2026, 10, 2, 10, 0).toISOString(),
  createdBy: 'site.admin@acme.test',
  expiresAt: null,
  lastUsedAt: null,
};
const endpoint: WebhookEndpointItem = {
  id: 4,
  url: 'https://hooks.acme.test/portal',
  events: ['user.created', 'user.deleted'],
  enabled: true,
  description: 'CRM',
  organisationId: 3,
  createdAt: '2026-11-20T09:00:00.000Z',
  disabledReason: null,
};
const delivery: WebhookDeliveryItem = {
  id: 11,
  eventId: 'evt_1',
  type: 'user.created',
  status: 'failed',
  attempts: 8,
  lastStatusCode: 500,
  lastError: 'HTTP 500',
  nextAttemptAt: null,
  createdAt: '2026-11-21T09:00:00.000Z',
};
const queuedTest: WebhookDeliveryItem = {
  id: 12,
  eventId: 'msg_test',
  type: 'webhook.test',
  status: 'pending',
  attempts: 0,
  lastStatusCode: null,
  lastError: null,
  nextAttemptAt: '2026-11-21T09:00:00.000Z',
  createdAt: '2026-11-21T09:00:00.000Z',
};
const stream: LogStreamItem = {
  id: 2,
  type: 'splunk-hec',
  url: 'https://splunk.acme.test:8088/services/collector',
  organisationId: 3,
  createdAt: '2026-11-20T09:00:00.000Z',
  lastDeliveredAt: null,
  lastError: 'HTTP 403: invalid token',
};

function setup(
  routes: Record<string, { status?: number; body?: unknown }> = {},
  roles = [Role.SITE_ADMIN],
  path = '/users/integrations',
) {
  const server = fakeServer({
    'GET api/users/current': { body: currentUser(roles) },
    'GET api/api-keys': { body: [key] },
    'POST api/api-keys': {
      status: 201,
      body: { ...key, id: 8, name: 'Billing', key: 'tpk_secret-shown-once', scopes: ['audit:read'] },
    },
    'DELETE api/api-keys/7': { body: { success: true } },
    'GET api/webhooks': { body: [endpoint] },
    'POST api/webhooks': { status: 201, body: { ...endpoint, id: 5, secret: 'whsec_c2VjcmV0' } },
    'POST api/webhooks/4/rotate-secret': {
      body: { secret: 'whsec_bmV3', previousSecretValidUntil: '2026-11-22T09:00:00.000Z' },
    },
    'POST api/webhooks/4/test': { status: 202, body: queuedTest },
    'GET api/webhooks/4/deliveries': { body: [delivery] },
    'POST api/webhooks/4/deliveries/11/retry': { status: 202, body: { ...delivery, status: 'pending' } },
    'GET api/log-streams': { body: [stream] },
    'POST api/log-streams/2/test': { body: { success: true, statusCode: 200, error: null } },
    'GET api/announcements/organisations': { body: [{ id: 3, code: 'ACME', name: 'Acme' }] },
    ...routes,
  });
  renderPage(path, '/users/integrations', <IntegrationsPage />);
  return server;
}

describe('IntegrationsPage (users/integrations)', () => {
  it('lists API keys with their prefix, scopes and last use, never a key', async () => {
    setup();
    const row = await screen.findByTestId('api-key-row');
    expect(within(row).getByText('HR system')).toBeInTheDocument();
    expect(within(row).getByText('tpk_AbCdEfGh…')).toBeInTheDocument();
    expect(within(row).getByText('users:write')).toBeInTheDocument();
    expect(within(row).getAllByText(T.NEVER).length).toBeGreaterThan(0);
  });

  it('creates a key (name and a scope required) and shows it once with a copy button', async () => {
    const server = setup();
    await screen.findByTestId('api-key-row');
    await userEvent.click(screen.getByRole('button', { name: T.API_KEYS.CREATE }));
    expect(await screen.findByText(API_KEY_MESSAGES.NAME_REQUIRED)).toBeInTheDocument();
    expect(screen.getByText(API_KEY_MESSAGES.SCOPES_REQUIRED)).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/api-keys')).toHaveLength(0);
    await userEvent.type(screen.getByRole('textbox', { name: /Key name/ }), '  Billing ');
    await userEvent.click(screen.getByRole('checkbox', { name: /audit:read/ }));
    await userEvent.click(screen.getByRole('button', { name: T.API_KEYS.CREATE }));
    expect(await screen.findByTestId('new-api-key-value')).toHaveTextContent('tpk_secret-shown-once');
    expect(server.callsTo('POST', 'api/api-keys')[0].body).toEqual({ name: 'Billing', scopes: ['audit:read'] });
    await userEvent.click(screen.getByRole('button', { name: T.DONE }));
    expect(screen.queryByTestId('new-api-key')).not.toBeInTheDocument();
  });

  it('sends the expiry as the end of the chosen day', async () => {
    const server = setup();
    await screen.findByTestId('api-key-row');
    await userEvent.type(screen.getByRole('textbox', { name: /Key name/ }), 'Temp');
    await userEvent.click(screen.getByRole('checkbox', { name: /users:read/ }));
    const expires = screen.getByLabelText(T.API_KEYS.EXPIRES);
    await userEvent.type(expires, '2099-03-04');
    await userEvent.click(screen.getByRole('button', { name: T.API_KEYS.CREATE }));
    await screen.findByTestId('new-api-key-value');
    const sent = server.callsTo('POST', 'api/api-keys')[0].body as { expiresAt: string };
    expect(new Date(sent.expiresAt).getTime()).toBe(new Date('2099-03-04T23:59:59').getTime());
  });

  it('revokes a key after confirmation', async () => {
    const server = setup();
    await userEvent.click(await screen.findByRole('button', { name: `${T.API_KEYS.REVOKE} HR system` }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(T.API_KEYS.revokeQuestion('HR system'));
    await userEvent.click(within(dialog).getByRole('button', { name: T.API_KEYS.REVOKE }));
    await waitFor(() => expect(server.callsTo('DELETE', 'api/api-keys/7')).toHaveLength(1));
  });

  it('adds a webhook endpoint and shows its signing secret once; rotates; sends a test', async () => {
    const server = setup();
    const row = await screen.findByTestId('webhook-row');
    expect(within(row).getByText('https://hooks.acme.test/portal')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: /Endpoint URL/ }), 'https://crm.acme.test/in');
    await userEvent.click(screen.getByRole('button', { name: T.WEBHOOKS.ADD }));
    expect(await screen.findByTestId('new-webhook-secret-value')).toHaveTextContent('whsec_c2VjcmV0');
    expect(server.callsTo('POST', 'api/webhooks')[0].body).toEqual({
      url: 'https://crm.acme.test/in',
      events: ['*'],
      description: '',
    });
    await userEvent.click(screen.getByRole('button', { name: T.DONE }));

    await userEvent.click(screen.getByRole('button', { name: `${T.WEBHOOKS.ROTATE} ${endpoint.url}` }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: T.WEBHOOKS.ROTATE }),
    );
    expect(await screen.findByTestId('new-webhook-secret-value')).toHaveTextContent('whsec_bmV3');
    expect(screen.getByTestId('new-webhook-secret-note')).toHaveTextContent(/The previous secret keeps signing/);

    // The test answers the queued delivery: the deliveries open and show it.
    await userEvent.click(screen.getByRole('button', { name: `${T.WEBHOOKS.TEST} ${endpoint.url}` }));
    await waitFor(() => expect(server.callsTo('POST', 'api/webhooks/4/test')).toHaveLength(1));
    expect(await screen.findByText(T.WEBHOOKS.TESTED)).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: `${T.WEBHOOKS.DELIVERIES}: ${endpoint.url}` })).toBeInTheDocument();
  });

  it('shows the deliveries of an endpoint with their status, attempts, code and error, and retries one', async () => {
    const server = setup();
    await userEvent.click(await screen.findByRole('button', { name: `${T.WEBHOOKS.SHOW_DELIVERIES} ${endpoint.url}` }));
    const row = await screen.findByTestId('webhook-delivery-row');
    for (const text of ['user.created', 'failed', '8', '500', 'HTTP 500'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: /Retry/ }));
    await waitFor(() => expect(server.callsTo('POST', 'api/webhooks/4/deliveries/11/retry')).toHaveLength(1));
  });

  it('reads a pending delivery again until it has an outcome', async () => {
    const server = setup();
    let reads = 0;
    server.respondWith('GET', 'api/webhooks/4/deliveries', () => ({
      status: 200,
      body: [reads++ === 0 ? queuedTest : { ...queuedTest, status: 'succeeded', attempts: 1, lastStatusCode: 204 }],
    }));
    await userEvent.click(await screen.findByRole('button', { name: `${T.WEBHOOKS.SHOW_DELIVERIES} ${endpoint.url}` }));
    const row = await screen.findByTestId('webhook-delivery-row');
    expect(within(row).getByText('pending')).toBeInTheDocument();
    expect(await within(row).findByText('succeeded', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(row).getByText('204')).toBeInTheDocument();
  });

  it('edits an endpoint: its URL, events and whether it is enabled', async () => {
    const server = setup({ 'PUT api/webhooks/4': { body: { ...endpoint, enabled: false } } });
    await userEvent.click(await screen.findByRole('button', { name: `${T.WEBHOOKS.EDIT} ${endpoint.url}` }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: T.WEBHOOKS.ENABLED }));
    await userEvent.click(within(dialog).getByRole('button', { name: T.SAVE }));
    await waitFor(() => expect(server.callsTo('PUT', 'api/webhooks/4')).toHaveLength(1));
    expect(server.callsTo('PUT', 'api/webhooks/4')[0].body).toEqual({
      url: endpoint.url,
      events: endpoint.events,
      description: 'CRM',
      enabled: false,
    });
  });

  it('lists log streams with their last delivery and last error, and tests one', async () => {
    const server = setup();
    const row = await screen.findByTestId('log-stream-row');
    expect(within(row).getByText('Splunk HEC')).toBeInTheDocument();
    expect(within(row).getByText('HTTP 403: invalid token')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: new RegExp(`^${T.LOG_STREAMS.TEST}`) }));
    await waitFor(() => expect(server.callsTo('POST', 'api/log-streams/2/test')).toHaveLength(1));
    expect(await screen.findByTestId('log-stream-test-result')).toHaveTextContent(
      T.LOG_STREAMS.testAccepted(stream.url, 200),
    );
  });

  it('refuses a token with a space (a header could not carry it) before sending it', async () => {
    const server = setup();
    await screen.findByTestId('log-stream-row');
    const form = within(screen.getByRole('form', { name: T.LOG_STREAMS.ADD }));
    await userEvent.type(form.getByLabelText(/^URL/), 'https://logs.acme.test/in');
    await userEvent.type(form.getByLabelText(/^Token/), 'abc def');
    await userEvent.click(form.getByRole('button', { name: T.LOG_STREAMS.ADD }));
    expect(await form.findByText(INTEGRATION_MESSAGES.STREAM_TOKEN_CHARACTERS)).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/log-streams')).toHaveLength(0);
  });

  it('says what the receiver answered when it refuses the test event', async () => {
    setup({
      'POST api/log-streams/2/test': { body: { success: false, statusCode: 403, error: 'HTTP 403: invalid token' } },
    });
    const row = await screen.findByTestId('log-stream-row');
    await userEvent.click(within(row).getByRole('button', { name: new RegExp(`^${T.LOG_STREAMS.TEST}`) }));
    expect(await screen.findByTestId('log-stream-test-result')).toHaveTextContent(
      `the receiver did not accept it: HTTP 403: invalid token`,
    );
  });

  it('keeps working when the webhook and log-stream calls are missing (404): those sections say so calmly', async () => {
    setup({
      'GET api/webhooks': { status: 404, body: { success: false, statusCode: 404, code: 'NOT_FOUND', message: 'x' } },
      'GET api/log-streams': {
        status: 404,
        body: { success: false, statusCode: 404, code: 'NOT_FOUND', message: 'x' },
      },
    });
    expect(await screen.findByTestId('api-key-row')).toBeInTheDocument();
    expect(await screen.findByTestId('webhooks-unavailable')).toHaveTextContent(T.UNAVAILABLE);
    expect(await screen.findByTestId('log-streams-unavailable')).toHaveTextContent(T.UNAVAILABLE);
  });

  it('E-Support picks an organisation before its keys and webhooks; the named one is asked for', async () => {
    const server = setup({}, [Role.E_SUPPORT]);
    expect(await screen.findByTestId('integrations-pick')).toHaveTextContent(T.SUPPORT_PICK);
    expect(server.callsTo('GET', 'api/api-keys')).toHaveLength(0);
    expect(screen.getByText(T.LOG_STREAMS.DEPLOYMENT_WIDE)).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Acme (ACME)' });
    await userEvent.selectOptions(screen.getByTestId('integrations-organisation'), '3');
    await screen.findByTestId('api-key-row');
    expect(server.callsTo('GET', 'api/api-keys?organisationId=3')).toHaveLength(1);
    expect(server.callsTo('GET', 'api/webhooks?organisationId=3')).toHaveLength(1);
  });

  it('a change refused with STEP_UP_REQUIRED asks to confirm it is you, then goes through once', async () => {
    const server = setup();
    let refusals = 1;
    server.respondWith('POST', 'api/webhooks/4/test', () =>
      refusals-- > 0
        ? {
            status: 403,
            body: { success: false, statusCode: 403, code: 'STEP_UP_REQUIRED', message: 'Please confirm it is you.' },
          }
        : { status: 202, body: queuedTest },
    );
    server.respond('POST', 'auth/step-up', 200, { success: true, stepUpUntil: '2030-01-01T00:00:00.000Z' });
    await userEvent.click(await screen.findByRole('button', { name: `${T.WEBHOOKS.TEST} ${endpoint.url}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Correct-Horse-9{Enter}');
    expect(await screen.findByText(T.WEBHOOKS.TESTED)).toBeInTheDocument();
    expect(server.callsTo('POST', 'api/webhooks/4/test')).toHaveLength(2);
  });
});

import { expect, Page, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { eventually, ReceivedRequest, WebhookReceiver } from '../utils/servers/webhook-receiver';
import { expectAccessible } from './support/axe';
import { openMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser, writeSql } from './support/seed';
import { BASE_URL } from './support/server';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/**
 * Moves the user's sign-ins an hour back, past STEP_UP_MINUTES. The server keeps signed-in rows while nothing is
 * written through it, and this write comes from outside: a write of its own (a reset e-mail asked for `email`)
 * makes it read the rows again.
 */
async function ageSessions(userId: number, email: string) {
  const at = new Date(Date.now() - 60 * 60_000).toISOString().replace('T', ' ').replace('Z', '');
  await writeSql('UPDATE sessions SET createdAt = ?, authenticatedAt = ? WHERE userId = ?', [at, at, userId]);
  const res = await fetch(`${BASE_URL}/auth/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email }),
  });
  expect(res.ok).toBe(true);
}

async function confirmWithPassword(page: Page, password: string) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill(password);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('a site admin creates an API key after confirming it is them (shown once), a system uses it, the admin revokes it', async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Ines', lastName: 'Admin' });
  await signInThroughPage(page, admin.email, admin.password);

  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await cog.getByRole('menuitem', { name: 'Integrations' }).click();
  await expect(page).toHaveURL(/\/users\/integrations$/);
  await expect(page.getByRole('heading', { name: 'Integrations', level: 1 })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  // Whatever the webhook and log-stream calls answer, the page stands and every section has its heading.
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Audit log streams' })).toBeVisible();
  await expectAccessible(page, 'integrations, no keys');

  // The name and a scope are required before anything is sent.
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Give the key a name.')).toBeVisible();
  await expect(page.getByText('Choose at least one scope.')).toBeVisible();

  await ageSessions(admin.id, admin.email);
  await page.getByRole('textbox', { name: /Key name/ }).fill('HR system');
  await page.getByRole('checkbox', { name: /users:read/ }).check({ force: true });
  await page.getByRole('button', { name: 'Create key' }).click();
  await confirmWithPassword(page, admin.password);

  const shown = page.getByTestId('new-api-key-value');
  await expect(shown).toHaveText(/^tpk_/);
  const key = (await shown.textContent())!;
  await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
  await expectAccessible(page, 'integrations, new key shown');
  const row = page.getByTestId('api-key-row');
  await expect(row).toContainText('HR system');
  await expect(row).toContainText('users:read');
  await expect(row).toContainText('Never');

  // The organisation's system calls with it, within its scope only.
  const listed = await request.get(`${BASE_URL}/api/users`, { headers: { Authorization: `Bearer ${key}` } });
  expect(listed.status()).toBe(200);
  const outside = await request.get(`${BASE_URL}/api/audit-events`, { headers: { Authorization: `Bearer ${key}` } });
  expect(outside.status()).toBe(403);
  expect(((await outside.json()) as { code: string }).code).toBe('INSUFFICIENT_SCOPE');

  // Shown once: gone when dismissed and after a reload; the last use appears.
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('api-key-row')).not.toContainText('Never');
  await expect(page.getByText(key)).toHaveCount(0);

  await page.getByRole('button', { name: 'Revoke HR system' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Revoke the key "HR system"?');
  await expectAccessible(page, 'integrations, revoke dialog');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  const refused = await request.get(`${BASE_URL}/api/users`, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});

test('a site admin registers an application under Organisation Settings → Applications after confirming it is them (its secret shown once and accepted by the token endpoint), edits it and removes it', async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Otis', lastName: 'Apps' });
  await signInThroughPage(page, admin.email, admin.password);

  await page.goto('/organisation-settings/integrations');
  await page
    .getByRole('navigation', { name: 'Organisation settings' })
    .getByRole('link', { name: 'Applications' })
    .click();
  await expect(page).toHaveURL(/\/organisation-settings\/applications$/);
  await expect(page.getByRole('heading', { name: 'Applications', level: 1 })).toBeVisible();
  await expect(page.getByText('No applications yet.')).toBeVisible();
  await expectAccessible(page, 'applications, none yet');

  // What the provider would refuse is refused before anything is sent.
  await page.getByRole('textbox', { name: /Application name/ }).fill('HR system');
  await page.getByRole('textbox', { name: /^Redirect URIs/ }).fill('https://hr.example.com/callback#done');
  await page.getByRole('button', { name: 'Register application' }).click();
  await expect(page.getByText(/^https:\/\/hr\.example\.com\/callback#done: A redirect URI is/)).toBeVisible();
  await expectAccessible(page, 'applications, a redirect URI refused');

  await ageSessions(admin.id, admin.email);
  await page.getByRole('textbox', { name: /^Redirect URIs/ }).fill('https://hr.example.com/callback');
  await page.getByRole('button', { name: 'Register application' }).click();
  await confirmWithPassword(page, admin.password);
  const shown = page.getByTestId('new-client-secret-value');
  await expect(shown).not.toBeEmpty();
  const secret = (await shown.textContent())!;
  const clientId = (await page.getByTestId('new-client-secret-note').textContent())!.replace('Client ID: ', '');
  const row = page.getByTestId('application-row');
  await expect(row).toContainText('HR system');
  await expect(row).toContainText(clientId);
  await expect(row).toContainText('https://hr.example.com/callback');
  await expect(row).toContainText('Never');
  await expectAccessible(page, 'applications, secret shown');

  // The secret shown is the application's: the token endpoint takes it (and then refuses the made-up code).
  const token = (clientSecret: string) =>
    request.post(`${BASE_URL}/oidc/token`, {
      form: { grant_type: 'authorization_code', code: 'made-up', redirect_uri: 'https://hr.example.com/callback' },
      headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
    });
  expect(((await (await token(secret)).json()) as { error: string }).error).toBe('invalid_grant');
  expect(((await (await token(`${secret}x`)).json()) as { error: string }).error).toBe('invalid_client');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toHaveCount(0);

  await page.getByRole('button', { name: 'Edit HR system' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit application' });
  await expectAccessible(page, 'applications, edit dialog');
  await edit.getByRole('textbox', { name: /Application name/ }).fill('HR portal');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('HR portal');

  await page.getByRole('button', { name: 'Remove HR portal' }).click();
  const remove = page.getByRole('alertdialog');
  await expect(remove).toContainText('Removing revokes every grant and token');
  await expectAccessible(page, 'applications, remove dialog');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No applications yet.')).toBeVisible();
  expect(((await (await token(secret)).json()) as { error: string }).error).toBe('invalid_client');
});

/** The body of a signed webhook request, verified with `secret` (Standard Webhooks); throws when it does not verify. */
function verified(secret: string, r: ReceivedRequest) {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] as string,
    'webhook-timestamp': r.headers['webhook-timestamp'] as string,
    'webhook-signature': r.headers['webhook-signature'] as string,
  }) as { type: string; data: { organisationId: number } };
}

test.describe('webhooks and audit log streams against a receiver on loopback', () => {
  const rx = new WebhookReceiver();
  test.beforeAll(async () => {
    await rx.start();
  });
  test.afterAll(async () => {
    await rx.stop();
  });

  test('a site admin adds a webhook endpoint (secret shown once), sends a test, rotates the secret; adds an http log stream and tests it; removes both', async ({
    page,
  }) => {
    const org = await seedOrganisation();
    const admin = await seedUser(org.id, { roleId: 2, firstName: 'Wes', lastName: 'Hooks' });
    const hookUrl = rx.answer('/hooks', { status: 204 });
    const streamUrl = rx.answer('/audit', { status: 202 });
    const testEvents = (count: number) =>
      eventually(
        async () => rx.on('/hooks').filter((r) => r.body.includes('"webhook.test"')),
        (got) => got.length >= count,
      );
    await signInThroughPage(page, admin.email, admin.password);
    await page.goto('/users/integrations');
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
    await expect(page.getByText('No audit log streams yet.')).toBeVisible();

    // Adding an endpoint is a change that asks the admin to confirm it is them.
    await ageSessions(admin.id, admin.email);
    await page.getByRole('textbox', { name: /Endpoint URL/ }).fill(hookUrl);
    await page.getByRole('textbox', { name: /Description/ }).fill('CRM');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await confirmWithPassword(page, admin.password);

    const shown = page.getByTestId('new-webhook-secret-value');
    await expect(shown).toHaveText(/^whsec_/);
    const secret = (await shown.textContent())!;
    const row = page.getByTestId('webhook-row');
    await expect(row).toContainText(hookUrl);
    await expect(row).toContainText('CRM');
    await expect(row).toContainText('All events');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByTestId('new-webhook-secret')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('webhook-row')).toContainText(hookUrl);
    await expect(page.getByText(secret)).toHaveCount(0);

    // A test event: the receiver gets it signed with the secret, and the deliveries show it succeeded.
    await page.getByRole('button', { name: `Send test ${hookUrl}` }).click();
    const tests = await testEvents(1);
    const body = verified(secret, tests[0]);
    expect(body.type).toBe('webhook.test');
    expect(body.data.organisationId).toBe(org.id);
    const deliveries = page.getByRole('table', { name: `Recent deliveries: ${hookUrl}` });
    const delivered = deliveries.getByTestId('webhook-delivery-row').filter({ hasText: 'webhook.test' });
    await expect(delivered).toHaveCount(1);
    await expect(delivered).toContainText('succeeded');
    await expect(delivered).toContainText('204');
    await expect(delivered.getByRole('button', { name: /Retry/ })).toHaveCount(0);

    // Rotating: a new secret, shown once, and the old one still signs beside it for a while.
    await page.getByRole('button', { name: `Rotate secret ${hookUrl}` }).click();
    const rotateDialog = page.getByRole('alertdialog');
    await expect(rotateDialog).toContainText(`Make a new signing secret for ${hookUrl}?`);
    await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(shown).toHaveText(/^whsec_/);
    const rotated = (await shown.textContent())!;
    expect(rotated).not.toBe(secret);
    await expect(page.getByTestId('new-webhook-secret-note')).toContainText('The previous secret keeps signing');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('button', { name: `Send test ${hookUrl}` }).click();
    const second = (await testEvents(2))[1];
    expect(verified(rotated, second).type).toBe('webhook.test');
    expect(verified(secret, second).type).toBe('webhook.test');
    await expect(delivered).toHaveCount(2);
    await expect(delivered.filter({ hasText: 'succeeded' })).toHaveCount(2);

    // An http log stream to the same receiver; its test answers with what the receiver said.
    await page.getByRole('combobox', { name: 'Type' }).selectOption('http');
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(streamUrl);
    await page.getByLabel('Token').fill('stream-token-0123');
    await page.getByRole('button', { name: 'Add stream' }).click();
    const stream = page.getByTestId('log-stream-row');
    await expect(stream).toContainText('HTTP (NDJSON)');
    await expect(stream).toContainText(streamUrl);
    await stream.getByRole('button', { name: `Test ${streamUrl}` }).click();
    const result = page.getByTestId('log-stream-test-result');
    await expect(result).toHaveText(`Test event sent to ${streamUrl}: the receiver accepted it (HTTP 202).`);
    const sample = rx.on('/audit').find((r) => r.body.includes('this is not a real event'))!;
    expect(sample.headers.authorization).toBe('Bearer stream-token-0123');
    expect(sample.headers['content-type']).toBe('application/x-ndjson');
    expect(JSON.parse(sample.body.trim())).toMatchObject({ organisationId: org.id, type: 'LOG_STREAM_CREATED' });

    // A receiver that refuses: the answer says so, with its status and what it said.
    rx.answer('/audit', { status: 500, body: 'index unavailable' });
    await stream.getByRole('button', { name: `Test ${streamUrl}` }).click();
    await expect(result).toHaveText(
      `Test event sent to ${streamUrl}: the receiver did not accept it: HTTP 500: index unavailable`,
    );
    await expectAccessible(page, 'integrations, endpoint with deliveries and a log stream');

    await page.getByRole('button', { name: `Remove ${streamUrl}` }).click();
    const removeStream = page.getByRole('alertdialog');
    await expect(removeStream).toContainText(`Remove the stream to ${streamUrl}?`);
    await removeStream.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No audit log streams yet.')).toBeVisible();

    await page.getByRole('button', { name: `Remove ${hookUrl}` }).click();
    const removeHook = page.getByRole('alertdialog');
    await expect(removeHook).toContainText(`Remove the endpoint ${hookUrl}?`);
    await removeHook.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
    await expect(page.getByText('No audit log streams yet.')).toBeVisible();
  });
});

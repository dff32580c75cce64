import { expect, Page, test } from '@playwright/test';
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

import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { openMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser } from './support/seed';
import { BASE_URL } from './support/server';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

test('a site admin creates a provisioning token (shown once), the directory uses it, the admin revokes it', async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Sita', lastName: 'Admin' });
  await signInThroughPage(page, admin.email, admin.password);

  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await cog.getByRole('menuitem', { name: 'Directory Provisioning' }).click();
  await expect(page).toHaveURL(/\/users\/provisioning$/);
  await expect(page.getByRole('heading', { name: 'Directory Provisioning' })).toBeVisible();
  await expect(page.getByTestId('scim-base-url')).toHaveText(`${BASE_URL}/scim/v2`);
  await expect(page.getByText('No provisioning tokens yet.')).toBeVisible();
  await expectAccessible(page, 'directory provisioning, no tokens');

  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByText('Give the token a name.')).toBeVisible();
  await page.getByRole('textbox', { name: /Token name/ }).fill('Microsoft Entra ID');
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByTestId('new-scim-token-value');
  await expect(shown).toHaveText(/^scim_/);
  const token = (await shown.textContent())!;
  await expect(page.getByRole('button', { name: 'Copy token' })).toBeVisible();
  await expectAccessible(page, 'directory provisioning, new token shown');
  const row = page.getByTestId('scim-token-row');
  await expect(row).toContainText('Microsoft Entra ID');
  await expect(row).toContainText(admin.email);
  await expect(row).toContainText('Never');

  // The directory calls with it.
  const listed = await request.get(`${BASE_URL}/scim/v2/Users?count=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(listed.status()).toBe(200);

  // Shown once: gone when dismissed, and not shown again after a reload; the last use appears.
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('scim-token-row')).not.toContainText('Never');
  await expect(page.getByText(token)).toHaveCount(0);

  await page.getByRole('button', { name: 'Revoke Microsoft Entra ID' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Revoke the token "Microsoft Entra ID"?');
  await expectAccessible(page, 'directory provisioning, revoke dialog');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No provisioning tokens yet.')).toBeVisible();
  const refused = await request.get(`${BASE_URL}/scim/v2/Users?count=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(refused.status()).toBe(401);
});

test('a directory-managed account: marked in the users list, access read-only on its roles page', async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Sita', lastName: 'Admin' });
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users/provisioning');
  await page.getByRole('textbox', { name: /Token name/ }).fill('Okta');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = (await page.getByTestId('new-scim-token-value').textContent())!;
  const userName = `directory-${Date.now()}@example.com`;
  const created = await request.post(`${BASE_URL}/scim/v2/Users`, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' },
    data: JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName,
      name: { givenName: 'Dora', familyName: 'Directory' },
      active: true,
    }),
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto('/users');
  const row = page.getByTestId('user-row').filter({ hasText: userName });
  await expect(row.getByTestId('directory-badge')).toHaveText('Directory');
  await expectAccessible(page, 'users list with a directory-managed account');
  await page.goto(`/users/roles/${id}`);
  await expect(page.getByTestId('directory-managed-note')).toBeVisible();
  const enabled = page.getByRole('checkbox', { name: 'User Enabled' });
  await expect(enabled).toBeChecked();
  await expectAccessible(page, 'roles page of a directory-managed account');
  // Read-only: a click changes nothing, here or on the server.
  await enabled.click({ force: true });
  await expect(enabled).toBeChecked();
  const read = await request.get(`${BASE_URL}/scim/v2/Users/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(((await read.json()) as { active: boolean }).active).toBe(true);
});

import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { openMenu, settledMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser, writeSql } from './support/seed';
import { BASE_URL } from './support/server';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/**
 * Moves the user's sign-ins an hour back: past STEP_UP_MINUTES. The server keeps signed-in rows while nothing is
 * written through it; a write of its own (a reset e-mail asked for `email`) makes it read them again.
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

async function apiSignIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${BASE_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, acceptToS: true }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

test('a site admin saves the security policy from the cog menu, confirming it is them first', async ({ page }) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  await signInThroughPage(page, admin.email, admin.password);
  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await settledMenu(cog);
  await cog.getByRole('menuitem', { name: 'Security Policy' }).click();
  await expect(page).toHaveURL(/\/users\/security-policy$/);
  await expect(page.getByRole('heading', { name: 'Security Policy' })).toBeVisible();
  const length = page.getByRole('textbox', { name: /Minimum password length/ });
  await expect(length).toHaveValue('8');
  await expectAccessible(page, 'security policy page');

  await ageSessions(admin.id, admin.email);
  await length.fill('12');
  await page.getByRole('textbox', { name: 'End sessions idle for (minutes)' }).fill('30');
  await page.getByRole('button', { name: 'Save policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill(admin.password);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Security policy saved.')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('textbox', { name: /Minimum password length/ })).toHaveValue('12');
  await expect(page.getByRole('textbox', { name: 'End sessions idle for (minutes)' })).toHaveValue('30');
});

test('a member without a second factor is taken to the MFA enrolment once the organisation requires it', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const member = await seedUser(org.id, { roleId: 4 });
  await signInThroughPage(page, member.email, member.password);
  await expect(page).not.toHaveURL(/mfaRequired=true/);

  const token = await apiSignIn(admin.email, admin.password);
  const saved = await fetch(`${BASE_URL}/api/organisations/${org.id}/security-policy`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ mfaRequired: true }),
  });
  expect(saved.status).toBe(200);

  // The member's next call is refused until they enrol; the client re-reads their profile and goes to the enrolment.
  await page.goto('/announcements');
  await expect(page).toHaveURL(new RegExp(`/users/profile/${member.id}\\?mfaRequired=true$`));
  await expect(
    page.getByText('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Enabling MFA' })).toBeVisible();
  await expectAccessible(page, 'MFA enrolment required by the organisation');
});

import { expect, Page, test } from '@playwright/test';
import { axeFindings } from './support/axe';
import { acceptTerms, settledMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser, writeSql } from './support/seed';
import { BASE_URL } from './support/server';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/**
 * Moves the user's sign-ins an hour back: past STEP_UP_MINUTES, without waiting for it. The server keeps signed-in
 * rows while nothing is written through it (src/identity/credentials/session-auth.service.ts), and this write comes from
 * outside: a write of its own (a reset e-mail asked for `email`) makes it read the rows again.
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
  await expect(dialog.getByText('Please confirm it is you to continue.')).toBeVisible();
  expect(await axeFindings(page, '[data-testid="step-up-dialog"]')).toEqual([]);
  // A wrong password is said on the field, and the dialog stays; keyboard only.
  await page.keyboard.type('Not-The-Password-1');
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('step-up-error')).toHaveText('That did not confirm it is you. Please try again.');
  await dialog.getByLabel('Password').fill(password);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('an export after the sign-in has aged asks to confirm, then downloads without a second click', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users');
  await expect(page.getByTestId('users-page')).toBeVisible();
  await ageSessions(admin.id, admin.email);

  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  await confirmWithPassword(page, admin.password);
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
});

test("disabling another user's MFA asks to confirm once, then goes through", async ({ page }) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const target = await seedUser(org.id, { roleId: 4, firstName: 'Mfa', lastName: 'Holder' });
  await writeSql("UPDATE users SET isMFAEnabled = 1, mfaSecret = 'sealed' WHERE id = ?", [target.id]);
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users');
  await ageSessions(admin.id, admin.email);

  const row = page.getByTestId('user-row').filter({ hasText: target.email });
  await row.getByRole('button', { name: `Actions for ${target.email}` }).click();
  await settledMenu(page.getByRole('menu'));
  await page.getByRole('menuitem', { name: 'Disable User MFA' }).click();
  await confirmWithPassword(page, admin.password);
  await row.getByRole('button', { name: `Actions for ${target.email}` }).click();
  await settledMenu(page.getByRole('menu'));
  await expect(page.getByRole('menuitem', { name: 'Disable User MFA' })).toBeDisabled();
});

for (const crafted of ['/\\evil.example', '/%09/evil.example']) {
  test(`a crafted returnTo (${crafted}) is ignored: the sign-in ends on this site`, async ({ page, baseURL }) => {
    const org = await seedOrganisation();
    const user = await seedUser(org.id, { roleId: 2 });
    await page.goto(`/logIn?returnTo=${crafted}`);
    await acceptTerms(page);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByTestId('profile-button')).toBeVisible();
    expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    await expect(page).not.toHaveURL(/evil\.example|logIn/);
  });
}

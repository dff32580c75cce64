import { readFileSync } from 'node:fs';
import { expect, Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { seedOrganisation, seedUser } from './support/seed';
import { acceptTerms, logOut } from './support/login';
import { waitForMail } from './support/outbox';
import { expectAccessible } from './support/axe';

/** In Chromium against the real server: recovery codes (a lost phone) and trusted devices. */
// axe-core is injected as a script, which the product's CSP forbids (as a11y.browser.ts does).
test.use({ bypassCSP: true });

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

/** A TOTP code of a later time step each call (a code works once; the server accepts one step ahead). */
function codes(secret: string) {
  let n = 0;
  return () => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * n++ });
}

test('lost phone: enrol from the profile, save the ten codes, sign in with one, see how many are left', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id, { firstName: 'Rita', lastName: 'Recovery' });
  await passwordStep(page, user.email, user.password);
  await expect(page.getByTestId('profile-button')).toBeVisible();
  await page.goto(`/users/profile/${user.id}`);
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  const enrol = page.getByRole('dialog', { name: 'Enabling MFA' });
  await enrol.getByRole('button', { name: /Show setup key/ }).click();
  const key = (await enrol.getByTestId('mfa-setup-key').textContent())!.trim();
  await enrol.getByLabel('Enter the 6-digit code from your authenticator app').fill(await generate({ secret: key }));
  await enrol.getByRole('button', { name: 'Confirm' }).click();

  const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(shown.getByTestId('recovery-code')).toHaveCount(10);
  const saved = (await shown.getByTestId('recovery-code').allTextContents()).map((c) => c.trim());
  for (const c of saved) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expectAccessible(page, 'recovery codes dialog');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    shown.getByRole('button', { name: 'Download as .txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('tax-portal-recovery-codes.txt');
  const file = readFileSync((await download.path())!, 'utf8');
  for (const c of saved) expect(file).toContain(c);
  await expect(shown.getByRole('button', { name: 'Copy recovery codes' })).toBeVisible();
  await shown.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/logIn/);

  // The phone is lost: the MFA step with a recovery code, typed as people type it.
  await passwordStep(page, user.email, user.password);
  await expect(page.getByText('Please enter TOTP before proceeding.')).toBeVisible();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('MFA Token').fill(saved[0].toUpperCase());
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('You signed in with a recovery code. 9 recovery codes left.')).toBeVisible();
  await expect(page.getByTestId('profile-button')).toBeVisible();
  const mail = await waitForMail(user.email, /recovery code was used/);
  expect(mail.text).toContain('You have 9 recovery codes left');

  await page.goto(`/users/profile/${user.id}`);
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('9 recovery codes left');
  await logOut(page);

  // The same code again is refused.
  await passwordStep(page, user.email, user.password);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('MFA Token').fill(saved[0]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByText("That doesn't look right: The recovery code is invalid or has already been used."),
  ).toBeVisible();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'MFA');
});

test('trusted device: "Don\'t ask again" skips the MFA step in this browser until the device is revoked', async ({
  page,
  request,
  context,
}) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id);
  // Enrol through the API, as the sign-in test does.
  const login = await request.post('/auth/login', {
    data: { username: user.email, password: user.password, acceptToS: true },
  });
  const auth = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const { secret } = await (await request.post('/mfa/enable', { headers: auth })).json();
  const next = codes(secret.base32);
  expect((await request.post('/mfa/verify', { headers: auth, data: { token: await next() } })).status()).toBe(200);

  await passwordStep(page, user.email, user.password);
  await page.getByRole('checkbox', { name: "Don't ask again on this device for 30 days" }).check({ force: true });
  await page.getByLabel('MFA Token').fill(await next());
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('profile-button')).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name.startsWith('mfa_device_'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/auth/login' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('mfa_device_');
  await logOut(page);

  // Password only: straight in.
  await passwordStep(page, user.email, user.password);
  await expect(page.getByTestId('profile-button')).toBeVisible();
  await expect(page.getByText('Please enter TOTP before proceeding.')).toHaveCount(0);

  await page.goto(`/users/profile/${user.id}`);
  const rows = page.getByTestId('trusted-device-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(/Chrom\w* on Linux/);
  await expectAccessible(page, 'profile with trusted devices');
  await rows
    .first()
    .getByRole('button', { name: /^Revoke / })
    .click();
  await expect(page.getByText('Trusted device revoked.')).toBeVisible();
  await expect(page.getByTestId('no-trusted-devices')).toBeVisible();
  await logOut(page);

  // Revoked: the MFA step is back, though the browser still holds the cookie.
  expect((await context.cookies()).some((c) => c.name.startsWith('mfa_device_'))).toBe(true);
  await passwordStep(page, user.email, user.password);
  await expect(page.getByText('Please enter TOTP before proceeding.')).toBeVisible();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'MFA');
});

import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { seedOrganisation, seedUser } from './support/seed';
import { linkIn, waitForMail } from './support/outbox';
import { acceptTerms, changeTemporaryPassword, logOut, signInThroughPage } from './support/login';
import { SUPPORT_EMAIL, SUPPORT_PASSWORD } from './support/server';

test('the bootstrap account signs in through the page and logs out after confirming', async ({ page }) => {
  await page.goto('/users');
  await expect(page).toHaveURL(/\/logIn\?returnTo=%2Fusers/);
  const card = page.getByTestId('login-card');
  await expect(card).toHaveCSS('width', '450px');

  const email = page.getByLabel('Email');
  await expect(email).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeDisabled();
  await acceptTerms(page);
  await expect(email).toBeEnabled();
  await email.fill('not-an-email');
  await email.blur();
  await expect(page.getByText('Entered email is not a valid email')).toBeVisible();
  await email.fill(SUPPORT_EMAIL);
  await page.getByRole('button', { name: 'Login', exact: true }).click();

  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Your authentication information is incorrect. Please try again.')).toBeVisible();
  await expect(card).toHaveAttribute('data-step', 'ROOT');

  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(SUPPORT_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  // returnTo wins over everything else.
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByTestId('profile-button')).toBeVisible();

  await logOut(page);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
});

test('a forgotten password is reset by following the link from the e-mail', async ({ page }) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id);
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByRole('button', { name: 'Request password reset' }).click();
  await expect(page.getByText('MFA is required.')).toBeVisible();
  await page.getByRole('button', { name: 'MFA not enabled' }).click();
  await expect(page.getByText('An email has been sent with instructions to reset your password.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Request password reset' })).toBeDisabled();

  const link = linkIn(await waitForMail(user.email, /resetPassword\?token=/))!;
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByTestId('profile-button')).toHaveCount(0);
  await page.getByLabel('New password').fill('Reset-Through-Mail-1');
  await page.getByLabel('Confirm password').fill('Something-else-1');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Your passwords do not match.')).toBeVisible();
  await page.getByLabel('Confirm password').fill('Reset-Through-Mail-1');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Your password has been reset.')).toBeVisible();

  await signInThroughPage(page, user.email, 'Reset-Through-Mail-1');

  // The link works once.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByLabel('New password').fill('Reset-Again-Pass-2');
  await page.getByLabel('Confirm password').fill('Reset-Again-Pass-2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(/invalid, has expired or has already been used/)).toBeVisible();
});

test('a new account changes its password at first sign-in, is logged out, and signs in with the new one', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id, { mustChangePassword: true });
  // The mismatch message first; then the whole change as a new user makes it.
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByLabel('New Password', { exact: true }).fill('Chosen-Password-7');
  await page.getByLabel('Confirm New Password').fill('Chosen-Password-8');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText("New passwords don't match")).toBeVisible();
  await changeTemporaryPassword(page, user.email, user.password, 'Chosen-Password-7');
  await signInThroughPage(page, user.email, 'Chosen-Password-7');
});

test('an account with MFA signs in with a TOTP code', async ({ page, request }) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id);
  // Enrol through the API as the user would from the profile page.
  const login = await request.post('/auth/login', {
    data: { username: user.email, password: user.password, acceptToS: true },
  });
  const auth = { Authorization: `Bearer ${(await login.json()).accessToken}` };
  const { secret } = await (await request.post('/mfa/enable', { headers: auth })).json();
  expect(
    (
      await request.post('/mfa/verify', { headers: auth, data: { token: await generate({ secret: secret.base32 }) } })
    ).status(),
  ).toBe(200);

  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Please enter TOTP before proceeding.')).toBeVisible();
  await page.getByLabel('MFA Token').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/^That doesn't look right: /)).toBeVisible();
  // Next time step: the enrolment code's step is spent.
  const code = await generate({ secret: secret.base32, epoch: Math.floor(Date.now() / 1000) + 30 });
  await page.getByLabel('MFA Token').fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('profile-button')).toBeVisible();
});

test('an unknown path shows the not-found page to a signed-in user', async ({ page }) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id);
  await signInThroughPage(page, user.email, user.password);
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops!')).toBeVisible();
  await expect(page.getByText('404 Not Found')).toBeVisible();
  await expect(page.getByText('Sorry, an error has occurred, Requested page not found!')).toBeVisible();
  await page.getByRole('link', { name: 'Take Me Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

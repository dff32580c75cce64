import { expect, Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { seedOrganisation, seedUser } from './support/seed';
import { acceptTerms, signInThroughPage } from './support/login';

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

test('a user whose MFA is enforced enrols from the profile page and then signs in with a TOTP code', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id, { isMFAEnforced: true, firstName: 'Mia', lastName: 'Mfa' });
  await signInThroughPage(page, user.email, user.password);
  await expect(page).toHaveURL(new RegExp(`/users/profile/${user.id}\\?mfaRequired=true$`));
  await expect(
    page.getByRole('heading', { name: 'Profile – Manage your profile and personal information' }),
  ).toBeVisible();
  await expect(
    page.getByText('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update profile' })).toHaveCount(0);
  await expect(page.getByTestId('mfa-status')).toHaveText('Disabled');

  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Enabling MFA' });
  await expect(dialog.getByText('Step I', { exact: true })).toBeVisible();
  await expect(dialog.getByAltText('MFA QR code')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await dialog.getByRole('button', { name: /Show setup key/ }).click();
  const key = (await dialog.getByTestId('mfa-setup-key').textContent())!.trim();
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);

  const code = dialog.getByLabel('Enter the 6-digit code from your authenticator app');
  await code.fill('12ab');
  await expect(code).toHaveValue('12');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('MFA must contain exactly 6 digits')).toBeVisible();
  await code.fill(await generate({ secret: key }));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  // The recovery codes are shown once, before the alert.
  const codes = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(codes.getByTestId('recovery-code')).toHaveCount(10);
  await codes.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(
    page.getByText('MFA has been successfully enabled. Please log in again using your new authenticator.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/logIn/);

  await passwordStep(page, user.email, user.password);
  await expect(page.getByText('Please enter TOTP before proceeding.')).toBeVisible();
  // The enrolment spent the current step's code: the next step's code signs in.
  await page.getByLabel('MFA Token').fill(await generate({ secret: key, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('profile-button')).toBeVisible();

  await page.goto(`/users/profile/${user.id}`);
  await expect(page.getByTestId('mfa-status')).toHaveText('Enabled');
  await expect(
    page.getByText('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.'),
  ).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Disable', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  await expect(page.getByText('Are you sure you want to disable MFA?')).toBeVisible();
  await page.getByRole('button', { name: 'No' }).click();
  await expect(page.getByTestId('mfa-status')).toHaveText('Enabled');
});

test('a user saves their details trimmed and changes their password, then signs in with the new one', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id, { firstName: 'Pat', lastName: 'Profile' });
  await signInThroughPage(page, user.email, user.password);
  await page.goto(`/users/profile/${user.id}`);
  await page.getByLabel('Job title').fill('  Tax Analyst  ');
  await page.getByLabel('Location').fill(' Sydney ');
  await page.getByRole('button', { name: 'Update profile' }).click();
  await expect(page.getByText('Your details have been saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Job title')).toHaveValue('Tax Analyst');
  await expect(page.getByLabel('Location')).toHaveValue('Sydney');

  await page.getByLabel('Old password').fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill('Next-Password-42');
  await page.getByLabel('Confirm new password').fill('Next-Password-43');
  await page.getByRole('button', { name: 'Confirm password' }).click();
  await expect(page.getByText("Your passwords don't match")).toBeVisible();
  await page.getByLabel('Confirm new password').fill('Next-Password-42');
  await page.getByRole('button', { name: 'Confirm password' }).click();
  await expect(
    page.getByText('Your password has been changed. Please log in again using your new password.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/logIn/);
  await signInThroughPage(page, user.email, 'Next-Password-42');
});

import { expect, Page } from '@playwright/test';

/** Ticks 'I agree to the Terms and Conditions' (the box itself: its label holds the link to the terms). */
export async function acceptTerms(page: Page) {
  await page.getByTestId('terms-checkbox').click();
}

/** Signs in through the real login page (an account without MFA or forced change). */
export async function signInThroughPage(page: Page, email: string, password: string, path = '/logIn') {
  await page.goto(path);
  await acceptTerms(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('profile-button')).toBeVisible();
}

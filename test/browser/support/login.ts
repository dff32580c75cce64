import { expect, Locator, Page } from '@playwright/test';
import { OIDC_ISSUER } from './server';

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

/**
 * First sign-in with a temporary password: the CHANGE_PASSWORD step, the new password, the logout that
 * follows and the return to the ROOT step. The caller then signs in with `newPassword`.
 */
export async function changeTemporaryPassword(page: Page, email: string, temporary: string, newPassword: string) {
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(temporary);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('For your security, please change your password now.')).toBeVisible();
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm New Password').fill(newPassword);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Your password has been changed. Please log in again.')).toBeVisible();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'ROOT', { timeout: 10_000 });
}

/**
 * Opens a menu and waits until its opening animation has finished. Playwright's "stable" check can pass in the
 * tail of the scale-in, and a click whose pointerdown and pointerup land on a moving item is no click at all (the
 * item is never chosen). Waiting for the animations is a state, not a delay.
 */
export async function openMenu(page: Page, triggerTestId: string, menuTestId: string): Promise<Locator> {
  await page.getByTestId(triggerTestId).click();
  return settledMenu(page.getByTestId(menuTestId));
}

/** Waits until an opened menu is visible and its opening animation has finished. */
export async function settledMenu(menu: Locator): Promise<Locator> {
  await expect(menu).toBeVisible();
  await menu.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  return menu;
}

/** Log Out from the profile menu, confirmed with 'Yes'; ends on the login page. */
export async function logOut(page: Page) {
  const menu = await openMenu(page, 'profile-button', 'profile-menu');
  await menu.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page.getByText('Are you sure you want to log out?')).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/logIn/);
}

/** Signs in at the suite's OpenID provider as `login`, with its consent page when it shows one. */
export async function atProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
  const loginPage = page.url();
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  await page.waitForURL((u) => u.href !== loginPage);
  if (page.url().startsWith(OIDC_ISSUER)) await page.locator('button[type=submit]').click();
}

import { expect, test } from '@playwright/test';
import { seedOrganisation, seedUser } from './support/seed';
import { acceptTerms } from './support/login';

test('Corporate Login signs an SSO account in through the identity provider and lands on the root', async ({
  page,
}) => {
  const org = await seedOrganisation({ isSSOEnabled: true });
  const user = await seedUser(org.id, { isSSO: true, firstName: 'Sally', lastName: 'Sso' });

  await page.goto('/logIn');
  await acceptTerms(page);
  await expect(page.getByText('OR', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Corporate Login' }).click();

  // The provider's own hosted pages (development login and consent of oidc-provider).
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/interaction\//);
  await page.locator('input[name=login]').fill(user.email);
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  const consent = page.locator('button[type=submit]');
  if (await consent.isVisible().catch(() => false)) await consent.click();

  await expect(page.getByTestId('profile-button')).toBeVisible();
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByTestId('profile-button')).toHaveText('SS');
});

test('Corporate Login refuses an account that is not enabled for SSO and says why', async ({ page }) => {
  const org = await seedOrganisation({ isSSOEnabled: true });
  const user = await seedUser(org.id, { isSSO: false });
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByRole('button', { name: 'Corporate Login' }).click();
  await page.locator('input[name=login]').fill(user.email);
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  const consent = page.locator('button[type=submit]');
  if (await consent.isVisible().catch(() => false)) await consent.click();
  await expect(page).toHaveURL(/\/logIn\?ssoError=/);
  await expect(page.getByText(/not enabled for corporate login/)).toBeVisible();
});

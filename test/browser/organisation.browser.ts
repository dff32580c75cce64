import { expect, test } from '@playwright/test';
import { changeTemporaryPassword, logOut, signInThroughPage } from './support/login';
import { waitForMail } from './support/outbox';
import { seedOrganisation, seedUser } from './support/seed';
import { SUPPORT_EMAIL, SUPPORT_PASSWORD } from './support/server';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('a site admin saves both contacts and uploads a logo that then shows in the header', async ({ page }) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  await signInThroughPage(page, admin.email, admin.password);
  await expect(page.getByTestId('header-logo')).toHaveAttribute('src', '/logo.svg');
  await page.goto('/users/billing');

  const primary = page.getByTestId('primary-contact-form');
  const billing = page.getByTestId('billing-contact-form');
  await expect(primary.getByRole('button', { name: 'Save' })).toBeDisabled();
  await primary.getByLabel('Full name').fill('  Ada Lovelace  ');
  await primary.getByLabel('Job title').fill('CFO');
  await primary.getByLabel('Email').fill('ada@example.com');
  await primary.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your changes have been saved.').first()).toBeVisible();

  await billing.getByLabel('Full name').fill('Bill Payer');
  await billing.getByLabel('Mobile').fill('0400 123 456');
  await billing.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your changes have been saved.')).toHaveCount(2);

  // A second save of the primary contact updates it (PUT with its id).
  await primary.getByLabel('Department').fill('Finance');
  await primary.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your changes have been saved.')).toHaveCount(3);

  await page.reload();
  await expect(primary.getByLabel('Full name')).toHaveValue('Ada Lovelace');
  await expect(primary.getByLabel('Department')).toHaveValue('Finance');
  await expect(billing.getByLabel('Full name')).toHaveValue('Bill Payer');
  await expect(billing.getByLabel('Mobile')).toHaveValue('0400 123 456');

  // The chooser refuses a non-image before any upload.
  const chooser = page.getByTestId('logo-uploader').getByLabel('Logo file');
  await chooser.setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  await expect(page.getByText('The logo must be an image (PNG, JPEG, GIF or WebP).')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload logo' })).toBeDisabled();

  await chooser.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Upload logo' }).click();
  await expect(page.getByText('The logo has been successfully uploaded')).toBeVisible();
  // The page reloads; the header shows the organisation's logo, served as an image.
  const logo = page.getByTestId('header-logo');
  await expect(logo).toHaveAttribute('src', /^\/files\/logos\/[a-f0-9]{32}\.png$/, { timeout: 15_000 });
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await page.reload();
  await expect(page.getByTestId('header-logo')).toHaveAttribute('src', /^\/files\/logos\//);

  // Signing out clears it.
  await logOut(page);
});

test('support creates an organisation whose site admin signs in with the e-mailed temporary password and must change it', async ({
  page,
}) => {
  const code = `BR${Date.now().toString(36)}`.toUpperCase();
  const email = `site-admin-${code.toLowerCase()}@new-org.test`;
  await signInThroughPage(page, SUPPORT_EMAIL, SUPPORT_PASSWORD);
  await page.goto('/users/createSiteAdmin');
  const confirm = page.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toBeDisabled();
  await expect(page.getByLabel(/^Allowed users/)).toHaveValue('1');
  await expect(page.getByLabel(/^Concurrent users/)).toHaveValue('1');
  await expect(page.getByLabel(/^Max portfolios/)).toHaveValue('0');
  await page.getByLabel(/^Name/).fill('Browser Org Pty Ltd');
  await page.getByLabel(/^Code/).fill(code);
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Max portfolios/).fill('-1');
  await page.getByLabel(/^Max portfolios/).blur();
  await expect(page.getByText('Max portfolios must not be negative')).toBeVisible();
  await expect(confirm).toBeDisabled();
  await page.getByLabel(/^Max portfolios/).fill('4');
  await page.getByLabel(/^Concurrent users/).fill('2');
  await expect(page.getByLabel(/SSO Logout URL/)).toHaveCount(0);
  await confirm.click();
  await expect(page.getByText('The user has been created')).toBeVisible();
  await expect(page).toHaveURL(/\/users$/);

  const mail = await waitForMail(email, /Temporary password: /);
  const temporary = /Temporary password: (\S+)/.exec(mail.text)![1];

  await logOut(page);

  await changeTemporaryPassword(page, email, temporary, 'Site-Admin-Chosen-1');
  await signInThroughPage(page, email, 'Site-Admin-Chosen-1');
  // A new site admin has MFA enforced: the first stop is their own profile to enrol.
  await expect(page).toHaveURL(/\/users\/profile\/\d+\?mfaRequired=true$/);
});

test('a site admin forces a signed-in user off: the victim is sent to the login page on their next call', async ({
  page,
  browser,
}) => {
  const org = await seedOrganisation({ maxConcurrentUsers: 2 });
  const admin = await seedUser(org.id, { roleId: 2 });
  const victim = await seedUser(org.id, { roleId: 4 });

  const victimContext = await browser.newContext();
  const victimPage = await victimContext.newPage();
  await signInThroughPage(victimPage, victim.email, victim.password);
  await signInThroughPage(page, admin.email, admin.password);

  await page.goto('/users/user-sessions');
  await expect(page.getByRole('heading', { name: 'Max allowed concurrent users: 2' })).toBeVisible();
  await expect(
    page.getByText(
      'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed.',
    ),
  ).toBeVisible();
  const row = page.locator(`[data-testid="session-row"][data-email="${victim.email}"]`);
  await expect(row.getByTestId('session-status')).toHaveText('online');
  await expect(row.getByTestId('session-status')).toHaveAttribute('data-severity', 'success');
  await expect(row).toContainText(/\w{3}, \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}:\d{2} (AM|PM|am|pm)/);

  const forceLogoff = page.getByRole('button', { name: 'Force logoff', exact: true });
  await expect(forceLogoff).toBeDisabled();
  await row.getByTestId('select-row').click();
  await expect(forceLogoff).toBeEnabled();
  await forceLogoff.click();
  await expect(page.getByText('Successfully marked selected user(s) for force log off')).toBeVisible();
  await expect(row.getByTestId('session-status')).toHaveText('offline');
  await expect(row.getByTestId('session-status')).toHaveAttribute('data-severity', 'warning');
  await expect(
    page.getByText(
      'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed.',
    ),
  ).toHaveCount(0);

  // The victim's very next call is refused and the refresh fails: back to the login page.
  await victimPage.reload();
  await expect(victimPage).toHaveURL(/\/logIn/, { timeout: 15_000 });
  await victimContext.close();
});

test("the User sessions page shows a member's sign-in and log-out as they happen, without a reload", async ({
  page,
  browser,
}) => {
  const org = await seedOrganisation({ maxConcurrentUsers: 5 });
  const admin = await seedUser(org.id, { roleId: 2 });
  const member = await seedUser(org.id, { roleId: 4 });
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users/user-sessions');
  const status = page
    .locator(`[data-testid="session-row"][data-email="${member.email}"]`)
    .getByTestId('session-status');
  await expect(status).toHaveText('offline');

  // Well inside the page's 30-second poll: the notification socket tells the page.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signInThroughPage(memberPage, member.email, member.password);
  await expect(status).toHaveText('online', { timeout: 10_000 });
  await logOut(memberPage);
  await expect(status).toHaveText('offline', { timeout: 10_000 });
  await memberContext.close();
});

import { expect, Page, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { openMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser } from './support/seed';
import { SUPPORT_EMAIL, SUPPORT_PASSWORD } from './support/server';

/**
 * WCAG 2.1 AA: every page passes axe-core with no serious or critical violation, the dialogs
 * trap focus and give it back, and the login card works from the keyboard alone.
 */

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

async function signInSiteAdmin(page: Page) {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Ada', lastName: 'Access' });
  const other = await seedUser(org.id, { roleId: 4, firstName: 'Otto', lastName: 'Other' });
  await signInThroughPage(page, admin.email, admin.password);
  return { org, admin, other };
}

test('sign-in: every step of the login card, the forgot-password box, the reset page', async ({ page }) => {
  const org = await seedOrganisation();
  const changer = await seedUser(org.id, { mustChangePassword: true });

  await page.goto('/logIn');
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'ROOT');
  await expectAccessible(page, 'login, ROOT step');

  await page.getByTestId('terms-checkbox').click();
  await page.getByLabel('Email').fill(changer.email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'PASSWORD');
  await expectAccessible(page, 'login, PASSWORD step');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(page.getByTestId('forgot-password-box')).toBeVisible();
  await expectAccessible(page, 'login, forgot-password box');

  await page.getByLabel('Password').fill(changer.password);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'CHANGE_PASSWORD');
  await expectAccessible(page, 'login, CHANGE_PASSWORD step');

  // The MFA step as the server asks for it (a TOTP-enrolled account is arranged in profile.browser.ts).
  await page.route('**/auth/login', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        success: false,
        statusCode: 401,
        code: 'TOTP_REQUIRED',
        message: 'Please enter TOTP before proceeding.',
        challengeToken: 'challenge',
      }),
    }),
  );
  await page.goto('/logIn');
  await page.getByTestId('terms-checkbox').click();
  await page.getByLabel('Email').fill('someone@example.com');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill('Whatever-Pass-1');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'MFA');
  await expectAccessible(page, 'login, MFA step');
  await page.unroute('**/auth/login');

  await page.goto('/resetPassword?token=abc');
  await expect(page.getByLabel('New password', { exact: false }).first()).toBeVisible();
  await expectAccessible(page, 'reset password');
  await page.goto('/resetPassword');
  await expectAccessible(page, 'reset password without a token');
});

test('public pages of a visitor: terms, privacy and the logged-out profile menu (an unknown path sends a visitor to login)', async ({
  page,
}) => {
  for (const path of ['/terms/terms', '/terms/privacy']) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await expectAccessible(page, path);
  }
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/logIn/);
  await page.goto('/terms/terms');
  await page.getByTestId('profile-button').click();
  await expect(page.getByTestId('profile-menu')).toBeVisible();
  await expectAccessible(page, 'logged-out profile menu');
});

test("a site admin's pages: users, roles, profile with the MFA dialog, create user, billing, sessions, about, announcements, not-found, the notification panel", async ({
  page,
}) => {
  const { admin, other } = await signInSiteAdmin(page);
  await expectAccessible(page, 'dashboard');

  await page.goto('/users');
  await expect(page.getByTestId('users-table')).toContainText(other.email);
  await expectAccessible(page, 'users');

  await page.goto(`/users/roles/${other.id}`);
  await expect(page.getByRole('heading', { name: "Otto Other's Details" })).toBeVisible();
  await expectAccessible(page, 'user roles');

  await page.goto(`/users/profile/${admin.id}`);
  await expect(page.getByRole('button', { name: 'Update profile' })).toBeVisible();
  await expectAccessible(page, 'profile');
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByTestId('mfa-setup-key').or(page.getByTestId('mfa-qr-code')).first()).toBeVisible();
  await expectAccessible(page, 'profile, Enabling MFA dialog');
  await page.keyboard.press('Escape');

  for (const [path, ready] of [
    ['/users/new', page.getByRole('button', { name: 'Confirm' })],
    ['/users/billing', page.getByText('Primary Contact').first()],
    ['/users/user-sessions', page.getByText(/Max allowed concurrent users/)],
    ['/about', page.getByText('Corporate Actions Database')],
    ['/announcements', page.getByRole('heading').first()],
    ['/no-such-page', page.getByText('404 Not Found')],
  ] as const) {
    await page.goto(path);
    await expect(ready).toBeVisible();
    await expectAccessible(page, path);
  }

  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-panel').getByText('No notifications received')).toBeVisible();
  await expectAccessible(page, 'notification panel');
  await page.keyboard.press('Escape');

  for (const menu of ['profile', 'cog'] as const) {
    await page.getByTestId(`${menu}-button`).click();
    await expect(page.getByTestId(`${menu}-menu`)).toBeVisible();
    // Anchored under its button (the profile button's tooltip once took the id the menu looks its anchor up by).
    const button = (await page.getByTestId(`${menu}-button`).boundingBox())!;
    await expect
      .poll(async () => (await page.getByTestId(`${menu}-menu`).boundingBox())!.y)
      .toBeGreaterThanOrEqual(button.y + button.height);
    const box = (await page.getByTestId(`${menu}-menu`).boundingBox())!;
    expect(Math.abs(box.x + box.width - (button.x + button.width))).toBeLessThan(2);
    await expectAccessible(page, `${menu} menu`);
    await page.keyboard.press('Escape');
  }

  await openMenu(page, 'profile-button', 'profile-menu');
  await page.getByTestId('profile-menu').getByRole('menuitem', { name: 'Contact Us' }).click();
  await expect(page.getByTestId('contact-dialog')).toBeVisible();
  await expectAccessible(page, 'Contact Us dialog');
  await page.keyboard.press('Escape');
  await openMenu(page, 'profile-button', 'profile-menu');
  await page.getByTestId('profile-menu').getByRole('menuitem', { name: 'Give Feedback' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'feedback dialog');
});

test("support's pages: create site admin, create e-support", async ({ page }) => {
  await signInThroughPage(page, SUPPORT_EMAIL, SUPPORT_PASSWORD);
  await page.goto('/users/createSiteAdmin');
  await expect(page.getByRole('heading', { name: 'Create Site Admin' })).toBeVisible();
  await expectAccessible(page, 'create site admin');
  await page.getByRole('checkbox', { name: 'SSO' }).check({ force: true });
  await expectAccessible(page, 'create site admin with SSO');
  await page.goto('/users/createESupport');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expectAccessible(page, 'create e-support');
});

test('the user-list headers are named as shown: the resize handles are not part of the name, and they work from the keyboard', async ({
  page,
}) => {
  const { other } = await signInSiteAdmin(page);
  await page.goto('/users');
  await expect(page.getByTestId('users-table')).toContainText(other.email);
  const headers = [
    'Name',
    'Email',
    'Last Activity',
    'MFA Enabled',
    'SSO Enabled',
    'MFA Enforced',
    'Enabled',
    'System Enabled',
    'Role',
    'Actions',
  ];
  const names = await page
    .getByTestId('users-table')
    .getByRole('columnheader')
    .evaluateAll((ths) =>
      ths.map((th) =>
        th.getAttribute('aria-labelledby')
          ? document.getElementById(th.getAttribute('aria-labelledby')!)?.textContent
          : th.textContent,
      ),
    );
  expect(names).toEqual(headers);
  for (const name of headers) await expect(page.getByRole('columnheader', { name, exact: true })).toHaveCount(1);

  const handle = page.getByRole('separator', { name: 'Resize Name' });
  await expect(handle).toHaveAttribute('aria-valuenow', '180');
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '200');
  await expect(page.getByTestId('column-name')).toHaveCSS('width', '200px');
  await page.keyboard.press('ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', '190');
});

test('the login card from the terms checkbox to Confirm without a mouse', async ({ page }) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id);
  await page.goto('/logIn');
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'ROOT');
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el
        ? `${el.tagName.toLowerCase()}:${el.getAttribute('type') ?? ''}:${el.getAttribute('name') ?? ''}:${(el.textContent ?? '').trim()}`
        : '';
    });

  // Tab from the top of the page to the terms checkbox.
  const checkbox = page.getByRole('checkbox', { name: /I agree to the Terms and Conditions/ });
  for (let i = 0; i < 15 && !(await checkbox.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(checkbox).toBeFocused();
  await page.keyboard.press('Space');
  await expect(checkbox).toBeChecked();

  // The terms link, then the e-mail.
  const email = page.getByLabel('Email');
  for (let i = 0; i < 3 && !(await email.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(email).toBeFocused();
  await page.keyboard.type(user.email);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'PASSWORD');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(user.password);
  const confirm = page.getByRole('button', { name: 'Confirm' });
  for (let i = 0; i < 3 && !(await confirm.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  expect(await focused()).toContain('Confirm');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('profile-button')).toBeVisible();
});

test('dialogs trap focus and give it back: Enabling MFA, and Contact Us opened from the profile menu by keyboard', async ({
  page,
}) => {
  const { admin } = await signInSiteAdmin(page);
  await page.goto(`/users/profile/${admin.id}`);
  const enable = page.getByRole('button', { name: 'Enable', exact: true });
  await enable.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('enable-mfa-dialog');
  await expect(dialog.getByTestId('mfa-setup-key').or(dialog.getByTestId('mfa-qr-code')).first()).toBeVisible();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(enable).toBeFocused();

  // The profile menu and the Contact Us dialog, keyboard only.
  const profile = page.getByTestId('profile-button');
  await profile.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('profile-menu')).toBeVisible();
  // Type-ahead: 'c' lands on Contact Us.
  await page.keyboard.press('c');
  await expect(page.getByRole('menuitem', { name: 'Contact Us' })).toHaveAttribute('data-highlighted', '');
  await page.keyboard.press('Enter');
  const contact = page.getByTestId('contact-dialog');
  await expect(contact).toBeVisible();
  await expect.poll(() => contact.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    expect(await contact.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(contact).toBeHidden();
  await expect(profile).toBeFocused();
});

test('a site admin of an organisation opened with the defaults (corporate actions viewer, no tax manager) sees the CA Viewer notice', async ({
  page,
}) => {
  const org = await seedOrganisation({ applications: ['CA_VIEWER'] });
  const admin = await seedUser(org.id, { roleId: 2 });
  await signInThroughPage(page, admin.email, admin.password);
  await expect(page.getByTestId('ca-viewer-notice')).toContainText(
    'To enrol as a Tax Manager, please contact support.',
  );
  await expect(page.locator('main')).toHaveCSS('padding-top', '110px');
  await expect(page.getByTestId('main-menu').getByRole('link')).toHaveText(['Home']);
  await expectAccessible(page, 'dashboard of a CA Viewer');
});

test('uncaught errors reach the console through the global handler, unless marked silenced', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (m) => m.type() === 'error' && logged.push(m.text()));
  await page.goto('/logIn');
  await expect(page.getByTestId('login-card')).toBeVisible();
  await page.evaluate(() => {
    void Promise.reject(new Error('loud failure'));
    const quiet = new Error('quiet failure');
    Object.defineProperty(quiet, 'silenced', { value: true });
    // After the 10 ms throttle window: the quiet one, then a second loud one, in this order.
    setTimeout(() => {
      void Promise.reject(quiet);
      setTimeout(() => void Promise.reject(new Error('second loud failure')), 0);
    }, 50);
  });
  await expect.poll(() => logged.filter((t) => t.includes('Uncaught error:')).length).toBe(2);
  expect(logged.join('\n')).toContain('loud failure');
  expect(logged.join('\n')).toContain('second loud failure');
  expect(logged.join('\n')).not.toContain('quiet failure');
});

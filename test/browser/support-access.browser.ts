import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { signInThroughPage } from './support/login';
import { seedOrganisation, seedUser } from './support/seed';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

const SUPPORT = { email: 'support@vendor.test', password: 'Support-Pass-1' };
const REASON = 'Member reports the holdings page shows no data';

test('support access: E-Support asks, a site admin approves, E-Support acts as the member under a banner, then stops', async ({
  browser,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const member = await seedUser(org.id, { roleId: 6, firstName: 'Mia', lastName: 'Member' });

  // E-Support asks from the organisation's user list.
  const supportPage = await (await browser.newContext()).newPage();
  await signInThroughPage(supportPage, SUPPORT.email, SUPPORT.password);
  await supportPage.goto(`/users?organisationId=${org.id}`);
  await supportPage.getByRole('button', { name: `Actions for ${member.email}` }).click();
  await supportPage.getByRole('menuitem', { name: 'Request support access' }).click();
  const dialog = supportPage.getByRole('dialog', { name: 'Request support access' });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(REASON);
  await expectAccessible(supportPage, 'support access request form', '[data-testid="support-access-request"]');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(supportPage.getByText(/Request sent/)).toBeVisible();

  // The organisation's site admin approves it on the Support access page.
  const adminPage = await (await browser.newContext()).newPage();
  await signInThroughPage(adminPage, admin.email, admin.password);
  await adminPage.goto('/users/support-access');
  const request = adminPage.getByRole('row', { name: new RegExp(member.email) });
  await expect(request).toContainText('Waiting for approval');
  // The page itself (the header's notification bell, now counting the request, is the notifications suite's).
  await expectAccessible(adminPage, 'support access page', 'main');
  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(request).toContainText('Approved');

  // E-Support starts it: every page shows the banner naming the member and the reason.
  await supportPage.goto('/users/support-access');
  await supportPage
    .getByRole('row', { name: new RegExp(member.email) })
    .getByRole('button', { name: 'Start session' })
    .click();
  const banner = supportPage.getByTestId('support-session-banner');
  await expect(banner).toContainText(`You are acting as Mia Member (${member.email})`);
  await expect(banner).toContainText(REASON);
  await supportPage.goto('/about');
  await expect(banner).toBeVisible();
  await expectAccessible(supportPage, 'a page in a support-access session');

  // Stop: the banner goes and the tab is the E-Support account's own again.
  await banner.getByRole('button', { name: 'Stop' }).click();
  await expect(banner).toBeHidden();
  await supportPage.goto('/users/support-access');
  await expect(supportPage.getByRole('row', { name: new RegExp(member.email) })).toContainText('Ended');
  await expect(supportPage.getByTestId('profile-button')).toBeVisible();
});

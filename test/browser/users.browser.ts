import { expect, Page, test } from '@playwright/test';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { seedOrganisation, seedUser } from './support/seed';
import { waitForMail } from './support/outbox';
import { changeTemporaryPassword, logOut, settledMenu, signInThroughPage } from './support/login';
import { BROWSER_DATA_DIR } from './support/server';

/** Many members at once (no password: nobody signs in as them), for the list's paging and filters. */
function seedMembers(
  organisationId: number,
  rows: Array<{ email: string; firstName: string; lastName: string; roleId: number; isDisabled: boolean }>,
) {
  const db = new Database(join(BROWSER_DATA_DIR, 'app.sqlite'));
  db.configure('busyTimeout', 5000);
  const values = rows.map(() => '(?, ?, NULL, ?, ?, ?, 0, ?, 0, 0)').join(', ');
  const params = rows.flatMap((r) => [
    organisationId,
    r.email,
    r.firstName,
    r.lastName,
    r.roleId,
    r.isDisabled ? 1 : 0,
  ]);
  return new Promise<void>((resolve, reject) =>
    db.run(
      `INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isAdministrator, isDisabled, isBlocked, isMFAEnforced) VALUES ${values}`,
      params,
      (err) => {
        db.close();
        if (err) reject(err);
        else resolve();
      },
    ),
  );
}

const report = (page: Page) => page.getByTestId('page-report');
const rows = (page: Page) => page.getByTestId('user-row');

test('an administrator creates a user, who signs in with the e-mailed temporary password and must change it', async ({
  page,
}) => {
  const org = await seedOrganisation({ allowedUsersNumber: 7 });
  const admin = await seedUser(org.id, { roleId: 4, isAdministrator: true, firstName: 'Ada', lastName: 'Admin' });
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: `Users of ${org.name}` })).toBeVisible();
  // An administrator manages users but does not create site admins or e-support accounts.
  await expect(page.getByRole('link', { name: 'Create Site Admin' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Create User' }).click();
  await expect(page).toHaveURL(/\/users\/new$/);
  await expect(
    page.getByText('Your organisation is allowed to create unlimited users but only 7 active user(s).'),
  ).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Single Sign-On' })).toBeDisabled();

  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('User email must not be empty')).toBeVisible();
  const email = `created-${Date.now().toString(36)}@example.com`;
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Analyst' });
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The user has been added')).toBeVisible();
  await expect(page).toHaveURL(/\/users$/);

  await page.getByPlaceholder('Filter by name or email').fill(email);
  await expect(rows(page)).toHaveCount(1);
  const row = rows(page).first();
  await expect(row).toContainText(email);
  await expect(row.locator('[data-column="role"]')).toHaveText('Analyst');
  await expect(row.locator('[data-column="lastActivity"]')).toHaveText('Unknown / Never Logged In');
  await expect(row.locator('[data-column="name"]')).toHaveText('N/A');
  await expect(row.locator('[data-column="mfaEnforced"]')).toHaveText('Yes');

  // The same address twice: the failure dialog shows the server's message.
  await page.getByRole('link', { name: 'Create User' }).click();
  await expect(page).toHaveURL(/\/users\/new$/);
  // The form's field, not the list's "Email" column header: the list stays on screen while the form's route loads.
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.getByRole('button', { name: 'OK' }).click();

  await page.goto('/users');
  await logOut(page);

  const mail = await waitForMail(email, /Temporary password: /);
  const temporary = /Temporary password: (\S+)/.exec(mail.text)![1];
  await changeTemporaryPassword(page, email, temporary, 'Own-Choice-Pass-9');

  // New users have MFA enforced: after signing in they are kept on their profile until they enrol.
  await signInThroughPage(page, email, 'Own-Choice-Pass-9');
  await expect(page).toHaveURL(/\/users\/profile\/\d+\?mfaRequired=true$/);
  await expect(
    page.getByText('Site Admin has enforced MFA on your account. You must enable MFA to proceed further.'),
  ).toBeVisible();
  await page.goto('/users');
  await expect(page).toHaveURL(/\/users\/profile\/\d+\?mfaRequired=true$/);
});

test('filters and paging on an organisation of 60 users happen on the server', async ({ page }) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Site', lastName: 'Boss' });
  const tag = Date.now().toString(36);
  await seedMembers(
    org.id,
    Array.from({ length: 59 }, (_, i) => {
      const n = String(i + 1).padStart(2, '0');
      return {
        email: `member-${n}-${tag}@example.com`,
        firstName: 'Member',
        lastName: n,
        roleId: i < 10 ? 6 : 4,
        isDisabled: i >= 54,
      };
    }),
  );
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users');

  await expect(report(page)).toHaveText('Showing 1 to 50 of 60 entries');
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('50');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(report(page)).toHaveText('Showing 51 to 60 of 60 entries');
  await expect(rows(page)).toHaveCount(10);
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('25');
  await expect(report(page)).toHaveText('Showing 1 to 25 of 60 entries');
  await expect(rows(page)).toHaveCount(25);
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('100');
  await expect(rows(page)).toHaveCount(60);

  const searched = page.waitForRequest((r) => /\/api\/users\?.*searchText=member\+0/i.test(r.url()));
  await page.getByPlaceholder('Filter by name or email').fill('member 0');
  await searched;
  await expect(report(page)).toHaveText('Showing 1 to 9 of 9 entries');
  await page.getByPlaceholder('Filter by name or email').fill(`-${tag}@EXAMPLE`);
  await expect(report(page)).toHaveText('Showing 1 to 59 of 59 entries');
  await page.getByPlaceholder('Filter by name or email').fill('');
  await expect(report(page)).toHaveText('Showing 1 to 60 of 60 entries');

  await page.getByRole('combobox', { name: 'Access level' }).selectOption({ label: 'Has no access' });
  await expect(report(page)).toHaveText('Showing 1 to 5 of 5 entries');
  await expect(rows(page).locator('[data-column="enabled"]')).toHaveText(['No', 'No', 'No', 'No', 'No']);
  await page.getByRole('combobox', { name: 'Access level' }).selectOption({ label: 'Has access' });
  await expect(report(page)).toHaveText('Showing 1 to 55 of 55 entries');
  await page.getByRole('combobox', { name: 'Access level' }).selectOption({ label: 'All users' });

  await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Analyst' });
  await expect(report(page)).toHaveText('Showing 1 to 10 of 10 entries');
  await page.getByPlaceholder('Filter by name or email').fill('nobody-matches-this');
  await expect(page.getByText('No users found')).toBeVisible();
  await page.getByPlaceholder('Filter by name or email').fill('');
  await page.getByRole('button', { name: 'Clear role filter' }).click();
  await expect(report(page)).toHaveText('Showing 1 to 60 of 60 entries');

  // Resizable columns: drag the handle on the Email header's edge.
  const header = page.getByTestId('column-email');
  const before = (await header.boundingBox())!.width;
  const handle = (await page.getByTestId('resize-email').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 100, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  expect((await header.boundingBox())!.width).toBeGreaterThan(before + 50);
});

test('a read-only role sees no actions column; a writer edits a user from the row', async ({ page }) => {
  const org = await seedOrganisation();
  const reader = await seedUser(org.id, { roleId: 4, firstName: 'Rita', lastName: 'Reader' });
  const writer = await seedUser(org.id, { roleId: 2, firstName: 'Will', lastName: 'Writer' });
  const target = await seedUser(org.id, { roleId: 6, firstName: 'Tess', lastName: 'Target' });

  await signInThroughPage(page, reader.email, reader.password);
  await page.goto('/users');
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByTestId('actions-column')).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Manage Billing' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create User' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'User Sessions' })).toHaveCount(0);
  await rows(page).filter({ hasText: target.email }).dblclick();
  await expect(page).toHaveURL(/\/users$/);
  // The roles page itself is closed to the role.
  await page.goto(`/users/roles/${target.id}`);
  await expect(page.getByText('You do not have access to this page.')).toBeVisible();
  await logOut(page);

  await signInThroughPage(page, writer.email, writer.password);
  await page.goto('/users');
  await expect(page.getByTestId('actions-column')).toBeVisible();
  const row = rows(page).filter({ hasText: target.email });
  await row.getByRole('button', { name: `Actions for ${target.email}` }).click();
  await settledMenu(page.getByRole('menu'));
  await expect(page.getByRole('menuitem', { name: 'Disable User MFA' })).toBeDisabled();
  await page.getByRole('menuitem', { name: 'Update User Details' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/roles/${target.id}$`));
  await expect(page.getByRole('heading', { name: "Tess Target's Details" })).toBeVisible();
  await expect(page.getByTestId('last-access')).toContainText('Unknown / Never Logged In');

  await page.getByRole('checkbox', { name: 'User Enabled' }).click({ force: true });
  await expect(page.getByText('Your change has been saved')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'User Enabled' })).not.toBeChecked();
  await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Standard Admin' });
  await expect(page.getByRole('checkbox', { name: 'Administrator' })).toBeVisible();

  await page.goto('/users');
  await rows(page).filter({ hasText: target.email }).dblclick();
  await expect(page).toHaveURL(new RegExp(`/users/roles/${target.id}$`));
  await page.goto('/users');
  const updated = rows(page).filter({ hasText: target.email });
  await expect(updated.locator('[data-column="enabled"]')).toHaveText('No');
  await expect(updated.locator('[data-column="role"]')).toHaveText('Standard Admin');

  // The row menu's 'View User Group Mapping': a writer creates a group, the user joins it and leaves it.
  await updated.getByRole('button', { name: `Actions for ${target.email}` }).click();
  await settledMenu(page.getByRole('menu'));
  await page.getByRole('menuitem', { name: 'View User Group Mapping' }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${target.id}/user-groups$`));
  await expect(page.getByRole('heading', { name: 'User Group Mapping of Tess Target' })).toBeVisible();
  await expect(page.getByText('This user belongs to no user group.')).toBeVisible();
  await page.getByRole('textbox', { name: 'New user group name' }).fill('Reviewers');
  await page.getByRole('button', { name: 'Create group and add' }).click();
  await expect(page.getByTestId('user-group-row')).toHaveText(['Reviewers1Remove']);
  await page.reload();
  await expect(page.getByTestId('user-group-row')).toHaveText(['Reviewers1Remove']);
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('This user belongs to no user group.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'User group to add' })).toBeVisible();
});

test("E-Support lists another organisation's users through ?organisationId=; that organisation's site admin cannot list E-Support's", async ({
  page,
}) => {
  const vendor = await seedOrganisation();
  const support = await seedUser(vendor.id, { roleId: 1, firstName: 'Evi', lastName: 'Support' });
  const client = await seedOrganisation();
  const siteAdmin = await seedUser(client.id, { roleId: 2, firstName: 'Sam', lastName: 'Site' });
  const member = await seedUser(client.id, { roleId: 4, firstName: 'Carla', lastName: 'Client' });

  await signInThroughPage(page, support.email, support.password);
  await page.goto(`/users?organisationId=${client.id}`);
  await expect(page.getByRole('heading', { name: `Users of ${client.name}` })).toBeVisible();
  await expect(rows(page)).toHaveCount(2);
  await expect(report(page)).toContainText('of 2 entries');
  // The filter searches within that organisation: its member is found, E-Support's own account is not.
  await page.getByPlaceholder('Filter by name or email').fill('Carla');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(member.email);
  await page.getByPlaceholder('Filter by name or email').fill(support.email);
  await expect(rows(page)).toHaveCount(0);
  await logOut(page);

  // Another organisation's id gets a site admin nothing of it.
  await signInThroughPage(page, siteAdmin.email, siteAdmin.password);
  await page.goto(`/users?organisationId=${vendor.id}`);
  await expect(page.getByTestId('users-unavailable')).toBeVisible();
  await expect(page.getByText(support.email)).toHaveCount(0);
});

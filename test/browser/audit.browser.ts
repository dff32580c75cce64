import { expect, Page, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { seedOrganisation, seedUser } from './support/seed';
import { openMenu, signInThroughPage } from './support/login';
import { BROWSER_DATA_DIR } from './support/server';

/** Audit events written straight into the server's SQLite file, as a fixture (the page then reads them through the server). */
function seedEvents(
  rows: Array<{ organisationId: number; type: string; summary: string; minutesAgo: number; actorEmail?: string }>,
) {
  const db = new Database(join(BROWSER_DATA_DIR, 'app.sqlite'));
  db.configure('busyTimeout', 5000);
  const values = rows.map(() => "(?, ?, ?, 'user', ?, ?, ?)").join(', ');
  const at = (m: number) => new Date(Date.now() - m * 60_000).toISOString().replace('T', ' ').replace('Z', '');
  const params = rows.flatMap((r) => [
    at(r.minutesAgo),
    r.type,
    r.organisationId,
    r.actorEmail ?? 'fixture@example.com',
    r.organisationId,
    r.summary,
  ]);
  return new Promise<void>((resolve, reject) =>
    db.run(
      `INSERT INTO audit_events (occurredAt, type, organisationId, actorKind, actorEmail, actorOrganisationId, summary) VALUES ${values}`,
      params,
      (err) => {
        db.close();
        if (err) reject(err);
        else resolve();
      },
    ),
  );
}

const rows = (page: Page) => page.getByTestId('audit-row');

async function downloadText(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  return readFileSync((await download.path())!, 'utf8');
}

test('a site admin reads, filters, expands and exports the audit log of their organisation only, and exports the user list', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const other = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Sita', lastName: 'Admin' });
  await seedUser(org.id, {
    roleId: 6,
    firstName: '=cmd',
    lastName: 'Formula',
    email: `formula-${Date.now()}@example.com`,
  });
  await seedEvents([
    ...Array.from({ length: 30 }, (_, i) => ({
      organisationId: org.id,
      type: 'ROLE_CHANGED',
      summary: `Roles of member${i}@example.com: Analyst → Viewer`,
      minutesAgo: 3 + i,
    })),
    {
      organisationId: org.id,
      type: 'BILLING_CONTACT_SAVED',
      summary: '=HYPERLINK("http://evil","x") saved',
      minutesAgo: 2,
    },
    { organisationId: other.id, type: 'ROLE_CHANGED', summary: 'Secret of the other organisation', minutesAgo: 1 },
  ]);
  await signInThroughPage(page, admin.email, admin.password);

  await page.goto('/users');
  await page.getByRole('link', { name: 'Audit Log' }).click();
  await expect(page).toHaveURL(/\/users\/audit$/);
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  // Newest first: the admin's own sign-in of a moment ago heads the list; the other organisation's event never shows.
  await expect(rows(page).first()).toContainText('Sign-in succeeded');
  await expect(rows(page).first()).toContainText(admin.email);
  await expect(page.getByText('Secret of the other organisation')).toHaveCount(0);
  await expect(page.getByTestId('page-report')).toHaveText('Showing 1 to 32 of 32 entries');

  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('25');
  await expect(rows(page)).toHaveCount(25);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(rows(page)).toHaveCount(7);

  await page.getByRole('combobox', { name: 'Event type' }).selectOption({ label: 'Role changed' });
  await expect(page.getByTestId('page-report')).toHaveText('Showing 1 to 25 of 30 entries');
  await page.getByLabel('Search').fill('member7@');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Roles of member7@example.com: Analyst → Viewer');
  await rows(page).first().getByRole('button', { name: 'Show details' }).click();
  await expect(page.getByTestId('audit-details')).toContainText('fixture@example.com');

  // The export applies the same filters.
  const filtered = await downloadText(page);
  expect(filtered.charCodeAt(0)).toBe(0xfeff);
  const lines = filtered.slice(1).trim().split('\r\n');
  expect(lines[0]).toMatch(/^id,occurredAt,type,/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('member7@example.com');

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('page-report')).toHaveText('Showing 1 to 25 of 32 entries');
  // From the day of the oldest event (seeded up to 33 minutes ago: another day just after local midnight) to
  // today, in the browser's time zone.
  const [from, today] = await page.evaluate(() =>
    [Date.now() - 40 * 60_000, Date.now()].map((t) => new Date(t).toLocaleDateString('en-CA')),
  );
  await page.getByLabel('From date').fill(from);
  await page.getByLabel('To date').fill(today);
  await expect(page.getByTestId('page-report')).toHaveText('Showing 1 to 25 of 32 entries');
  const all = await downloadText(page);
  expect(all).toContain(`"'=HYPERLINK(""http://evil"",""x"") saved"`);
  expect(all).not.toContain('Secret of the other organisation');

  // The user list's export, with its text filter.
  await page.goto('/users');
  await page.getByPlaceholder('Filter by name or email').fill('formula-');
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  const users = await downloadText(page);
  const userLines = users.slice(1).trim().split('\r\n');
  expect(userLines[0]).toBe('id,email,firstName,lastName,roles,access,mfaEnforced,mfaEnabled,sso,lastLogin');
  expect(userLines).toHaveLength(2);
  expect(userLines[1]).toContain(`"'=cmd",Formula,Analyst,active`);
});

test('the cog menu offers the audit log to an administrator, and a standard admin neither sees it nor may open it', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const administrator = await seedUser(org.id, { roleId: 4, isAdministrator: true });
  const standard = await seedUser(org.id, { roleId: 4 });
  await signInThroughPage(page, administrator.email, administrator.password);
  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await cog.getByRole('menuitem', { name: 'Audit Log' }).click();
  await expect(page).toHaveURL(/\/users\/audit$/);
  await expect(rows(page).first()).toContainText('Sign-in succeeded');

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInThroughPage(page, standard.email, standard.password);
  await page.goto('/users');
  await expect(page.getByRole('link', { name: 'Audit Log' })).toHaveCount(0);
  await page.getByTestId('cog-button').click();
  await expect(page.getByRole('menuitem', { name: 'Audit Log' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/users/audit');
  await expect(page.getByTestId('audit-page')).toHaveCount(0);
});

import { expect, Page, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedOrganisation, seedUser } from './support/seed';
import { signInThroughPage } from './support/login';
import { BROWSER_DATA_DIR, SERVICE_API_KEY } from './support/server';

/** Toasts sit at the top right, over the bell: close them as a user would before opening the panel. */
async function closeToasts(page: Page) {
  const close = page.locator('[data-testid="toast"] [data-part="close-trigger"]');
  const until = Date.now() + 15_000;
  while ((await close.count()) > 0 && Date.now() < until) {
    // A toast may be leaving by itself while we aim at it.
    await close
      .first()
      .click({ force: true, timeout: 1000 })
      .catch(() => {});
    await page.waitForTimeout(150);
  }
  await page.mouse.move(10, 500);
  await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 15_000 });
}

test('a notification published through the API appears as a toast and in the panel within a second, and is dismissed for good', async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const other = await seedOrganisation();
  const user = await seedUser(org.id);
  await signInThroughPage(page, user.email, user.password);

  const bell = page.getByTestId('notification-bell');
  await bell.click();
  const panel = page.getByTestId('notification-panel');
  await expect(panel.getByText('Notifications', { exact: true })).toBeVisible();
  await expect(panel.getByText('No notifications received')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Dismiss All' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // The socket is up.
  await expect(bell).toHaveAttribute('data-connected', 'true');

  // Another organisation's notification never shows.
  const foreign = await request.post('/api/notifications', {
    headers: { 'X-Api-Key': SERVICE_API_KEY },
    data: { organisationId: other.id, type: 'IMPORT_FILE', content: { fileName: 'theirs.csv', status: 'DONE' } },
  });
  expect(foreign.status()).toBe(201);

  const started = Date.now();
  const published = await request.post('/api/notifications', {
    headers: { 'X-Api-Key': SERVICE_API_KEY },
    data: { organisationId: org.id, type: 'IMPORT_FILE', content: { fileName: 'holdings.csv', status: 'done' } },
  });
  expect(published.status()).toBe(201);
  await expect(page.getByText('holdings.csv imported successfully')).toBeVisible({ timeout: 1000 });
  expect(Date.now() - started).toBeLessThan(1500);
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await expect(page.getByText('theirs.csv imported successfully')).toHaveCount(0);

  // A failed report for this user alone: its message in red, no download link.
  await request.post('/api/notifications', {
    headers: { 'X-Api-Key': SERVICE_API_KEY },
    data: {
      userId: user.id,
      type: 'REPORT',
      content: { status: 'FAILED', message: 'The engine stopped', portfolioName: 'Main' },
    },
  });
  await expect(page.getByTestId('notification-count')).toHaveText('2');
  await expect(page.getByText('Report failed')).toBeVisible();

  await closeToasts(page);
  await bell.click();
  const items = panel.getByTestId('notification-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId('notification-failure')).toHaveText('The engine stopped');
  await expect(items.nth(0).getByTestId('notification-failure')).toHaveCSS('color', 'rgb(220, 38, 38)');
  await expect(items.nth(1)).toContainText('holdings.csv');
  await expect(items.nth(1).getByTestId('notification-status')).toHaveText('DONE');
  await expect(items.nth(1)).toContainText(/\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2} (AM|PM)/);

  await items.nth(1).getByRole('button', { name: 'Dismiss' }).click();
  await expect(items).toHaveCount(1);
  await expect(page.getByTestId('notification-count')).toHaveText('1');

  // Dismissal persists: after a reload only the report is left; Dismiss All empties the panel for good.
  await page.reload();
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await bell.click();
  await expect(items).toHaveCount(1);
  await panel.getByRole('button', { name: 'Dismiss All' }).click();
  await expect(panel.getByText('No notifications received')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Dismiss All' })).toBeDisabled();
  await page.reload();
  await expect(page.getByTestId('profile-button')).toBeVisible();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
});

test('a finished report is downloaded through its signed link, and processing completion reports its warning logs', async ({
  page,
  request,
}) => {
  const org = await seedOrganisation();
  const user = await seedUser(org.id);
  const logs = join(BROWSER_DATA_DIR, 'process-logs', String(org.id));
  mkdirSync(logs, { recursive: true });
  writeFileSync(join(logs, 'PF1.log'), 'warning: 2 holdings without prices\n');
  await signInThroughPage(page, user.email, user.password);
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-connected', 'true');

  const upload = await request.post('/api/notifications/reports', {
    headers: { 'X-Api-Key': SERVICE_API_KEY },
    multipart: {
      organisationId: String(org.id),
      file: { name: 'CGT report.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') },
    },
  });
  expect(upload.status()).toBe(201);
  const { downloadLink, fileName } = await upload.json();
  await request.post('/api/notifications', {
    headers: { 'X-Api-Key': SERVICE_API_KEY },
    data: { userId: user.id, type: 'REPORT', content: { status: 'DONE', fileName, downloadLink } },
  });
  await expect(page.getByText('Report ready')).toBeVisible();

  await closeToasts(page);
  await page.getByTestId('notification-bell').click();
  const item = page.getByTestId('notification-item').first();
  const downloading = page.waitForEvent('download');
  await item.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('CGT report.csv');
  await page.keyboard.press('Escape');

  await request.post('/api/notifications', {
    headers: { 'X-Api-Key': SERVICE_API_KEY },
    data: {
      organisationId: org.id,
      type: 'PORTFOLIO_PROCESSING',
      content: { status: 'COMPLETED', portfolioCode: 'PF1', portfolioName: 'Main' },
    },
  });
  await expect(page.getByText('Portfolio processing completed')).toBeVisible();
  await expect(page.getByText('Warning logs available')).toBeVisible();
  await expect(page.getByText('Processing of Main (PF1) wrote warning logs.')).toBeVisible();
});

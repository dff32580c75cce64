import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { openMenu, signInThroughPage } from './support/login';
import { linkIn, waitForMail } from './support/outbox';
import { seedOrganisation, seedUser } from './support/seed';

test.use({ bypassCSP: true });

/** Signs in by the API (a browser of its own: the request context keeps its cookies); answers the access token. */
async function signInByApi(request: import('@playwright/test').APIRequestContext, email: string, password: string) {
  const res = await request.post('/auth/login', { data: { username: email, password, acceptToS: true } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

test("a site admin's insights: the charts are drawn and each table holds the figures of the day", async ({
  page,
  playwright,
  baseURL,
}) => {
  const org = await seedOrganisation({ allowedUsersNumber: 25, maxConcurrentUsers: 10 });
  const admin = await seedUser(org.id, { roleId: 2 });
  const members = [await seedUser(org.id), await seedUser(org.id)];
  const api = await playwright.request.newContext({ baseURL: baseURL });
  for (const m of members) await signInByApi(api, m.email, m.password);
  const wrong = await api.post('/auth/login', {
    data: { username: members[0].email, password: 'Not-The-Password-1', acceptToS: true },
  });
  expect(wrong.status()).toBe(401);
  await api.dispose();

  await signInThroughPage(page, admin.email, admin.password);
  // The home page's headline figures link to the full page.
  const headline = page.getByTestId('dashboard-insights');
  await expect(headline.getByTestId('insights-headline')).toContainText('Successful sign-ins3');
  await headline.getByRole('link', { name: 'All insights' }).click();
  await expect(page).toHaveURL(/\/users\/insights$/);
  await expect(page.getByRole('heading', { name: 'Insights' })).toBeVisible();

  // The chart is drawn: an SVG with a bar for today's sign-ins.
  const chart = page.getByTestId('figure-sign-ins-chart');
  await expect(chart.locator('svg.recharts-surface')).toBeVisible();
  await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();
  // The last row of its table is today: three sign-ins (two members and the admin), one failure.
  const lastRow = page.getByTestId('figure-sign-ins-table').locator('tbody tr').last();
  await expect(lastRow.locator('td')).toHaveText([/\d+ \w+/, '3', '1']);
  await expect(page.getByTestId('figure-failures-table').locator('tbody tr')).toHaveText([
    /Wrong e-mail or password\s*1/,
  ]);
  await expect(page.getByTestId('figure-seats-table').locator('tbody tr')).toHaveText([
    /Active users\s*3/,
    /Seat limit\s*25/,
  ]);
  await expectAccessible(page, 'insights page');

  await page.getByText('7 days').click();
  await expect(page.getByTestId('figure-sign-ins-table').locator('tbody tr')).toHaveCount(7);
});

test('My Security: a member sees their sessions and signs another one out, at once', async ({
  page,
  playwright,
  baseURL,
}) => {
  const org = await seedOrganisation();
  const me = await seedUser(org.id, { roleId: 6 });
  const elsewhere = await playwright.request.newContext({ baseURL: baseURL });
  const otherToken = await signInByApi(elsewhere, me.email, me.password);
  await signInThroughPage(page, me.email, me.password);

  const menu = await openMenu(page, 'profile-button', 'profile-menu');
  await menu.getByRole('menuitem', { name: 'My Security' }).click();
  await expect(page).toHaveURL(/\/my-security$/);
  const sessions = page.getByTestId('my-session');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This browser' })).toHaveCount(1);
  await expect(page.getByTestId('my-sign-ins').locator('tbody tr')).toHaveCount(2);
  await expectAccessible(page, 'my security page');

  await sessions
    .filter({ hasNotText: 'This browser' })
    .getByRole('button', { name: /^Sign out of/ })
    .click();
  await expect(sessions).toHaveCount(1);
  const refused = await elsewhere.get('/api/users/current', { headers: { Authorization: `Bearer ${otherToken}` } });
  expect(refused.status()).toBe(401);
  await elsewhere.dispose();
});

test("a sign-in from a new browser e-mails its owner; 'This wasn't me' signs the account out everywhere", async ({
  page,
  playwright,
  baseURL,
}) => {
  const org = await seedOrganisation();
  const me = await seedUser(org.id);
  // The account's first browser: no e-mail.
  const first = await playwright.request.newContext({ baseURL: baseURL });
  await signInByApi(first, me.email, me.password);
  await first.dispose();
  // This browser is new to the account.
  await signInThroughPage(page, me.email, me.password);
  const mail = await waitForMail(me.email, /browser it has not used before/);
  expect(mail.text).toMatch(/Browser: \S+/);
  const link = linkIn(mail)!;
  expect(link).toContain('/notMe?token=');

  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByRole('heading', { name: "This wasn't me" })).toBeVisible();
  await expectAccessible(page, "'This wasn't me' page");
  await page.getByRole('button', { name: 'Sign out everywhere and reset my password' }).click();
  await expect(page.getByTestId('not-me-done')).toBeVisible();
  await waitForMail(me.email, /To choose a new password/);
  // This browser's session ended too: the portal asks it to sign in again.
  await page.goto('/');
  await expect(page).toHaveURL(/\/logIn/);
});

import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { atProvider, openMenu, signInThroughPage } from './support/login';
import { linkIn, waitForMail } from './support/outbox';
import { seedOrganisation, seedUser, writeSql } from './support/seed';
import { Role } from '../../src/shared/roles';
import { BASE_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ISSUER } from './support/server';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

test('a site admin walks the organisation settings, invites a person, who accepts through the e-mailed link', async ({
  page,
  browser,
}) => {
  const org = await seedOrganisation({ name: 'Invite Test Org' });
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Sita', lastName: 'Admin' });
  await signInThroughPage(page, admin.email, admin.password);

  // One place for the organisation's administration, from the cog menu; each tab is its page.
  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await cog.getByRole('menuitem', { name: 'Organisation Settings' }).click();
  await expect(page).toHaveURL(/\/organisation-settings\/members$/);
  const tabs = page.getByRole('navigation', { name: 'Organisation settings' });
  await expect(tabs.getByRole('link')).toHaveText([
    'Members',
    'Invitations',
    'Single sign-on and domains',
    'Directory provisioning',
    'Audit log',
    'Security policy',
    'Integrations',
    'Applications',
    'Support access',
  ]);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Users of');
  for (const [tab, heading] of [
    ['Single sign-on and domains', 'Single Sign-On'],
    ['Directory provisioning', 'Directory Provisioning'],
    ['Audit log', 'Audit Log'],
    ['Invitations', 'Invitations'],
  ]) {
    await tabs.getByRole('link', { name: tab }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(tabs.getByRole('link', { name: tab })).toHaveAttribute('aria-current', 'page');
  }
  await expectAccessible(page, 'organisation settings, invitations tab');

  // Invite one person.
  const email = `invitee-${Date.now().toString(36)}@example.com`;
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByTestId('invite-role').selectOption({ label: 'Analyst' });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const row = page.getByTestId('invitation-row').filter({ hasText: email });
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('Analyst');

  // The person opens the e-mailed link in a browser of their own.
  const link = linkIn(await waitForMail(email, /\/invite\?token=/));
  const guest = await browser.newContext({ locale: 'en-AU', timezoneId: 'Australia/Sydney', bypassCSP: true });
  const invitee = await guest.newPage();
  await invitee.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(invitee.getByRole('heading', { name: 'Join Invite Test Org' })).toBeVisible();
  await expect(invitee.getByTestId('invitation-summary')).toContainText(`Sita Admin invited you as ${email}.`);
  await expectAccessible(invitee, 'invitation page');
  await invitee.getByRole('textbox', { name: /First name/ }).fill('Ivy');
  await invitee.getByRole('textbox', { name: /Last name/ }).fill('Invitee');
  await invitee.getByLabel(/^Password/).fill('password123');
  await invitee.getByLabel(/Confirm password/).fill('password123');
  await invitee.getByTestId('invitation-terms-box').click();
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(invitee.getByTestId('invitation-password-error')).toContainText('data breaches');
  await invitee.getByLabel(/^Password/).fill('Quiet-Harbour-Lamp-73');
  await invitee.getByLabel(/Confirm password/).fill('Quiet-Harbour-Lamp-73');
  await invitee.getByRole('button', { name: 'Accept invitation' }).click();
  // Signed in; MFA is enforced on new accounts, so the enrolment comes first.
  await expect(invitee).toHaveURL(/\/users\/profile\/\d+\?mfaRequired=true$/);
  await expect(invitee.getByTestId('profile-button')).toBeVisible();

  // Used: the link now says so, and how to get a new one.
  const again = await guest.newPage();
  await again.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(again.getByTestId('invitation-invalid')).toContainText('Ask the administrator who invited you');
  await guest.close();

  await page.reload();
  await page.getByTestId('invitation-status-filter').selectOption('accepted');
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toContainText('Accepted');
});

test('a CSV of 250 people goes in batches, with a progress bar and a result per row', async ({ page }) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/organisation-settings/invitations');
  await expect(page.getByRole('heading', { level: 1, name: 'Invitations' })).toBeVisible();

  // Each batch answers after a moment, so the bar is seen moving.
  let calls = 0;
  await page.route('**/api/invitations/bulk**', async (route) => {
    calls++;
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  });
  const stamp = Date.now().toString(36);
  const rows = Array.from(
    { length: 250 },
    (_, i) => `bulk-${stamp}-${i}@example.com,${i === 7 ? 'Astronaut' : 'Viewer'}`,
  );
  await page.getByTestId('invite-csv').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['email,role', ...rows].join('\n')),
  });
  const progress = page.getByTestId('invite-progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText('/ 250');
  await expectAccessible(page, 'invitations, upload in progress');
  await expect(page.getByTestId('invite-bulk-summary')).toHaveText('249 invited, 0 skipped, 1 refused.', {
    timeout: 30_000,
  });
  await expect(progress).toHaveCount(0);
  expect(calls).toBe(3);
  const results = page.getByTestId('invite-bulk-results');
  await expect(results.getByRole('row').filter({ hasText: `bulk-${stamp}-7@` })).toContainText('Refused');
  await expect(results.getByRole('row').filter({ hasText: `bulk-${stamp}-249@` })).toContainText('Invited');
  await expect(page.getByTestId('invitation-seats')).toContainText('249 pending invitation(s)');
  await expectAccessible(page, 'invitations, upload results');
});

/** The site admin's own API session (a fresh sign-in counts as its step-up). */
async function apiAs(email: string, password: string) {
  const res = await fetch(`${BASE_URL}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, acceptToS: true }),
  });
  expect(res.status).toBe(200);
  const { accessToken } = (await res.json()) as { accessToken: string };
  return (method: string, path: string, body?: object) =>
    fetch(`${BASE_URL}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: body && JSON.stringify(body),
    });
}

test("a person invited at the organisation's verified domain accepts through its identity provider and lands signed in with the invited role", async ({
  page,
  browser,
}) => {
  const org = await seedOrganisation({ name: 'Federated Invite Org' });
  const admin = await seedUser(org.id, { roleId: 2, firstName: 'Fede', lastName: 'Admin' });
  const domain = `invite-sso-${Date.now().toString(36)}.example`;
  const call = await apiAs(admin.email, admin.password);
  const made = await call('POST', '/api/sso-connections', {
    protocol: 'oidc',
    name: 'Federated Okta',
    issuer: OIDC_ISSUER,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    enabled: true,
  });
  expect(made.status).toBe(201);
  expect((await call('POST', '/api/domains', { domain })).status).toBe(201);
  // What a published TXT record and its check would leave: the domain verified for the organisation.
  await writeSql(
    "UPDATE organisation_domains SET verifiedDomain = domain, verifiedAt = datetime('now') WHERE domain = ?",
    [domain],
  );

  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/organisation-settings/invitations');
  await expect(page.getByRole('heading', { level: 1, name: 'Invitations' })).toBeVisible();
  const email = `ines@${domain}`;
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByTestId('invite-role').selectOption({ label: 'Analyst' });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toContainText('Pending');

  // The invited person opens the e-mailed link: no password to choose, the organisation's provider instead.
  const link = new URL(linkIn(await waitForMail(email, /\/invite\?token=/))!);
  const guest = await browser.newContext({ locale: 'en-AU', timezoneId: 'Australia/Sydney', bypassCSP: true });
  const invitee = await guest.newPage();
  await invitee.goto(link.pathname + link.search);
  await expect(invitee.getByRole('heading', { name: 'Join Federated Invite Org' })).toBeVisible();
  await expect(invitee.getByTestId('invitation-summary')).toContainText(`Fede Admin invited you as ${email}.`);
  await expect(invitee.getByText('Your organisation signs you in through its own provider.')).toBeVisible();
  await expect(invitee.getByLabel(/^Password/)).toHaveCount(0);
  await expectAccessible(invitee, 'invitation page, through the provider');
  await invitee.getByTestId('invitation-sso').click();
  await atProvider(invitee, email);
  await expect(invitee.getByTestId('profile-button')).toBeVisible();
  await guest.close();

  // The account exists with the invited role, and the invitation is accepted.
  const found = await call('GET', `/api/users?searchText=${encodeURIComponent(email)}`);
  expect(found.status).toBe(200);
  const person = ((await found.json()) as { items: { userEmail: string; userRoles: number[] }[] }).items.find(
    (u) => u.userEmail === email,
  );
  expect(person?.userRoles).toEqual([Role.ANALYST]);
  await page.reload();
  await page.getByTestId('invitation-status-filter').selectOption('accepted');
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toContainText('Accepted');
});

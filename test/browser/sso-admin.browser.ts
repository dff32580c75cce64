import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { startTestIdp } from '../utils/identity-providers/saml-idp';
import { expectAccessible } from './support/axe';
import { acceptTerms, atProvider, logOut, openMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser, writeSql } from './support/seed';
import { BASE_URL, BROWSER_DATA_DIR, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_ISSUER } from './support/server';

// axe-core is injected as a script tag, which the product's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/** What a published TXT record and its check would leave: the domain verified for its organisation. */
function markVerified(domain: string): Promise<void> {
  const db = new Database(join(BROWSER_DATA_DIR, 'app.sqlite'));
  db.configure('busyTimeout', 5000);
  return new Promise((resolve, reject) =>
    db.run(
      "UPDATE organisation_domains SET verifiedDomain = domain, verifiedAt = datetime('now') WHERE domain = ?",
      [domain],
      function (err) {
        db.close();
        if (err) reject(err);
        else if (this.changes !== 1) reject(new Error(`no claimed domain ${domain}`));
        else resolve();
      },
    ),
  );
}

test("a site admin adds a SAML connection and a domain on the Single Sign-On page; the login card then sends that domain's people to it", async ({
  page,
}) => {
  const idp = await startTestIdp('browser-adfs');
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const domain = `acme-${Date.now().toString(36)}.example`;
  await signInThroughPage(page, admin.email, admin.password);

  const cog = await openMenu(page, 'cog-button', 'cog-menu');
  await cog.getByRole('menuitem', { name: 'Single Sign-On' }).click();
  await expect(page).toHaveURL(/\/users\/sso$/);
  await expect(page.getByRole('heading', { name: 'Single Sign-On', level: 1 })).toBeVisible();
  await expectAccessible(page, 'single sign-on, nothing set up');

  // The connection: the IdP's metadata pasted; the addresses its administrator needs are shown to copy.
  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByTestId('add-connection');
  await form.getByRole('radio', { name: 'SAML 2.0' }).check({ force: true });
  await form.getByRole('textbox', { name: /Name/ }).fill('Acme ADFS');
  await form.getByRole('textbox', { name: /metadata/ }).fill(idp.metadataXml);
  await form.getByRole('button', { name: 'Add connection' }).click();
  const connection = page.getByTestId(/^connection-\d+$/);
  await expect(connection).toContainText('Acme ADFS');
  await expect(connection).toContainText(`${BASE_URL}/auth/saml/`);
  await expect(connection.getByRole('link', { name: 'Download SP metadata' })).toBeVisible();
  // Enabled from the start; the switch turns it off and on again.
  const status = connection.getByTestId('connection-status');
  const enabledSwitch = connection.locator('label').filter({ hasText: /^Enabled$/ });
  await expect(status).toHaveText('Enabled');
  await enabledSwitch.click();
  await expect(status).toHaveText('Disabled');
  await enabledSwitch.click();
  await expect(status).toHaveText('Enabled');

  // The domain: claimed, with the TXT record to publish.
  await page.getByRole('textbox', { name: /Domain/ }).fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  const row = page.getByTestId(`domain-${domain}`);
  await expect(row.getByTestId('domain-status')).toHaveText('Not verified');
  await expect(row.getByTestId('txt-name')).toHaveText(`_tax-portal-verification.${domain}`);
  await expect(row.getByTestId('txt-value')).toHaveText(/^tax-portal-verification=/);
  await expectAccessible(page, 'single sign-on, a connection and a claimed domain');

  await markVerified(domain);
  await page.reload();
  await expect(page.getByTestId(`domain-${domain}`).getByTestId('domain-status')).toHaveText('Verified');
  await logOut(page);

  // The login card: an e-mail of the domain goes on to the organisation's IdP with a SAML request.
  await acceptTerms(page);
  await page.getByLabel('Email').fill(`someone@${domain}`);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const go = page.getByRole('button', { name: 'Continue with Acme ADFS' });
  await expect(go).toBeVisible();
  await expectAccessible(page, 'login card, corporate sign-in offered');
  await page.route(`${idp.ssoUrl}**`, (route) => route.fulfill({ status: 200, body: 'the identity provider' }));
  const toIdp = page.waitForRequest((r) => r.url().startsWith(`${idp.ssoUrl}?`));
  await go.click();
  const request = new URL((await toIdp).url());
  expect(request.searchParams.get('SAMLRequest')).toBeTruthy();
  expect(idp.readRequest(request.href).acsUrl).toMatch(new RegExp(`^${BASE_URL}/auth/saml/\\d+/acs$`));

  // An e-mail of another domain still signs in with a password.
  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByLabel('Password')).toBeVisible();
});

test('a site admin adds an OpenID Connect connection through the form, tests it with a real round trip, reads what the provider sent, then enables it', async ({
  page,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const domain = `oidc-${Date.now().toString(36)}.example`;
  const person = await seedUser(org.id, { email: `pat@${domain}`, isSSO: true });
  await signInThroughPage(page, admin.email, admin.password);
  await page.goto('/users/sso');

  // The domain first: sign-in trusts the provider only for addresses of verified domains.
  await page.getByRole('textbox', { name: /Domain/ }).fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByTestId(`domain-${domain}`).getByTestId('domain-status')).toHaveText('Not verified');
  await markVerified(domain);

  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByTestId('add-connection');
  await form.getByRole('radio', { name: 'OpenID Connect' }).check({ force: true });
  await form.getByRole('button', { name: 'Add connection' }).click();
  await expect(form.getByText(/Enter the issuer URL/)).toBeVisible();
  await form.getByRole('textbox', { name: /Name/ }).fill('Acme Okta');
  await form.getByRole('textbox', { name: /Issuer URL/ }).fill(OIDC_ISSUER);
  await form.getByRole('textbox', { name: /Client ID/ }).fill(OIDC_CLIENT_ID);
  await form.getByLabel(/Client secret/).fill(OIDC_CLIENT_SECRET);
  await form.getByRole('button', { name: 'Add connection' }).click();
  const connection = page.getByTestId(/^connection-\d+$/);
  await expect(connection).toContainText('Acme Okta');
  await expect(connection).toContainText(`${BASE_URL}/callback`);
  // The secret is stored, never shown again.
  await expect(page.getByText(OIDC_CLIENT_SECRET)).toHaveCount(0);
  await connection
    .locator('label')
    .filter({ hasText: /^Enabled$/ })
    .click();
  await expect(connection.getByTestId('connection-status')).toHaveText('Disabled');

  // The test: the provider's own pages, then back on this page with the result.
  await connection.getByRole('button', { name: 'Test connection Acme Okta' }).click();
  await expect(page).toHaveURL(new RegExp(`^${OIDC_ISSUER}/interaction/`));
  const loginPage = page.url();
  await page.locator('input[name=login]').fill(person.email);
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  await page.waitForURL((u) => u.href !== loginPage);
  // The provider asks for consent the first time this account meets this client.
  if (page.url().startsWith(OIDC_ISSUER)) await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(/\/users\/sso\?connection=\d+&ssoTest=/);
  const result = page.getByTestId('sso-test-result');
  await expect(result.getByRole('heading', { name: 'Test of Acme Okta' })).toBeVisible();
  await expect(result.getByTestId('sso-test-outcome')).toContainText('The connection works');
  await expect(result.getByTestId('sso-test-outcome')).toContainText(`The provider signed in ${person.email}`);
  const claims = result.getByRole('table', { name: 'What the provider sent' });
  await expect(claims.getByRole('row', { name: `email ${person.email}` })).toBeVisible();
  await expectAccessible(page, 'single sign-on, a test result');
  // The admin is still signed in as themselves, and the connection still disabled.
  await expect(page.getByTestId('connection-status')).toHaveText('Disabled');
  await result.getByRole('button', { name: 'Close' }).click();
  await expect(result).toHaveCount(0);
  await expect(page).toHaveURL(/\/users\/sso$/);
  await page
    .getByTestId(/^connection-\d+$/)
    .locator('label')
    .filter({ hasText: /^Enabled$/ })
    .click();
  await expect(page.getByTestId('connection-status')).toHaveText('Enabled');
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
  return async (method: string, path: string, body: object) => {
    const r = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(201);
    return r.json() as Promise<{ id: number; domain?: string }>;
  };
}

test("an SSO account signs in through its organisation's connection and confirms a sensitive action there, then repeats it", async ({
  page,
}) => {
  const org = await seedOrganisation();
  const admin = await seedUser(org.id, { roleId: 2 });
  const domain = `stepup-${Date.now().toString(36)}.example`;
  const call = await apiAs(admin.email, admin.password);
  await call('POST', '/api/sso-connections', {
    protocol: 'oidc',
    name: 'Acme Okta',
    issuer: OIDC_ISSUER,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
  });
  await call('POST', '/api/domains', { domain });
  await markVerified(domain);
  const sam = await seedUser(org.id, { roleId: 2, isSSO: true, email: `sam@${domain}` });

  await page.goto('/logIn');
  await acceptTerms(page);
  await page.getByLabel('Email').fill(sam.email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByRole('button', { name: 'Continue with Acme Okta' }).click();
  await atProvider(page, sam.email);
  await expect(page.getByTestId('profile-button')).toBeVisible();

  await page.goto('/users');
  await expect(page.getByTestId('users-page')).toBeVisible();
  // The sign-in an hour ago: past STEP_UP_MINUTES. The server reads its kept session rows again after a write
  // of its own (a reset e-mail asked for the site admin).
  const at = new Date(Date.now() - 60 * 60_000).toISOString().replace('T', ' ').replace('Z', '');
  await writeSql('UPDATE sessions SET createdAt = ?, authenticatedAt = ? WHERE userId = ?', [at, at, sam.id]);
  await fetch(`${BASE_URL}/auth/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.email }),
  });

  await page.getByTestId('export-csv').click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You will sign in again at your organisation’s identity provider');
  await dialog.getByRole('button', { name: 'Continue with corporate login' }).click();
  // prompt=login: the provider asks again, whatever session it holds.
  await atProvider(page, sam.email);
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.getByText('You confirmed it is you. Please repeat what you were doing.')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await expect(dialog).toBeHidden();
});

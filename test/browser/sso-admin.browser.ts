import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { startTestIdp } from '../utils/saml-idp';
import { expectAccessible } from './support/axe';
import { acceptTerms, logOut, openMenu, signInThroughPage } from './support/login';
import { seedOrganisation, seedUser } from './support/seed';
import { BASE_URL, BROWSER_DATA_DIR } from './support/server';

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

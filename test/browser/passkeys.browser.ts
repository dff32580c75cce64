import { expect, Page, test } from '@playwright/test';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptTerms, logOut } from './support/login';
import { seedInto, seedOrganisation, seedUser } from './support/seed';
import { BROWSER_DATA_DIR, PORT } from './support/server';

/**
 * Passkeys in Chromium against the real server, with the DevTools protocol's virtual authenticator
 * (WebAuthn.enable, WebAuthn.addVirtualAuthenticator). WebAuthn refuses an IP address as relying party, so this
 * file starts the built server of its own on http://localhost:<BROWSER_TEST_PORT + 1> (PUBLIC_URL, hence RP id
 * 'localhost'), on a fresh DATA_DIR that the seeds write to.
 */
const OWN_PORT = PORT + 1;
const BASE = `http://localhost:${OWN_PORT}`;
const DATA_DIR = join(tmpdir(), `tax-portal-browser-passkeys-${OWN_PORT}`);
let server: ChildProcess;

test.beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  server = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(__dirname, '..', '..'),
    env: {
      ...process.env,
      PORT: String(OWN_PORT),
      DATA_DIR,
      PUBLIC_URL: BASE,
      LOG_LEVEL: 'error',
      DATABASE_URL: '',
      REDIS_URL: '',
      BOOTSTRAP_SUPPORT_EMAIL: 'support@vendor.test',
      BOOTSTRAP_SUPPORT_PASSWORD: 'Support-Pass-1',
    },
    stdio: 'ignore',
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the passkeys test server exited with ${server.exitCode}`);
    if (
      await fetch(`${BASE}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (Date.now() > until) throw new Error('the passkeys test server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  seedInto(DATA_DIR);
});

test.afterAll(async () => {
  // Seeds of the files that run after this one (same worker) go to the suite's server again.
  seedInto(BROWSER_DATA_DIR);
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
  rmSync(DATA_DIR, { recursive: true, force: true });
});

/** A platform authenticator with resident keys and user verification (fingerprint) that always says yes. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto(`${BASE}/logIn`);
  await acceptTerms(page);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

test('a passkey registered on the profile satisfies enforced MFA, signs in without a password and as the MFA step, and stops working once removed', async ({
  page,
}) => {
  // Seven sign-ins and sign-outs in one journey: more than the default minute on a loaded machine.
  test.setTimeout(120_000);
  const org = await seedOrganisation();
  const user = await seedUser(org.id, { isMFAEnforced: true, roleId: 2 });
  const authenticator = await virtualAuthenticator(page);

  // Enforced MFA, nothing set up: the profile with the banner.
  await passwordStep(page, user.email, user.password);
  await expect(page).toHaveURL(/\/users\/profile\/\d+\?mfaRequired=true/);
  await expect(page.getByTestId('mfa-enforced-banner')).toBeVisible();

  const panel = page.getByTestId('passkeys-panel');
  await expect(panel.getByText('You have no passkeys yet.')).toBeVisible();
  await panel.getByLabel('Passkey name').fill('Chromium virtual key');
  await panel.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey added. You have been signed out of your other sessions.')).toBeVisible();
  const row = panel.getByTestId('passkey-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Chromium virtual key');
  await expect(row).toContainText('Never');
  // A discoverable credential for RP id 'localhost'.
  const stored = await authenticator.credentials();
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  // The passkey satisfies enforced MFA: no banner, and the rest of the product opens.
  await expect(page.getByTestId('mfa-enforced-banner')).toHaveCount(0);
  await page.goto(`${BASE}/users`);
  await expect(page).toHaveURL(/\/users$/);

  // Password-less: the terms first, then the passkey alone.
  await logOut(page);
  await page.goto(`${BASE}/logIn`);
  const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkeyButton).toBeDisabled();
  await acceptTerms(page);
  await passkeyButton.click();
  await expect(page.getByTestId('profile-button')).toBeVisible();
  await expect(page).not.toHaveURL(/logIn/);

  // With the password: the MFA step offers the passkey.
  await logOut(page);
  await passwordStep(page, user.email, user.password);
  await expect(page.getByText('Please enter TOTP before proceeding.')).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByTestId('profile-button')).toBeVisible();

  // Last used is shown; removing the passkey (after confirming) ends it.
  await page.goto(`${BASE}/users/profile/${user.id}`);
  await expect(row).not.toContainText('Never');
  await row.getByRole('button', { name: 'Remove passkey Chromium virtual key' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Passkey removed. You have been signed out of your other sessions.')).toBeVisible();
  await expect(panel.getByText('You have no passkeys yet.')).toBeVisible();

  // The authenticator still holds the credential, but the server no longer knows it.
  await logOut(page);
  await page.goto(`${BASE}/logIn`);
  await acceptTerms(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('This passkey is not registered for an account here.', { exact: false })).toBeVisible();
  await expect(page.getByTestId('login-card')).toHaveAttribute('data-step', 'ROOT');
});

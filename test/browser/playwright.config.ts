import { defineConfig } from '@playwright/test';
import {
  BASE_URL,
  BROWSER_DATA_DIR,
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  OIDC_ISSUER,
  OIDC_PORT,
  PORT,
} from './support/server';

/**
 * Browser tests: Debian's Chromium (never a downloaded browser) against the built product, served by
 * one process on a fresh DATA_DIR, exactly as `npm start` serves it.
 */
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.browser\.ts$/,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'en-AU',
    timezoneId: 'Australia/Sydney',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: [
    {
      // A real OpenID provider for 'Corporate Login'.
      command: `node test/utils/identity-providers/oidc-provider.mjs ${OIDC_PORT} ${OIDC_CLIENT_ID} ${OIDC_CLIENT_SECRET} ${BASE_URL}/callback`,
      cwd: '../..',
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node test/browser/support/serve.js',
      cwd: '../..',
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { PORT: String(PORT), BROWSER_DATA_DIR, OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET },
    },
  ],
});

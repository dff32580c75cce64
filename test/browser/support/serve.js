// Starts the built product for the browser suite on a wiped DATA_DIR. Run by Playwright's webServer.
const { rmSync, mkdirSync } = require('node:fs');
const dataDir = process.env.BROWSER_DATA_DIR;
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
Object.assign(process.env, {
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  PUBLIC_URL: `http://127.0.0.1:${process.env.PORT}`,
  BOOTSTRAP_SUPPORT_EMAIL: 'support@vendor.test',
  BOOTSTRAP_SUPPORT_PASSWORD: 'Support-Pass-1',
  SERVICE_API_KEY: 'browser-service-api-key-0123456789',
  APP_ENV: 'develop',
  // The suite's OpenID provider and its webhook / log-stream receivers run on loopback: customer URLs may reach them.
  SSO_ALLOW_PRIVATE_NETWORKS: 'true',
  ALLOW_PRIVATE_NETWORKS: 'true',
});
require('../../../dist/main.js');

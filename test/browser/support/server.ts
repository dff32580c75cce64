import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the browser suite's server listens and keeps its data (one per port, wiped at each start). */
export const PORT = Number(process.env.BROWSER_TEST_PORT ?? 3100);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
export const BROWSER_DATA_DIR = join(tmpdir(), `tax-portal-browser-${PORT}`);
export const SUPPORT_EMAIL = 'support@vendor.test';
export const SUPPORT_PASSWORD = 'Support-Pass-1';
export const SERVICE_API_KEY = 'browser-service-api-key-0123456789';

/** The OpenID provider the browser suite signs in through (test/utils/identity-providers/oidc-provider.mjs). */
export const OIDC_PORT = PORT + 90;
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
export const OIDC_CLIENT_ID = 'tax-portal';
export const OIDC_CLIENT_SECRET = 'browser-oidc-secret';

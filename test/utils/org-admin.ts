import { ROLE_CODES, ALL_ROLES } from '../../src/shared/roles';

/** The status every role of the matrix should get: `allowedStatus` for the allowed role codes, 403 for the rest. */
export function expectedStatuses(allowed: string[], allowedStatus: number): Record<string, number> {
  return Object.fromEntries(
    ALL_ROLES.map((r) => ROLE_CODES[r]).map((code) => [code, allowed.includes(code) ? allowedStatus : 403]),
  );
}

let n = 0;
/** A short unique upper-case suffix for codes and e-mails. */
export const uniq = () => `${Date.now().toString(36)}${(n++).toString(36)}`.toUpperCase();

/** A valid POST /auth/site-admin body for a new organisation of its own (unique code and e-mail). */
export function siteAdminPayload(overrides: Record<string, unknown> = {}) {
  const code = `NEW${uniq()}`.slice(0, 25);
  return {
    userEmail: `admin-${code.toLowerCase()}@new.example.com`,
    organizationName: `New Org ${code}`,
    organizationCode: code,
    allowedUsersNumber: 1,
    maxConcurrentUsers: 1,
    maxPortfolios: 0,
    masterTaxManagerApplicationIds: [],
    masterCorporateActionsApplicationIds: [2],
    userRoleIds: [2],
    accountType: 'Organization',
    ssoLogoutUrl: '',
    isSSO: false,
    ...overrides,
  };
}

/** A real 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** The first bytes of a JPEG, a GIF and a WebP: enough for the type check. */
export const JPEG_BYTES = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
export const GIF_BYTES = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40, 0)]);
export const WEBP_BYTES = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([40, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(32, 0),
]);
export const SVG_BYTES = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

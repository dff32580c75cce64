/** Directory provisioning (SCIM 2.0, docs/product-rules.md §6): the token API's shapes and the texts both sides show. */

/** One provisioning token as GET /api/scim-tokens lists it: never the token itself. */
export interface ScimTokenItem {
  id: number;
  name: string;
  organisationId: number;
  createdAt: string;
  /** The e-mail of the account that created it. */
  createdBy: string | null;
  /** The latest call made with it, to the minute (uses are recorded at most once a minute). */
  lastUsedAt: string | null;
}

/** POST /api/scim-tokens: the token, shown this once. */
export interface NewScimToken {
  id: number;
  name: string;
  token: string;
}

export const SCIM_TOKEN_NAME_MAX = 50;
/** Open tokens per organisation: one per directory and a spare for rotation is the usual need. */
export const SCIM_TOKENS_MAX = 10;

/** What `managedBy` holds for an account or group the organisation's directory provisions. */
export const MANAGED_BY_SCIM = 'scim';

/** Profile fields the directory owns on the accounts it manages (the profile page shows them read-only). */
export const DIRECTORY_OWNED_FIELDS = ['firstName', 'lastName', 'jobTitle', 'department'] as const;

/** Where a directory reaches the SCIM service, under the product's address. */
export const SCIM_BASE_PATH = '/scim/v2';

/** The texts of the Directory Provisioning page. */
export const PROVISIONING_TEXTS = {
  TITLE: 'Directory Provisioning',
  INTRO:
    "Your organisation's directory (Microsoft Entra ID, Okta or another SCIM 2.0 client) can create, update, disable and remove accounts and user groups here. Give it the SCIM address below and a provisioning token.",
  BASE_URL: 'SCIM address (tenant URL)',
  NAME: 'Token name',
  CREATE: 'Create token',
  CREATED_TITLE: 'Copy the token now',
  CREATED: 'This is the only time the token is shown. Paste it into your directory as the secret token (Bearer token).',
  COPY: 'Copy token',
  DONE: 'I have copied it',
  NONE: 'No provisioning tokens yet.',
  REVOKE: 'Revoke',
  REVOKE_TITLE: 'Revoke provisioning token',
  revokeQuestion: (name: string) =>
    `Revoke the token "${name}"? The directory that uses it is refused at once, on every server.`,
  REVOKED: 'The token was revoked.',
  FAILED: 'The provisioning tokens could not be changed. Please try again.',
  SUPPORT_PICK: 'Choose the organisation whose provisioning tokens you want to see or manage.',
  SUPPORT_PICK_ABOVE: 'Choose an organisation above to see its provisioning tokens.',
  ORGANISATION: 'Organisation',
  CHOOSE_ORGANISATION: 'Choose an organisation',
  READ_ONLY: 'Only the site admin creates and revokes provisioning tokens.',
  NEVER_USED: 'Never',
} as const;

export const SCIM_MESSAGES = {
  TOKEN_NAME_REQUIRED: 'Give the token a name.',
  TOKEN_NAME_TOO_LONG: `The name may have at most ${SCIM_TOKEN_NAME_MAX} characters.`,
  TOO_MANY_TOKENS: `An organisation may have at most ${SCIM_TOKENS_MAX} provisioning tokens. Revoke one first.`,
  VENDOR_NO_TOKENS: 'The vendor organisation is not provisioned from a directory.',
  TOKEN_NOT_FOUND: 'Provisioning token not found.',
  TOKEN_INVALID: 'A valid provisioning token is required (Authorization: Bearer <token>).',
  DIRECTORY_MANAGED_NOTE:
    "Your organisation's directory manages this account: its name, job title, department and access are changed there.",
  DIRECTORY_MANAGED_ACCESS: "This account is managed by your organisation's directory: change its access there.",
  DIRECTORY_MANAGED_PROFILE: "This account is managed by your organisation's directory: change these fields there.",
} as const;

/**
 * Organisation API keys (docs/api-keys.md): the scopes, the API's shapes and the texts both sides show.
 * A key acts for its own organisation as an Administrator would, within its scopes.
 */

/** What a key may do; each route that a key may call names its one scope on its `@Access`. */
export const API_KEY_SCOPES = ['users:read', 'users:write', 'audit:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What each scope lets a key call, for people choosing scopes. */
export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'users:read': "Read users: the user list, a user's details and groups, the organisation summary",
  'users:write': 'Manage users: add users, change roles, access, MFA enforcement and user groups',
  'audit:read': 'Read the audit log',
};

/** Marks a key in a header, a log or a secret scanner's findings, and tells it from an access token (a JWT). */
export const API_KEY_PREFIX = 'tpk_';
/** How many characters of a key (its prefix included) are kept and shown to tell keys apart. */
export const API_KEY_SHOWN_PREFIX_LENGTH = 12;

export const API_KEY_NAME_MAX = 50;
/** Open keys per organisation. */
export const API_KEYS_MAX = 20;
/** A key's use is written (lastUsedAt) at most once in this long. */
export const API_KEY_USE_RECORD_MS = 60_000;

/** POST /api/api-keys */
export interface CreateApiKeyRequest {
  name: string;
  scopes: ApiKeyScope[];
  /** ISO 8601; in the future. Left out: the key does not expire. */
  expiresAt?: string;
}

/** POST /api/api-keys: the key, shown this once. */
export interface NewApiKey {
  id: number;
  name: string;
  key: string;
  /** The key's first characters, kept to tell keys apart (never enough to use it). */
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: string;
  expiresAt: string | null;
}

/** One key as GET /api/api-keys lists it: never the key itself. */
export interface ApiKeyItem {
  id: number;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  organisationId: number;
  createdAt: string;
  /** The e-mail of the account that created it. */
  createdBy: string | null;
  expiresAt: string | null;
  /** The latest call made with it, to the minute (uses are written at most once a minute). */
  lastUsedAt: string | null;
}

export const API_KEY_MESSAGES = {
  NAME_REQUIRED: 'Give the key a name.',
  NAME_TOO_LONG: `The name can be at most ${API_KEY_NAME_MAX} characters.`,
  SCOPES_REQUIRED: 'Choose at least one scope.',
  SCOPE_UNKNOWN: `Scopes are ${API_KEY_SCOPES.join(', ')}.`,
  EXPIRY_INVALID: 'The expiry must be a date and time in the future.',
  TOO_MANY_KEYS: `An organisation can have at most ${API_KEYS_MAX} API keys. Revoke one first.`,
  NOT_FOUND: 'API key not found.',
  VENDOR_NO_KEYS: 'The vendor organisation has no API keys: choose a customer organisation.',
  KEY_INVALID: 'The API key is unknown, revoked or expired.',
  INSUFFICIENT_SCOPE: 'This API key may not make this call.',
} as const;

/** Each organisation's identity providers (docs/product-rules.md §6): the API shapes and texts the server and client share. */
import { Role } from '../roles';

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** The roles a just-in-time account may be given: those site admins may assign. */
export const SSO_DEFAULT_ROLES: readonly Role[] = [
  Role.STANDARD_ADMIN,
  Role.PORTFOLIO_MANAGER,
  Role.ANALYST,
  Role.VIEWER,
];

export const SSO_LIMITS = {
  NAME_MAX: 100,
  ISSUER_MAX: 500,
  CLIENT_ID_MAX: 200,
  CLIENT_SECRET_MAX: 500,
  /** IdP metadata of Entra ID, Okta and ADFS is 5-60 KB; the request body limit is 100 KB. */
  METADATA_MAX: 90_000,
  /** Connections per organisation: a few providers, one per subsidiary at most. */
  PER_ORGANISATION: 20,
  /** Claims a test round trip reports. */
  TEST_CLAIMS_MAX: 60,
  TEST_CLAIM_VALUE_MAX: 500,
} as const;

/** GET /api/sso-connections items, and the answer of POST and PUT. No secret is ever part of it. */
export interface SsoConnectionItem {
  id: number;
  organisationId: number;
  name: string;
  protocol: SsoProtocol;
  enabled: boolean;
  jitProvisioning: boolean;
  defaultRoleId: number | null;
  /** OIDC */
  issuer?: string;
  clientId?: string;
  /** Whether a client secret is stored (it is never shown). */
  hasClientSecret?: boolean;
  /** Where the provider sends the browser back (OIDC), to register at the provider. */
  redirectUri?: string;
  /** SAML */
  idpEntityId?: string;
  idpSsoUrl?: string;
  idpSloUrl?: string | null;
  spEntityId?: string;
  spMetadataUrl?: string;
  acsUrl?: string;
  /** Where the browser starts a sign-in with this connection. */
  loginUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** POST /auth/sso/discover */
export interface SsoDiscoveryResult {
  sso: boolean;
  /** Where to send the browser (login_hint carries the e-mail). */
  url?: string;
  /** The connection's name, for 'Continue with <name>'. */
  name?: string;
}

/** POST /api/sso-connections/{id}/test: where the browser starts the test round trip. */
export interface SsoTestStart {
  url: string;
}

/** What a real sign-in of the person who tested would do: their account, a new one, or a refusal. */
export const SSO_TEST_OUTCOMES = ['SIGNS_IN', 'CREATES_ACCOUNT', 'REFUSED', 'FAILED'] as const;
export type SsoTestOutcome = (typeof SSO_TEST_OUTCOMES)[number];

/** One claim (OIDC) or attribute (SAML) the provider sent, as text. */
export interface SsoTestClaim {
  name: string;
  value: string;
}

/** GET /api/sso-connections/{id}/test-results/{key}: the end of a test round trip, for the admin who ran it. */
export interface SsoTestResult {
  connectionId: number;
  connectionName: string;
  protocol: SsoProtocol;
  testedAt: string;
  /** The round trip and every check of the protocol (signature, audience, nonce, validity) passed. */
  ok: boolean;
  outcome: SsoTestOutcome;
  /** What happened, in words: the account it signs in, or why it would be refused. */
  message: string;
  /** The provider's or the protocol's technical reason, when the round trip failed. */
  detail?: string;
  /** What the provider sent about the person (at most SSO_LIMITS.TEST_CLAIMS_MAX, each value cut to 500 characters). */
  claims: SsoTestClaim[];
}

/** POST /auth/logout: where the browser goes next when the provider's session must end too. */
export interface LogoutResult {
  success: true;
  logoutUrl?: string;
}

export const SSO_MESSAGES = {
  NOT_FOUND: 'SSO connection not found.',
  DISABLED: 'This corporate login is not available. Please sign in another way or contact your administrator.',
  METADATA_INVALID:
    'The metadata is not valid SAML 2.0 identity provider metadata (an EntityDescriptor with an IDPSSODescriptor, a signing certificate and an HTTP-Redirect SingleSignOnService).',
  ISSUER_INVALID: 'The issuer must be an https URL.',
  SECRET_REQUIRED: 'Enter the client secret.',
  TOO_MANY: `An organisation can have at most ${SSO_LIMITS.PER_ORGANISATION} SSO connections.`,
  FIELDS_OF_OTHER_PROTOCOL: 'These settings belong to the other protocol.',
  FAILED: 'The corporate login did not succeed. Please try again.',
  DOMAIN_NOT_VERIFIED:
    "Your e-mail address's domain is not verified for this organisation's corporate login. Please contact your administrator.",
  OTHER_ORGANISATION: 'This corporate login cannot sign in your account. Please contact your administrator.',
  NO_ACCOUNT: 'There is no account for you yet. Please ask your administrator to create one.',
  NO_EMAIL: 'The identity provider did not tell us your e-mail address. Please contact your administrator.',
  EMAIL_INVALID: 'The identity provider sent an e-mail address that is not valid. Please contact your administrator.',
  EMAIL_NOT_VERIFIED: 'The identity provider has not verified your e-mail address. Please contact your administrator.',
  REPLAYED: 'This sign-in response has been used already. Please sign in again.',
  LOGOUT_TOKEN_INVALID: 'The logout token is not valid.',
  STEP_UP_EXPIRED: 'The confirmation took too long. Please try the action again.',
  STEP_UP_OTHER_ACCOUNT: 'The corporate login was for another account. Please confirm with your own.',
  TEST_EXPIRED: 'The test took too long. Please start it again from the Single Sign-On page.',
  TEST_RESULT_NOT_FOUND:
    'This test result is not available (it is kept for 10 minutes, for the person who ran the test).',
  TEST_SIGNS_IN: (email: string) => `The provider signed in ${email}: this account would be signed in.`,
  TEST_CREATES_ACCOUNT: (email: string) =>
    `The provider signed in ${email}: there is no account yet, and a new one would be created (just-in-time accounts are on).`,
  TEST_ROUND_TRIP_FAILED: 'The round trip with the identity provider did not succeed.',
  STEP_UP_NOT_FRESH: 'Your identity provider did not ask you to sign in again. Please try again.',
} as const;

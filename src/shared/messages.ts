/** Texts the specification fixes and that both the server and the client rely on. */
export const AUTH_MESSAGES = {
  TOTP_REQUIRED: 'Please enter TOTP before proceeding.',
  PASSWORD_CHANGE_REQUIRED: 'Please change password before proceeding.',
  INVALID_CREDENTIALS: 'Please try again.',
  JWT_EXPIRED: 'jwt expired',
  TERMS_NOT_ACCEPTED: 'Please review and accept the terms and conditions.',
  FORGOT_PASSWORD_SENT: 'An email has been sent with instructions to reset your password.',
  MFA_CODE_SENT: 'MFA code has been sent to your email address.',
} as const;

/** Texts of account rules that several server features and the client say alike. */
export const ACCOUNT_MESSAGES = {
  NOT_FOUND: 'User not found.',
  MFA_ENFORCED: 'Site Admin has enforced MFA on your account. You must enable MFA to proceed further.',
  DUPLICATE_EMAIL: 'A user with this email already exists.',
  /**
   * An address taken outside the caller's view, or on a domain another organisation has verified: one answer for
   * both, so that it never tells which addresses another organisation holds (docs/api.md, 'E-mail addresses').
   */
  EMAIL_UNAVAILABLE:
    'This email address cannot be used in your organisation. If it belongs to one of your people, contact support.',
  CURRENT_PASSWORD_WRONG: 'The current password is not correct.',
  SAME_PASSWORD: 'The new password must be different from the current one.',
} as const;

/** Texts of the breached-password check and of re-authentication (docs/product-rules.md §7). */
export const SECURITY_MESSAGES = {
  PASSWORD_BREACHED:
    'This password appears in lists of passwords exposed in data breaches, which attackers try first. ' +
    'Please choose a different one.',
  STEP_UP_REQUIRED: 'Please confirm it is you to continue.',
  STEP_UP_FAILED: 'That did not confirm it is you. Please try again.',
  STEP_UP_ONE_FACTOR: 'Send one of a password, an MFA code, a recovery code or a passkey.',
} as const;

/** Texts of a call refused while an engine underneath cannot be reached (answered 503 SERVICE_UNAVAILABLE). */
export const AVAILABILITY_MESSAGES = {
  SERVICE_UNAVAILABLE: 'The service is briefly unavailable. Please try again in a moment.',
  RETRYING: 'The service is briefly unavailable. Retrying…',
} as const;

/** Machine codes of the error body (docs/product-rules.md §3). */
export const ERROR_CODES = {
  TOTP_REQUIRED: 'TOTP_REQUIRED',
  PASSWORD_CHANGE_REQUIRED: 'PASSWORD_CHANGE_REQUIRED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  INVALID_MFA_TOKEN: 'INVALID_MFA_TOKEN',
  INVALID_RECOVERY_CODE: 'INVALID_RECOVERY_CODE',
  JWT_EXPIRED: 'JWT_EXPIRED',
  TERMS_NOT_ACCEPTED: 'TERMS_NOT_ACCEPTED',
  ACCOUNT_DISABLED: 'ACCOUNT_DISABLED',
  TOO_MANY_ATTEMPTS: 'TOO_MANY_ATTEMPTS',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  MFA_ENROLMENT_REQUIRED: 'MFA_ENROLMENT_REQUIRED',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  RESET_TOKEN_INVALID: 'RESET_TOKEN_INVALID',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  REFRESH_INVALID: 'REFRESH_INVALID',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** The request line and headers exceed the server's limit (the HTTP server refuses them before the application). */
  REQUEST_HEADERS_TOO_LARGE: 'REQUEST_HEADERS_TOO_LARGE',
  /** The bytes received are not an HTTP request the server can read (the HTTP server's parser refused them). */
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  /** The request's headers did not arrive within the server's time limit. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  BODY_TOO_DEEP: 'BODY_TOO_DEEP',
  INTERNAL: 'INTERNAL_ERROR',
  /** The access token's session was ended (logout, force log-off, password or MFA change) or its account may no longer sign in. */
  SESSION_ENDED: 'SESSION_ENDED',
  /** An engine the call needs (the database, Redis) cannot be reached for now: answered 503 with Retry-After. */
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  UNAVAILABLE: 'UNAVAILABLE',
  NOT_READY: 'NOT_READY',
  MAIL_FAILED: 'MAIL_FAILED',
  SSO_UNAVAILABLE: 'SSO_UNAVAILABLE',
  SSO_STATE_MISSING: 'SSO_STATE_MISSING',
  SSO_FAILED: 'SSO_FAILED',
  SSO_NOT_ALLOWED: 'SSO_NOT_ALLOWED',
  LOGO_URL_INVALID: 'LOGO_URL_INVALID',
  LOGO_URL_EXPIRED: 'LOGO_URL_EXPIRED',
  LOGO_URL_USED: 'LOGO_URL_USED',
  LOGO_SIZE_MISMATCH: 'LOGO_SIZE_MISMATCH',
  LOGO_NOT_IMAGE: 'LOGO_NOT_IMAGE',
  LOGO_NOT_UPLOADED: 'LOGO_NOT_UPLOADED',
  DOWNLOAD_LINK_INVALID: 'DOWNLOAD_LINK_INVALID',
  DUPLICATE_ORGANISATION_CODE: 'DUPLICATE_ORGANISATION_CODE',
  DUPLICATE_EMAIL: 'DUPLICATE_EMAIL',
  EMAIL_UNAVAILABLE: 'EMAIL_UNAVAILABLE',
  DUPLICATE_GROUP: 'DUPLICATE_GROUP',
  CONCURRENT_USERS_EXCEEDED: 'CONCURRENT_USERS_EXCEEDED',
  ACTIVE_USERS_LIMIT: 'ACTIVE_USERS_LIMIT',
  PASSKEY_INVALID: 'PASSKEY_INVALID',
  PASSKEY_CHALLENGE_INVALID: 'PASSKEY_CHALLENGE_INVALID',
  DOMAIN_NOT_VERIFIED: 'DOMAIN_NOT_VERIFIED',
  DOMAIN_ALREADY_CLAIMED: 'DOMAIN_ALREADY_CLAIMED',
  DOMAIN_TAKEN: 'DOMAIN_TAKEN',
  DOMAIN_LIMIT: 'DOMAIN_LIMIT',
  PASSWORD_BREACHED: 'PASSWORD_BREACHED',
  STEP_UP_REQUIRED: 'STEP_UP_REQUIRED',
  /** The field or action belongs to the organisation's directory (SCIM): it is changed there, not here. */
  DIRECTORY_MANAGED: 'DIRECTORY_MANAGED',
  /** An organisation API key called a route outside its scopes, or a sensitive one (docs/api-keys.md). */
  INSUFFICIENT_SCOPE: 'INSUFFICIENT_SCOPE',
  /** An invitation link that is unknown, used, withdrawn or expired. */
  INVITATION_INVALID: 'INVITATION_INVALID',
  /** The address has an open invitation of this organisation already. */
  INVITATION_EXISTS: 'INVITATION_EXISTS',
  /** Resending or withdrawing an invitation accepted or withdrawn already. */
  INVITATION_NOT_OPEN: 'INVITATION_NOT_OPEN',
  /** Accepting an invitation when the organisation's active-user limit is reached. */
  USER_LIMIT_REACHED: 'USER_LIMIT_REACHED',
  /** The organisation's security policy: a call from outside its allowed address ranges. */
  IP_NOT_ALLOWED: 'IP_NOT_ALLOWED',
  /** A policy whose address ranges would exclude the address saving it. */
  POLICY_LOCKS_YOU_OUT: 'POLICY_LOCKS_YOU_OUT',
  /** Password sign-in of a member whose organisation requires its single sign-on (the body's `url` starts it). */
  SSO_REQUIRED: 'SSO_REQUIRED',
  /** Deleting one's own account where the organisation's policy does not allow it. */
  SELF_DELETION_OFF: 'SELF_DELETION_OFF',
  /** Deleting the organisation's last active site admin. */
  LAST_SITE_ADMIN: 'LAST_SITE_ADMIN',
  /** Erasing an account whose access is still on (switch it off first). */
  ACCESS_STILL_ON: 'ACCESS_STILL_ON',
  /** The organisation's security policy allows no support access (docs/support-access.md). */
  SUPPORT_ACCESS_OFF: 'SUPPORT_ACCESS_OFF',
  /** A call a support-access session may not make: sensitive, or a change to credentials or integrations. */
  SUPPORT_ACCESS_FORBIDDEN: 'SUPPORT_ACCESS_FORBIDDEN',
  /** A support-access request that is not in the state the call needs (not pending, not approved, lapsed, ended). */
  SUPPORT_ACCESS_STATE: 'SUPPORT_ACCESS_STATE',
  /** The E-Support account already has a support-access session running. */
  SUPPORT_ACCESS_ACTIVE: 'SUPPORT_ACCESS_ACTIVE',
  /** The target of a support-access request is an E-Support account. */
  SUPPORT_ACCESS_TARGET: 'SUPPORT_ACCESS_TARGET',
} as const;
/** Every machine code the server throws and the client matches: a closed union (AppException takes nothing else). */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
/** The code of an error body: an ErrorCode, or `HTTP_<status>` for a framework error of a status without one. */
export type ErrorBodyCode = ErrorCode | `HTTP_${number}`;

/** The product's name, as authenticator apps and e-mails show it. */
export const PRODUCT_NAME = 'Tax Portal';

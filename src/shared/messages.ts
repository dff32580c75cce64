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

/** Machine codes of the error body (CONTRACT 3). */
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
  CONFLICT: 'CONFLICT',
  RESET_TOKEN_INVALID: 'RESET_TOKEN_INVALID',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  REFRESH_INVALID: 'REFRESH_INVALID',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  BODY_TOO_DEEP: 'BODY_TOO_DEEP',
  INTERNAL: 'INTERNAL_ERROR',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The product's name, as authenticator apps and e-mails show it. */
export const PRODUCT_NAME = 'Tax Portal';

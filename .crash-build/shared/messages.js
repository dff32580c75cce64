"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PRODUCT_NAME = exports.ERROR_CODES = exports.AUTH_MESSAGES = void 0;
/** Texts the specification fixes and that both the server and the client rely on. */
exports.AUTH_MESSAGES = {
    TOTP_REQUIRED: 'Please enter TOTP before proceeding.',
    PASSWORD_CHANGE_REQUIRED: 'Please change password before proceeding.',
    INVALID_CREDENTIALS: 'Please try again.',
    JWT_EXPIRED: 'jwt expired',
    TERMS_NOT_ACCEPTED: 'Please review and accept the terms and conditions.',
    FORGOT_PASSWORD_SENT: 'An email has been sent with instructions to reset your password.',
    MFA_CODE_SENT: 'MFA code has been sent to your email address.',
};
/** Machine codes of the error body (CONTRACT 3). */
exports.ERROR_CODES = {
    TOTP_REQUIRED: 'TOTP_REQUIRED',
    PASSWORD_CHANGE_REQUIRED: 'PASSWORD_CHANGE_REQUIRED',
    INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
    INVALID_MFA_TOKEN: 'INVALID_MFA_TOKEN',
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
    INTERNAL: 'INTERNAL_ERROR',
};
/** The product's name, as authenticator apps and e-mails show it. */
exports.PRODUCT_NAME = 'Tax Portal';
//# sourceMappingURL=messages.js.map
/**
 * Answers of the API that have no richer shape elsewhere in src/shared: named so that the OpenAPI document can
 * describe them (src/platform/openapi generates its schemas from every exported type of src/shared).
 */

/** docs/product-rules.md §3: every error answer. Some carry more (a challenge token, readiness checks). */
export interface ErrorBody {
  success: false;
  statusCode: number;
  /** A machine code (src/shared/messages.ts ERROR_CODES) or `HTTP_<status>`. */
  code: string;
  message: string;
  /** TOTP_REQUIRED and PASSWORD_CHANGE_REQUIRED: the token of the next sign-in step. */
  challengeToken?: string;
  [detail: string]: unknown;
}

export interface SuccessOnly {
  success: true;
}

export interface SuccessMessage {
  success: true;
  message: string;
}

/** POST /auth/login; the refresh token comes as an HttpOnly cookie. */
export interface LoginAnswer {
  success: true;
  accessToken: string;
  /** After a sign-in with a recovery code: how many are left. */
  recoveryCodesLeft?: number;
}

/** POST /refresh; the rotated refresh token comes as a cookie. */
export interface RefreshAnswer {
  success: true;
  newAccessToken: string;
}

/** GET /api/health, /api/health/live, /api/health/ready. */
export interface HealthAnswer {
  status: 'ok';
  version: string;
  checks?: Record<string, string>;
}

export interface FeedbackCreated {
  success: true;
  id: number;
}

export interface TrustedDevicesRevoked {
  success: true;
  revoked: number;
}

/** PUT /api/logo/upload/{token}: the stored logo, to be saved with POST /api/logo/save. */
export interface LogoUploaded {
  success: true;
  logoPath: string;
}

/** POST /api/logo/save. */
export interface LogoSaved {
  success: true;
  logoPath: string | null;
}

export interface NotificationPublished {
  success: true;
  notificationId: number;
}

/** POST /api/notifications/reports: a signed link to the stored report, for a notification's content. */
export interface ReportStored {
  success: true;
  fileName: string;
  downloadLink: string;
}

/** GET /api/support-accounts/domain: the fixed domain of E-Support accounts. */
export interface SupportDomain {
  domain: string;
}

/** GET /api/userLoginActivities/{userId}. */
export interface LastLogin {
  userId: number;
  loginDateTime: string | null;
}

/** WebAuthn options (as @simplewebauthn encodes them) for navigator.credentials.create or .get. */
export interface PasskeyOptions {
  challenge: string;
  [option: string]: unknown;
}

/** Shapes of the API that the server answers and the client reads. */

/** GET /api/users/current (spec 000 §7, docs/product-rules.md §3). */
export interface CurrentUserInfo {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  organisationId: number;
  organisationCode: string;
  masterAccountName: string;
  applications: string[];
  roles: Array<{ roleId: number; roleCode: string; roleName: string }>;
  isMFAEnforced: boolean;
  isMFAEnabled: boolean;
  isSSO: boolean;
  /** Passkeys: the account has at least one passkey (satisfies enforced MFA as TOTP does). */
  hasPasskey: boolean;
}

/** GET /auth/status */
export interface AuthStatus {
  authenticated: boolean;
  user?: CurrentUserInfo;
}

/** GET /api/app-info: what the client needs to know of the deployment before anyone signs in. */
export interface AppInfo {
  productName: string;
  version: string;
  appEnv: string;
  ssoEnabled: boolean;
  supportEmail: string;
}

/** Application entitlements of an organisation. */
export const APPLICATIONS = { TAX_MANAGER: 'TAX_MANAGER', CA_VIEWER: 'CA_VIEWER' } as const;

/** Spec 000 §3 'User list item', as GET /api/users answers it (with the latest login, docs/product-rules.md §3). */
export interface UserListItem {
  id: number;
  userEmail: string;
  isBlocked: boolean;
  isDisabled: boolean;
  /** Role ids: the main role, plus 3 (Administrator) when the admin flag is set. */
  userRoles: number[];
  firstName: string;
  lastName: string;
  /** ISO date-time of the latest sign-in, or null. */
  lastLoginDateTime: string | null;
  isMFAEnforced: boolean;
  isMFAEnabled: boolean;
  /** Passkeys: the account has a passkey (a second factor too; "Disable User MFA" removes it). */
  hasPasskey?: boolean;
  isSSO: boolean;
  /** The organisation's directory (SCIM) manages the account: its name, job title, department and access. */
  isDirectoryManaged?: boolean;
}

export type AccessLevel = 'all' | 'hasAccess' | 'noAccess';

/** Query of GET /api/users: filtering and paging happen in the database. */
export interface UserListQuery {
  /** 1-based. */
  page?: number;
  pageSize?: 25 | 50 | 100;
  /** Name or e-mail, case-insensitive, special characters taken literally. */
  searchText?: string;
  accessLevel?: AccessLevel;
  /** A role id of the catalogue. */
  role?: number;
  /** E-Support only: the organisation to list (default: their own). */
  organisationId?: number;
}

export interface UserListPage {
  items: UserListItem[];
  totalRecords: number;
  page: number;
  pageSize: number;
  organisationId: number;
  /** For the title 'Users of {company}'. */
  organisationName: string;
}

/** Spec 000 §3 'Single user' (GET /api/users/byId/{id}). */
export interface SingleUser {
  id: number;
  organisationId: number;
  isDisabled: boolean;
  isMFAEnforced: boolean;
  isMFAEnabled: boolean;
  /** Passkeys */
  hasPasskey?: boolean;
  isSSO: boolean;
  firstName: string;
  lastName: string;
  userEmail: string;
  userUserRoleMapping: Array<{ roleId: number }>;
  jobTitle: string;
  department: string;
  location: string;
  /** The organisation's directory (SCIM) manages the account: its name, job title, department and access. */
  isDirectoryManaged?: boolean;
}

/** Spec 001 §3 'Contact or billing profile' (api/primaryBillingInformation, api/billingInformation). id null: none saved yet. */
export interface ContactProfile {
  id: number | null;
  fullName: string;
  jobTitle: string;
  department: string;
  basedIn: string;
  email: string;
  mobile: string;
}

/** POST api/logo/get-upload-url */
export interface LogoUploadRequest {
  fileName: string;
  fileSize: number;
  mimeType: string;
}
export interface LogoUploadUrl {
  /** On this server, signed, single use, valid for minutes: PUT the raw bytes to it. */
  uploadUrl: string;
  logoPath: string;
}
/** GET api/logo/byMasterAccountId; logoPath null: no logo, the header shows the product's. */
export interface LogoInfo {
  logoPath: string | null;
}

/**
 * POST /auth/site-admin (spec 001 §3 'Site admin creation payload'). master{product}ApplicationIds:
 * masterTaxManagerApplicationIds ([] or [1]) and masterCorporateActionsApplicationIds ([2], always).
 */
export interface SiteAdminCreation {
  userEmail: string;
  organizationName: string;
  organizationCode: string;
  allowedUsersNumber: number;
  maxConcurrentUsers: number;
  maxPortfolios: number;
  masterTaxManagerApplicationIds: number[];
  masterCorporateActionsApplicationIds: number[];
  userRoleIds: number[];
  accountType: 'Organization' | 'Individual';
  ssoLogoutUrl?: string;
  isSSO: boolean;
}
export interface SiteAdminCreated {
  success: true;
  message: string;
  organisationId: number;
  userId: number;
}

/** POST /api/users/add-esupport */
export interface ESupportCreated {
  success: true;
  message: string;
  userId: number;
  email: string;
}

/** Spec 001 §3 'Session row'. Dates are ISO strings or null. */
export interface UserSessionRow {
  id: number;
  email: string;
  roles: string[];
  status: 'online' | 'offline';
  onlineSessions: number;
  lastLoginTime: string | null;
  lastRefreshTime: string | null;
  /** Whether the caller may force this user off (the account-action rule, docs/product-rules.md §2). */
  canForceLogoff: boolean;
  /** Present while an E-Support account acts as this user (docs/support-access.md): who, under which request, until when. */
  supportSession?: { supportAccessId: number; supportUserEmail: string; endsAt: string };
}
export interface UserSessionsResponse {
  userSessions: UserSessionRow[];
  maxConcurrentUsers: number;
}
export interface ForceLogoffResult {
  success: true;
  message: string;
  sessionsEnded: number;
}

/** Spec 001 §3 'Announcement summary' (field names spelled as the specification gives them). */
export interface AnnouncementSummary {
  isLastAnnouncementDismissed: boolean;
  lastAnnnouncementId: number | null;
  lastAnnnouncementTitle: string | null;
}

/** An announcement as GET /api/announcements lists it (newest first). */
export interface AnnouncementItem {
  id: number;
  title: string;
  content: string;
  /** null: published to every organisation. */
  organisationId: number | null;
  organisationName: string | null;
  createdAt: string;
  dismissed: boolean;
}

/** POST /api/announcements (E-Support). */
export interface CreateAnnouncementRequest {
  title: string;
  content: string;
  /** Omitted or null: every organisation. */
  organisationId?: number | null;
}

/** Spec 001 §3 'System information entry', as POST /api/system-information/all lists it. */
export interface SystemInformationEntry {
  id: number;
  eventType: string;
  status: string;
  version: string;
  message: string;
  startDateTime: string;
  modified: string;
}

/** POST /api/system-information/all (spec 001 §7). */
export interface SystemInformationQuery {
  eventType?: string;
  asc?: boolean;
}

/** POST /api/userFeedback/add (spec 001 §7). */
export interface FeedbackRequest {
  title: string;
  content: string;
  userId?: number;
}

/** Answer of the user-administration changes (updateRole, enforceMFA, updateSsoStatus, disableUser, disableUserMfa, updatePassword). */
export interface SuccessResult {
  success: true;
}

/**
 * POST /api/users/add (spec 000 §3 'New user payload'). userRoleIds: one main role of the four assignable
 * (4, 5, 6, 7), plus 3 (Administrator) only with 4 and only by a site admin. isSSO only when the organisation
 * has SSO and only by a site admin; an administrator must leave isMFAEnforced true (no MFA toggle).
 */
export interface NewUserPayload {
  userEmail: string;
  isMFAEnforced: boolean;
  userRoleIds: number[];
  isSSO: boolean;
}

/** Answer of POST /api/users/add (201). */
export interface NewUserResult {
  success: true;
  id: number;
}

/** PUT /api/users/updateUser: the caller's own profile; every field trimmed, at most 100 characters; answers SingleUser. */
export interface UpdateProfilePayload {
  firstName: string;
  lastName: string;
  jobTitle: string;
  department: string;
  location: string;
}

/** PATCH /api/users/updatePassword: the new password (8-50 characters) and the current one; other sessions end. */
export interface UpdatePasswordPayload {
  userPassword: string;
  currentPassword: string;
}

/** An organisation's user as GET /auth/organisation lists them (light). */
export interface OrganisationUser {
  id: number;
  userEmail: string;
  isDisabled: boolean;
  isBlocked: boolean;
}

/** GET /auth/organisation (docs/product-rules.md §3 'full organisation information'; E-Support may add ?organisationId=). */
export interface OrganisationInfo {
  id: number;
  code: string;
  name: string;
  accountType: string;
  applications: string[];
  isSSOEnabled: boolean;
  allowedUsersNumber: number;
  maxConcurrentUsers: number;
  /** Users that are neither disabled nor blocked: the number the allowedUsersNumber limit counts. */
  activeUsers: number;
  users: OrganisationUser[];
}

/** POST /mfa/enable (spec 000 §3 'MFA enable response', plus the QR code drawn by the server). */
export interface MfaEnableResponse {
  secret: { base32: string; otpauth_url: string };
  /** PNG data URL of the otpauth URL (error correction M, margin 16). */
  qrCode: string;
}

/** A user group of an organisation. */
export interface UserGroupItem {
  id: number;
  name: string;
  memberCount: number;
}

/**
 * GET /api/users/{userId}/user-groups: the user's groups and every group of their organisation.
 * Writers change it with PUT / DELETE /api/users/{userId}/user-groups/{groupId} (answer: this shape again)
 * and create groups with POST /api/user-groups {name} (answer: UserGroupItem).
 */
export interface UserGroupMapping {
  userId: number;
  userEmail: string;
  firstName: string;
  lastName: string;
  groups: UserGroupItem[];
  allGroups: UserGroupItem[];
}

/** GET /api/announcements/organisations (E-Support): whom an announcement may address. */
export interface AnnouncementAudience {
  id: number;
  code: string;
  name: string;
}

/** POST /auth/login (spec 000 §3 'Login payload'); mfaToken with the challenge token of the TOTP step as bearer. */
export interface LoginRequest {
  username: string;
  password: string;
  acceptToS: boolean;
  mfaToken?: string;
  /** A recovery code in place of mfaToken. */
  recoveryCode?: string;
  /** Trust this device for the configured days. */
  rememberDevice?: boolean;
}

/** POST /auth/change-password: the forced change, with the challenge token as bearer. */
export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}

/** POST /auth/forgot-password; mfaCode for an account with MFA. */
export interface ForgotPasswordRequest {
  username: string;
  mfaCode?: string;
}

/** POST /auth/reset-password: the token of the e-mailed link and the new password. */
export interface ResetPasswordRequest {
  token: string;
  password: string;
}

/** POST /auth/step-up (docs/product-rules.md §7): exactly one proof that the caller is still the account's holder. */
export interface StepUpRequest {
  password?: string;
  mfaToken?: string;
  recoveryCode?: string;
  /** A passkey assertion (navigator.credentials.get, as @simplewebauthn/browser encodes it). */
  passkey?: object;
}

export interface StepUpResult {
  success: true;
  /** ISO 8601: until when sensitive calls pass. */
  stepUpUntil: string;
}

/** POST /mfa/verify, /mfa/enable, /mfa/disable: a code of the authenticator. */
export interface MfaTokenRequest {
  token: string;
}

/** POST /api/user-sessions/force-logoff */
export interface ForceLogoffRequest {
  userIds: number[];
}

/** POST /api/users/add-esupport: the local part of the e-mail; the domain is fixed. */
export interface CreateESupportRequest {
  userName: string;
}

/** POST api/logo/save: the path the upload answered. */
export interface SaveLogoRequest {
  logoPath: string;
}

/** POST /api/user-groups */
export interface CreateUserGroupRequest {
  name: string;
}

/** The target of an action on another account. */
export interface UserIdRequest {
  userId: number;
}
/** PUT /api/users/updateRole */
export interface UpdateRoleRequest extends UserIdRequest {
  newUserRoleIds: number[];
}
/** PUT /api/users/enforceMFA */
export interface EnforceMfaRequest extends UserIdRequest {
  isMFAEnforced: boolean;
}
/** PUT /api/users/updateSsoStatus */
export interface UpdateSsoRequest extends UserIdRequest {
  isSSOEnabled: boolean;
}
/** PUT /api/users/disableUser */
export interface DisableUserRequest extends UserIdRequest {
  isDisabled: boolean;
}

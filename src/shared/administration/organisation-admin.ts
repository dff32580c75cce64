import { ACCOUNT_MESSAGES } from '../messages';
import { VALIDATION_MESSAGES } from '../validation';

/**
 * Texts, defaults and limits of the organisation administration (spec 001 §2.11-2.14, §4, §5, §8, §9),
 * shared by the server's DTOs and the client's forms so that both say exactly the same thing.
 */
export const ORG_ADMIN_MESSAGES = {
  // Create Site Admin (spec 001 §5, §8)
  COMPANY_NAME_REQUIRED: 'Company name cannot be empty',
  EMAIL_EMPTY: 'Email cannot be empty',
  MAX_PORTFOLIOS_NEGATIVE: 'Max portfolios must not be negative',
  CODE_REQUIRED: 'Code cannot be empty',
  CODE_TOO_LONG: VALIDATION_MESSAGES.CODE_TOO_LONG,
  ALLOWED_USERS_MIN: 'Allowed users must be at least 1',
  CONCURRENT_USERS_MIN: 'Concurrent users must be at least 1',
  INVALID_EMAIL: 'Please enter a valid email',
  EMAIL_TOO_LONG: VALIDATION_MESSAGES.ORG_EMAIL_TOO_LONG,
  SSO_LOGOUT_URL_INVALID: 'SSO logout URL must be a valid http(s) URL',
  SITE_ADMIN_ROLE_ONLY: 'Only the Site Admin role can be given to the first account of an organisation',
  CORPORATE_ACTIONS_APP_REQUIRED: 'The corporate actions viewer application is always given to a new organisation',
  ACCOUNT_TYPE_INVALID: "Account type must be 'Organization' or 'Individual'",
  DUPLICATE_CODE: 'An organisation with this code already exists.',
  DUPLICATE_EMAIL: ACCOUNT_MESSAGES.DUPLICATE_EMAIL,
  SITE_ADMIN_CREATED: 'The user has been created',
  // Create E-Support (spec 001 §5, §8)
  ESUPPORT_EMAIL_REQUIRED: 'Email is required.',
  ESUPPORT_FORBIDDEN_CHARS: 'Email cannot contain forbidden characters(@ and |).',
  ESUPPORT_CREATED_TITLE: 'User Created',
  ESUPPORT_CREATED: 'Esupport user created successfully.',
  ESUPPORT_FAILED: 'An error occurred while creating the esupport user.',
  // Billing (spec 001 §5, §8)
  FULL_NAME_REQUIRED: 'Full name is required',
  CONTACT_SAVED: 'Your changes have been saved.',
  CONTACT_NOT_FOUND: 'Contact not found.',
  CONTACT_EXISTS: 'This contact already exists; save it with its id.',
  // Logo (spec 001 §5, §8, §9)
  LOGO_UPLOADED: 'The logo has been successfully uploaded',
  LOGO_FAILED: 'Failed to upload logo',
  LOGO_NOT_IMAGE: 'The logo must be an image (PNG, JPEG, GIF or WebP).',
  LOGO_TOO_LARGE: 'The logo must not be larger than 10 MB.',
  LOGO_SIZE_MISMATCH: 'The uploaded file does not have the declared size.',
  LOGO_URL_INVALID: 'This upload link is not valid.',
  LOGO_URL_EXPIRED: 'This upload link has expired. Please try again.',
  LOGO_URL_USED: 'This upload link has already been used.',
  LOGO_NOT_UPLOADED: 'This logo has not been uploaded.',
  // Sessions (spec 001 §8)
  FORCE_LOGOFF_DONE: 'Successfully marked selected user(s) for force log off',
  /** Live sessions: an E-Support account acting as this member (docs/support-access.md). */
  SUPPORT_SESSION: (supportEmail: string, until: string) =>
    `Support access: ${supportEmail} acting as this member until ${until}`,
  FORCE_LOGOFF_FAILED: 'Failed to mark selected user(s) for force logoff',
  SESSIONS_EXCEEDED:
    'Your organisation has exceeded the maximum allowed concurrent users. Please disable or force logoff one or more users.',
  SESSIONS_REACHED:
    'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed.',
  NO_USERS: 'No users found',
  SELECT_USERS: 'Select at least one user.',
} as const;

/**
 * A new site admin's first sign-in: the temporary password, a forced change, then forced MFA enrolment
 * (site admins are created with MFA enforced). Said on the Create Site Admin page and in the e-mail.
 */
export const SITE_ADMIN_FIRST_SIGN_IN = {
  PAGE_NOTE:
    'The site admin receives a temporary password by e-mail. At the first sign-in they choose their own password, then enable MFA with an authenticator app: site admins are created with MFA enforced.',
  MAIL_STEPS: [
    'At your first sign-in:',
    '1. Sign in with the temporary password above.',
    '2. Choose your own password when asked, then sign in again with it.',
    '3. Enable MFA with an authenticator app (for example Google Authenticator or Microsoft Authenticator) on your profile page: MFA is enforced for site admins, so the product opens that page until it is on.',
  ],
} as const;

/** Application ids of the site-admin creation payload (master{product}ApplicationIds). */
export const APPLICATION_IDS = { TAX_MANAGER: 1, CA_VIEWER: 2 } as const;

export const ACCOUNT_TYPES = ['Organization', 'Individual'] as const;
export type AccountTypeName = (typeof ACCOUNT_TYPES)[number];

/** Spec 001 §9: defaults and minimums of Create Site Admin. */
export const SITE_ADMIN_DEFAULTS = {
  allowedUsersNumber: 1,
  maxConcurrentUsers: 1,
  maxPortfolios: 0,
  taxManagerApp: false,
  corporateActionsApp: true,
  accountType: 'Organization' as AccountTypeName,
  isSSO: false,
} as const;
export const SITE_ADMIN_MINIMUMS = { allowedUsersNumber: 1, maxConcurrentUsers: 1, maxPortfolios: 0 } as const;

/** Logo files the server accepts: decided from the bytes, never from the name. SVG is refused (it can carry script). */
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type LogoMimeType = (typeof LOGO_MIME_TYPES)[number];
/** How long an upload URL stays valid. */
export const LOGO_UPLOAD_URL_SECONDS = 5 * 60;

/**
 * The role catalogue (docs/product-rules.md §2). The one place where role ids, codes, display names and the
 * role groups of the specification live; the server and the client both import this file.
 */
export enum Role {
  E_SUPPORT = 1,
  SITE_ADMIN = 2,
  ADMINISTRATOR = 3,
  STANDARD_ADMIN = 4,
  PORTFOLIO_MANAGER = 5,
  ANALYST = 6,
  VIEWER = 7,
  CA_VIEWER = 8,
}

export const ROLE_NAMES: Record<Role, string> = {
  [Role.E_SUPPORT]: 'E-Support',
  [Role.SITE_ADMIN]: 'Site Admin',
  [Role.ADMINISTRATOR]: 'Administrator',
  [Role.STANDARD_ADMIN]: 'Standard Admin',
  [Role.PORTFOLIO_MANAGER]: 'Portfolio Manager',
  [Role.ANALYST]: 'Analyst',
  [Role.VIEWER]: 'Viewer',
  [Role.CA_VIEWER]: 'CA Viewer',
};

export const ROLE_CODES: Record<Role, string> = {
  [Role.E_SUPPORT]: 'E_SUPPORT',
  [Role.SITE_ADMIN]: 'SITE_ADMIN',
  [Role.ADMINISTRATOR]: 'ADMINISTRATOR',
  [Role.STANDARD_ADMIN]: 'STANDARD_ADMIN',
  [Role.PORTFOLIO_MANAGER]: 'PORTFOLIO_MANAGER',
  [Role.ANALYST]: 'ANALYST',
  [Role.VIEWER]: 'VIEWER',
  [Role.CA_VIEWER]: 'CA_VIEWER',
};

export const ALL_ROLES: Role[] = [1, 2, 3, 4, 5, 6, 7, 8];

/** The base role: default for new users, the only one that may carry the administrator flag. */
export const BASE_ROLE = Role.STANDARD_ADMIN;

/** The specification's 'six roles' (menus Activities and Reports, portfolio routes). */
export const SIX_ROLES: Role[] = [
  Role.SITE_ADMIN,
  Role.ADMINISTRATOR,
  Role.STANDARD_ADMIN,
  Role.PORTFOLIO_MANAGER,
  Role.ANALYST,
  Role.VIEWER,
];

/** The 'five roles' (External data, User Security): the six less Viewer. */
export const FIVE_ROLES: Role[] = SIX_ROLES.filter((r) => r !== Role.VIEWER);

/** The four roles site admins and administrators may assign. */
export const ASSIGNABLE_BY_ADMINS: Role[] = [Role.STANDARD_ADMIN, Role.PORTFOLIO_MANAGER, Role.ANALYST, Role.VIEWER];

/** The only role support may assign. */
export const ASSIGNABLE_BY_SUPPORT: Role[] = [Role.SITE_ADMIN];

/** The 'four administrator-type roles' that see User Groups. */
export const ADMIN_TYPE_ROLES: Role[] = [
  Role.SITE_ADMIN,
  Role.ADMINISTRATOR,
  Role.STANDARD_ADMIN,
  Role.PORTFOLIO_MANAGER,
];

/** The 'three administrator-type roles' that see Users in the cog menu (beside E-Support). */
export const USER_MENU_ROLES: Role[] = [Role.E_SUPPORT, Role.SITE_ADMIN, Role.ADMINISTRATOR, Role.STANDARD_ADMIN];

/** Roles with write access on the user list. */
export const USER_WRITERS: Role[] = [Role.SITE_ADMIN, Role.ADMINISTRATOR];

/** The trio that manages its organisation: billing contacts, the logo, a user's group mapping. */
const ORGANISATION_MANAGERS: readonly Role[] = [Role.SITE_ADMIN, Role.ADMINISTRATOR, Role.STANDARD_ADMIN];

/** Those who act on other accounts (docs/product-rules.md §2): support, site admins, administrators. */
const ACCOUNT_ACTORS: readonly Role[] = [Role.E_SUPPORT, Role.SITE_ADMIN, Role.ADMINISTRATOR];

/**
 * Who may use each capability: one name per capability, read by the server's @Access({ roles }) and the client's
 * route guard, menus and buttons alike. Several capabilities share a group; change a group here, not at a route.
 */
export const CAPABILITY_ROLES = {
  /** Every signed-in user: own profile, MFA, notifications, announcements, feedback, system information, the logo. */
  SIGNED_IN: ALL_ROLES,
  /** The Users page: the list, its export, the organisation summary. */
  USER_LIST: USER_MENU_ROLES,
  /** Another user's roles page and their sessions. */
  USER_DETAILS: ACCOUNT_ACTORS,
  /** Create a user, change another's role or access, force log-off, the sessions page, edit user groups, reset MFA. */
  USER_ADMIN: USER_WRITERS,
  /** Enforce MFA or enable SSO on another account. */
  MFA_SSO_ENFORCEMENT: [Role.SITE_ADMIN],
  /** Manage Billing: the primary and billing contacts. */
  BILLING: ORGANISATION_MANAGERS,
  /** Upload the organisation's logo. */
  LOGO_UPLOAD: ORGANISATION_MANAGERS,
  /** Read a user's user groups. */
  USER_GROUP_MAPPING: ORGANISATION_MANAGERS,
  /** The audit log and its export. */
  AUDIT_LOG: ACCOUNT_ACTORS,
  /** Read the organisation's single sign-on settings: identity provider connections and verified domains. */
  SSO_SETTINGS_READ: ACCOUNT_ACTORS,
  /** Change them (E-Support for any organisation, site admins for their own). */
  SSO_SETTINGS_MANAGE: [Role.E_SUPPORT, Role.SITE_ADMIN],
  /** Directory Provisioning: the organisation's provisioning tokens, read (administrators may list them). */
  PROVISIONING_READ: ACCOUNT_ACTORS,
  /** Create and revoke provisioning tokens: the site admin, or E-Support for any organisation (docs/product-rules.md §6). */
  PROVISIONING_MANAGE: [Role.E_SUPPORT, Role.SITE_ADMIN],
  /** The Integrations page: API keys, webhooks, audit log streams (the site admin, or E-Support for any organisation). */
  INTEGRATIONS: [Role.E_SUPPORT, Role.SITE_ADMIN],
  /** An organisation's insights: its site admins and administrators, E-Support for any organisation. */
  INSIGHTS: ACCOUNT_ACTORS,
  /**
   * Invitations: list, invite, resend, withdraw (the account-action rule decides which roles and whose: E-Support
   * invites site admins of any organisation, site admins and administrators their own organisation's people).
   */
  INVITATIONS: ACCOUNT_ACTORS,
  /** Read the organisation's security policy. */
  SECURITY_POLICY_READ: ACCOUNT_ACTORS,
  /** Change it (E-Support for any organisation, site admins for their own). */
  SECURITY_POLICY_MANAGE: [Role.E_SUPPORT, Role.SITE_ADMIN],
  /** Erase a member whose access is off (E-Support for any organisation, site admins for their own). */
  ERASE_USER: [Role.E_SUPPORT, Role.SITE_ADMIN],
  /** Vendor staff only: organisations, E-Support accounts, announcements, every organisation's insights at a glance. */
  SUPPORT: [Role.E_SUPPORT],
  /** Support access (docs/support-access.md), listed: E-Support, and the organisation's site admins and administrators. */
  SUPPORT_ACCESS_READ: ACCOUNT_ACTORS,
  /** Approve or refuse a request: the organisation's site admins. */
  SUPPORT_ACCESS_DECIDE: [Role.SITE_ADMIN],
  /** End a support access: the E-Support account that asked, or the organisation's site admins. */
  SUPPORT_ACCESS_END: [Role.E_SUPPORT, Role.SITE_ADMIN],
} as const satisfies Record<string, readonly Role[]>;

/** The effective role ids of a user: the main role, plus the administrator flag when set. */
/** Roles whose grant is a sensitive action (docs/product-rules.md §7): the caller must have confirmed it is them recently. */
export const PRIVILEGED_ROLES: readonly Role[] = [Role.SITE_ADMIN, Role.ADMINISTRATOR];

/** Whether a requested list of role ids (as sent, not yet validated) includes a privileged role. */
export function includesPrivilegedRole(roleIds: unknown): boolean {
  return Array.isArray(roleIds) && roleIds.some((id) => PRIVILEGED_ROLES.includes(id as Role));
}

export function effectiveRoles(mainRole: Role, isAdministrator: boolean): Role[] {
  return isAdministrator && mainRole !== Role.ADMINISTRATOR ? [mainRole, Role.ADMINISTRATOR] : [mainRole];
}

export function hasAnyRole(userRoles: readonly Role[], allowed: readonly Role[]): boolean {
  return userRoles.some((r) => allowed.includes(r));
}

export function roleNames(roles: readonly Role[]): string {
  return roles.map((r) => ROLE_NAMES[r]).join(', ');
}

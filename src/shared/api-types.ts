/** Shapes of the API that the server answers and the client reads. */

/** GET /api/users/current (spec 000 §7, CONTRACT 3). */
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

/** Spec 000 §3 'User list item', as GET /api/users answers it (with the latest login, CONTRACT 3). */
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
  isSSO: boolean;
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
  isSSO: boolean;
  firstName: string;
  lastName: string;
  userEmail: string;
  userUserRoleMapping: Array<{ roleId: number }>;
  jobTitle: string;
  department: string;
  location: string;
}

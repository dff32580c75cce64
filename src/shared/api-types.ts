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

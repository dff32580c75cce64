/** Every route of the client in one place (spec 001 §2.1). */
export const paths = {
  home: '/',
  login: '/logIn',
  resetPassword: '/resetPassword',
  terms: '/terms/terms',
  privacy: '/terms/privacy',
  about: '/about',
  announcements: '/announcements',
  userManual: '/user-manual',
  users: '/users',
  userRoles: (id: number | string) => `/users/roles/${id}`,
  userProfile: (id: number | string) => `/users/profile/${id}`,
  userGroupsOfUser: (id: number | string) => `/users/${id}/user-groups`,
  newUser: '/users/new',
  billing: '/users/billing',
  userSessions: '/users/user-sessions',
  createSiteAdmin: '/users/createSiteAdmin',
  createESupport: '/users/createESupport',
  auditLog: '/users/audit',
  userGroups: '/user-groups',
  clients: '/clients',
  portfolios: '/portfolios',
  activities: '/activities',
  externalData: '/external-data',
  userSecurity: '/user-security-management',
  reports: '/reports',
} as const;

/** Paths a logged-out visitor may open (spec 000 §6, 001 §2.1). */
export const PUBLIC_PATHS = ['/logIn', '/resetPassword', '/terms/terms', '/terms/privacy'];

export function isPublicPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return PUBLIC_PATHS.some((pub) => p.toLowerCase() === pub.toLowerCase());
}

import { APPLICATIONS } from '@shared/api-types';
import {
  ADMIN_TYPE_ROLES,
  CAPABILITY_ROLES,
  FIVE_ROLES,
  hasAnyRole,
  Role,
  SIX_ROLES,
  USER_MENU_ROLES,
} from '@shared/roles';
import { DEVELOP_ENV } from '@shared/portal/shell';
import { ORGANISATION_SETTINGS_ROLES } from './organisation-settings';
import { paths } from './paths';

/** Who sees which entry of the header's menus (spec 001 §2.2, §2.4, §6). Pure, so every rule is unit-tested. */
export interface MenuEntry {
  label: string;
  to: string;
}

/**
 * The tax manager view: the user's organisation has the Tax Manager application and the user holds one
 * of the six tax-manager roles. E-Support, CA Viewers and organisations without the application get
 * the plain view.
 */
export function isTaxManagerView(roles: readonly Role[], applications: readonly string[]): boolean {
  return (
    !isCaViewer(roles, applications) && applications.includes(APPLICATIONS.TAX_MANAGER) && hasAnyRole(roles, SIX_ROLES)
  );
}

/** Main menu: Home (/portfolios), Activities, External data, User Security, Reports by role; otherwise only Home (/). */
export function mainMenuEntries(roles: readonly Role[], applications: readonly string[]): MenuEntry[] {
  if (!isTaxManagerView(roles, applications)) return [{ label: 'Home', to: paths.home }];
  const entries: Array<MenuEntry & { roles: readonly Role[] }> = [
    { label: 'Home', to: paths.portfolios, roles: SIX_ROLES },
    { label: 'Activities', to: paths.activities, roles: SIX_ROLES },
    { label: 'External data', to: paths.externalData, roles: FIVE_ROLES },
    { label: 'User Security', to: paths.userSecurity, roles: FIVE_ROLES },
    { label: 'Reports', to: paths.reports, roles: SIX_ROLES },
  ];
  return entries.filter((e) => hasAnyRole(roles, e.roles)).map(({ label, to }) => ({ label, to }));
}

/**
 * Cog menu: Users (E-Support and three administrator-type roles), User Groups (four administrator-type roles), Clients
 * (those plus the Tax Manager application) as spec 001 §2.4 lists them; then the administration pages, and the
 * organisation settings area that gathers them.
 */
export function cogMenuEntries(roles: readonly Role[], applications: readonly string[]): MenuEntry[] {
  const entries: MenuEntry[] = [];
  if (hasAnyRole(roles, USER_MENU_ROLES)) entries.push({ label: 'Users', to: paths.users });
  if (hasAnyRole(roles, ADMIN_TYPE_ROLES)) entries.push({ label: 'User Groups', to: paths.userGroups });
  if (hasAnyRole(roles, ADMIN_TYPE_ROLES) && applications.includes(APPLICATIONS.TAX_MANAGER))
    entries.push({ label: 'Clients', to: paths.clients });
  if (hasAnyRole(roles, CAPABILITY_ROLES.AUDIT_LOG)) entries.push({ label: 'Audit Log', to: paths.auditLog });
  if (hasAnyRole(roles, CAPABILITY_ROLES.SSO_SETTINGS_READ))
    entries.push({ label: 'Single Sign-On', to: paths.singleSignOn });
  if (hasAnyRole(roles, CAPABILITY_ROLES.PROVISIONING_READ))
    entries.push({ label: 'Directory Provisioning', to: paths.provisioning });
  if (hasAnyRole(roles, CAPABILITY_ROLES.INTEGRATIONS)) entries.push({ label: 'Integrations', to: paths.integrations });
  if (hasAnyRole(roles, CAPABILITY_ROLES.SECURITY_POLICY_MANAGE))
    entries.push({ label: 'Security Policy', to: paths.securityPolicy });
  if (hasAnyRole(roles, ORGANISATION_SETTINGS_ROLES))
    entries.push({ label: 'Organisation Settings', to: paths.organisationSettings });
  return entries;
}

/** The two develop-only cog options (spec 001 §2.4). */
export function showsDevelopOptions(appEnv: string | undefined): boolean {
  return appEnv === DEVELOP_ENV;
}

/** The cog is hidden when it would be empty. */
export function showsCog(roles: readonly Role[], applications: readonly string[], appEnv: string | undefined): boolean {
  return cogMenuEntries(roles, applications).length > 0 || showsDevelopOptions(appEnv);
}

/**
 * A CA Viewer (spec 001 §1, docs/product-rules.md §2): a user of the corporate actions viewer without the tax manager
 * application (the defaults of a new organisation, spec 001 §9), or anyone holding the limited role 8.
 * They see the limited-functionality notice, the 110 px header and only Home in the main menu.
 */
export function isCaViewer(roles: readonly Role[], applications: readonly string[]): boolean {
  if (roles.includes(Role.CA_VIEWER)) return true;
  return applications.includes(APPLICATIONS.CA_VIEWER) && !applications.includes(APPLICATIONS.TAX_MANAGER);
}

/** The limited-functionality notice shows to every CA Viewer. */
export function showsCaViewerNotice(roles: readonly Role[], applications: readonly string[]): boolean {
  return isCaViewer(roles, applications);
}

export const CA_VIEWER_NOTICE =
  'Your access is limited to the Corporate Actions Viewer, so some functionality is not available. To enrol as a Tax Manager, please contact support.';

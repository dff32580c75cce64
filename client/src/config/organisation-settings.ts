import { CAPABILITY_ROLES, hasAnyRole, Role } from '@shared/roles';

/**
 * The tabs of the organisation settings area, in order: one data array, so that a new administration page is one
 * entry here and one route (app/routes.tsx). `path` is the tab's segment under /organisation-settings; `roles` who
 * sees it (the same role group as its route and its server calls).
 */
export interface OrganisationSettingsTab {
  path: string;
  label: string;
  roles: readonly Role[];
}

export const ORGANISATION_SETTINGS_TABS: readonly OrganisationSettingsTab[] = [
  { path: 'members', label: 'Members', roles: CAPABILITY_ROLES.USER_LIST },
  { path: 'invitations', label: 'Invitations', roles: CAPABILITY_ROLES.INVITATIONS },
  { path: 'sso', label: 'Single sign-on and domains', roles: CAPABILITY_ROLES.SSO_SETTINGS_READ },
  { path: 'provisioning', label: 'Directory provisioning', roles: CAPABILITY_ROLES.PROVISIONING_READ },
  { path: 'audit', label: 'Audit log', roles: CAPABILITY_ROLES.AUDIT_LOG },
  { path: 'security-policy', label: 'Security policy', roles: CAPABILITY_ROLES.SECURITY_POLICY_READ },
  { path: 'integrations', label: 'Integrations', roles: CAPABILITY_ROLES.INTEGRATIONS },
  { path: 'applications', label: 'Applications', roles: CAPABILITY_ROLES.INTEGRATIONS },
  { path: 'support-access', label: 'Support access', roles: CAPABILITY_ROLES.SUPPORT_ACCESS_READ },
];

/** Who reaches the area at all: anyone who sees one of its tabs but the members list alone. */
export const ORGANISATION_SETTINGS_ROLES: readonly Role[] = CAPABILITY_ROLES.INVITATIONS;

/** The tabs a user sees. */
export function organisationSettingsTabs(roles: readonly Role[]): OrganisationSettingsTab[] {
  return ORGANISATION_SETTINGS_TABS.filter((t) => hasAnyRole(roles, t.roles));
}

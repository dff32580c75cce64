import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { ORGANISATION_SETTINGS_ROLES, ORGANISATION_SETTINGS_TABS } from '@/config/organisation-settings';
import { NotFoundPage } from '@/features/portal/misc/components/NotFoundPage';
import { CAPABILITY_ROLES } from '@shared/roles';
import { RequireRoles } from './require-roles';
import { legalRoutes, shellRoutes } from './shell-routes';

/**
 * The route table of spec 001 §2.1. Every screen but the login page is loaded lazily, so the login
 * page downloads only what it needs.
 */
export const publicRoutes: RouteObject[] = [
  {
    path: '/resetPassword',
    lazy: () =>
      import('@/features/identity/auth/components/ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })),
  },
  {
    path: '/notMe',
    lazy: () => import('@/features/portal/my-security/components/NotMePage').then((m) => ({ Component: m.NotMePage })),
  },
  {
    path: '/invite',
    lazy: () =>
      import('@/features/administration/invitations/components/InvitationAcceptPage').then((m) => ({
        Component: m.InvitationAcceptPage,
      })),
  },
  ...legalRoutes,
];

/** A tab of the organisation settings area, guarded by its own role group (config/organisation-settings.ts). */
function settingsTab(path: string, load: () => Promise<ComponentType>): RouteObject {
  const roles = ORGANISATION_SETTINGS_TABS.find((t) => t.path === path)!.roles;
  return {
    path,
    lazy: () =>
      load().then((Page) => ({
        element: (
          <RequireRoles roles={roles}>
            <Page />
          </RequireRoles>
        ),
      })),
  };
}

export const protectedRoutes: RouteObject[] = [
  {
    index: true,
    lazy: () =>
      import('@/features/portal/dashboard/components/DashboardPage').then((m) => ({ Component: m.DashboardPage })),
  },
  {
    path: 'my-security',
    lazy: () =>
      import('@/features/portal/my-security/components/MySecurityPage').then((m) => ({ Component: m.MySecurityPage })),
  },
  // routes:organisation-settings (one place for an organisation's administration)
  {
    path: 'organisation-settings',
    lazy: () =>
      import('@/features/administration/organisation-settings/components/OrganisationSettingsLayout').then((m) => ({
        element: (
          <RequireRoles roles={ORGANISATION_SETTINGS_ROLES}>
            <m.OrganisationSettingsLayout />
          </RequireRoles>
        ),
      })),
    children: [
      {
        index: true,
        lazy: () =>
          import('@/features/administration/organisation-settings/components/OrganisationSettingsLayout').then((m) => ({
            Component: m.FirstOrganisationSettingsTab,
          })),
      },
      settingsTab('members', () => import('@/features/identity/users/components/UsersPage').then((m) => m.UsersPage)),
      settingsTab('invitations', () =>
        import('@/features/administration/invitations/components/InvitationsPage').then((m) => m.InvitationsPage),
      ),
      settingsTab('sso', () => import('@/features/identity/federation').then((m) => m.SsoPage)),
      settingsTab('provisioning', () =>
        import('@/features/identity/scim/components/ProvisioningPage').then((m) => m.ProvisioningPage),
      ),
      settingsTab('audit', () =>
        import('@/features/administration/audit/components/AuditLogPage').then((m) => m.AuditLogPage),
      ),
      settingsTab('security-policy', () =>
        import('@/features/administration/security-policy').then((m) => m.SecurityPolicyPage),
      ),
      settingsTab('integrations', () =>
        import('@/features/administration/integrations').then((m) => m.IntegrationsPage),
      ),
      settingsTab('applications', () => import('@/features/identity/oidc-clients').then((m) => m.ApplicationsPage)),
      settingsTab('support-access', () => import('@/features/portal/support-access').then((m) => m.SupportAccessPage)),
    ],
  },
  // routes:users (user list, roles, profile, new user, user groups of a user)
  {
    path: 'users',
    children: [
      {
        index: true,
        lazy: () =>
          import('@/features/identity/users/components/UsersPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.USER_LIST}>
                <m.UsersPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'roles/:id',
        lazy: () =>
          import('@/features/identity/users/components/UserRolesPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.USER_DETAILS}>
                <m.UserRolesPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'profile/:id',
        lazy: () =>
          import('@/features/portal/profile/components/ProfilePage').then((m) => ({ Component: m.ProfilePage })),
      },
      {
        path: 'insights',
        lazy: () =>
          import('@/features/administration/insights/components/InsightsPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.INSIGHTS}>
                <m.InsightsPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'insights/organisations',
        lazy: () =>
          import('@/features/administration/insights/components/OrganisationsGlancePage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.SUPPORT}>
                <m.OrganisationsGlancePage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'audit',
        lazy: () =>
          import('@/features/administration/audit/components/AuditLogPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.AUDIT_LOG}>
                <m.AuditLogPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'sso',
        lazy: () =>
          import('@/features/identity/federation').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.SSO_SETTINGS_READ}>
                <m.SsoPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'security-policy',
        lazy: () =>
          import('@/features/administration/security-policy').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.SECURITY_POLICY_READ}>
                <m.SecurityPolicyPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'support-access',
        lazy: () =>
          import('@/features/portal/support-access').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.SUPPORT_ACCESS_READ}>
                <m.SupportAccessPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'provisioning',
        lazy: () =>
          import('@/features/identity/scim/components/ProvisioningPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.PROVISIONING_READ}>
                <m.ProvisioningPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'integrations',
        lazy: () =>
          import('@/features/administration/integrations').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.INTEGRATIONS}>
                <m.IntegrationsPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: 'new',
        lazy: () =>
          import('@/features/identity/users/components/CreateUserPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.USER_ADMIN}>
                <m.CreateUserPage />
              </RequireRoles>
            ),
          })),
      },
      {
        path: ':userId/user-groups',
        lazy: () =>
          import('@/features/identity/user-groups/components/UserGroupsOfUserPage').then((m) => ({
            element: (
              <RequireRoles roles={CAPABILITY_ROLES.USER_GROUP_MAPPING}>
                <m.UserGroupsOfUserPage />
              </RequireRoles>
            ),
          })),
      },
    ],
  },
  // end routes:users
  // routes:organisation (billing, user sessions, create site admin, create e-support)
  {
    path: 'users/billing',
    lazy: () =>
      import('@/features/administration/billing/components/BillingPage').then((m) => ({
        element: (
          <RequireRoles roles={CAPABILITY_ROLES.BILLING}>
            <m.BillingPage />
          </RequireRoles>
        ),
      })),
  },
  {
    path: 'users/user-sessions',
    lazy: () =>
      import('@/features/identity/sessions/components/UserSessionsPage').then((m) => ({
        element: (
          <RequireRoles roles={CAPABILITY_ROLES.USER_ADMIN}>
            <m.UserSessionsPage />
          </RequireRoles>
        ),
      })),
  },
  {
    path: 'users/createSiteAdmin',
    lazy: () =>
      import('@/features/administration/organisations/components/CreateSiteAdminPage').then((m) => ({
        element: (
          <RequireRoles roles={CAPABILITY_ROLES.SUPPORT}>
            <m.CreateSiteAdminPage />
          </RequireRoles>
        ),
      })),
  },
  {
    path: 'users/createESupport',
    lazy: () =>
      import('@/features/administration/organisations/components/CreateESupportPage').then((m) => ({
        element: (
          <RequireRoles roles={CAPABILITY_ROLES.SUPPORT}>
            <m.CreateESupportPage />
          </RequireRoles>
        ),
      })),
  },
  // end routes:organisation
  // routes:shell (about, announcements, user manual, user groups, clients, portfolios, activities, ...)
  ...shellRoutes,
  // end routes:shell
  { path: '*', element: <NotFoundPage /> },
];

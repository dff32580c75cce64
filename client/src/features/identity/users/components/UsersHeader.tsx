import { Button, HStack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { CAPABILITY_ROLES, type Role } from '@shared/roles';
import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useHasRole } from '@/lib/authorization';

/** Who sees which header button (spec 001 §6 'Users page actions'). */
export const HEADER_BUTTON_ROLES = {
  userSessions: CAPABILITY_ROLES.USER_ADMIN,
  createUser: CAPABILITY_ROLES.USER_ADMIN,
  manageBilling: CAPABILITY_ROLES.BILLING,
  createSiteAdmin: CAPABILITY_ROLES.SUPPORT,
  createESupport: CAPABILITY_ROLES.SUPPORT,
  auditLog: CAPABILITY_ROLES.AUDIT_LOG,
  singleSignOn: CAPABILITY_ROLES.SSO_SETTINGS_READ,
  provisioning: CAPABILITY_ROLES.PROVISIONING_READ,
  integrations: CAPABILITY_ROLES.INTEGRATIONS,
} as const;

function HeaderButton({ to, label, roles }: { to: string; label: string; roles: readonly Role[] }) {
  if (!useHasRole(roles)) return null;
  return (
    <Button asChild size="sm" variant="outline" colorPalette="blue">
      <RouterLink to={to}>{label}</RouterLink>
    </Button>
  );
}

/**
 * Spec 001 §2.6: the title 'Users of {company}' and the buttons each role may use. E-Support looking at another
 * organisation (`organisationId`) opens that organisation's Directory Provisioning and Integrations.
 */
export function UsersHeader({ company, organisationId }: { company: string | undefined; organisationId?: number }) {
  return (
    <PageHeader title={`Users of ${company ?? ''}`}>
      <HStack gap="2" wrap="wrap">
        <HeaderButton to={paths.userSessions} label="User Sessions" roles={HEADER_BUTTON_ROLES.userSessions} />
        <HeaderButton to={paths.newUser} label="Create User" roles={HEADER_BUTTON_ROLES.createUser} />
        <HeaderButton to={paths.billing} label="Manage Billing" roles={HEADER_BUTTON_ROLES.manageBilling} />
        <HeaderButton
          to={paths.createSiteAdmin}
          label="Create Site Admin"
          roles={HEADER_BUTTON_ROLES.createSiteAdmin}
        />
        <HeaderButton
          to={paths.createESupport}
          label="Create E-Support Account"
          roles={HEADER_BUTTON_ROLES.createESupport}
        />
        <HeaderButton to={paths.auditLog} label="Audit Log" roles={HEADER_BUTTON_ROLES.auditLog} />
        <HeaderButton to={paths.singleSignOn} label="Single Sign-On" roles={HEADER_BUTTON_ROLES.singleSignOn} />
        <HeaderButton
          to={organisationId ? `${paths.provisioning}?organisationId=${organisationId}` : paths.provisioning}
          label="Directory Provisioning"
          roles={HEADER_BUTTON_ROLES.provisioning}
        />
        <HeaderButton
          to={organisationId ? `${paths.integrations}?organisationId=${organisationId}` : paths.integrations}
          label="Integrations"
          roles={HEADER_BUTTON_ROLES.integrations}
        />
      </HStack>
    </PageHeader>
  );
}

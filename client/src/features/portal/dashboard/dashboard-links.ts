import { CAPABILITY_ROLES, hasAnyRole, Role } from '@shared/roles';
import { paths } from '@/config/paths';
import { cogMenuEntries, isTaxManagerView, mainMenuEntries } from '@/config/menu-model';

export interface DashboardLink {
  label: string;
  to: string;
  description: string;
}

/** The administration pages of the cog menu, as home-page cards: each opens its tab of the organisation settings. */
const ADMINISTRATION_CARDS: Record<string, { tab: string; description: string }> = {
  'Audit Log': { tab: 'audit', description: 'Who did what, and when: sign-ins and changes to accounts and settings.' },
  'Single Sign-On': {
    tab: 'sso',
    description: 'Your identity provider and the e-mail domains your organisation has verified.',
  },
  'Directory Provisioning': {
    tab: 'provisioning',
    description: 'Tokens with which your directory creates and updates accounts (SCIM).',
  },
  'Security Policy': {
    tab: 'security-policy',
    description: 'Require MFA or single sign-on, limit network addresses, session lifetimes and password length.',
  },
  Integrations: {
    tab: 'integrations',
    description: 'API keys, signed webhooks and audit log streams for your own systems.',
  },
};

const ORGANISATION_SETTINGS_DESCRIPTION =
  'Members, invitations, single sign-on, directory provisioning, the audit log, the security policy and integrations, in one place.';

/** What a signed-in user can do next, by role (spec 000 §6, 001 §2.1, §6). */
export function dashboardLinks(
  roles: readonly Role[],
  applications: readonly string[],
  userId: number,
): DashboardLink[] {
  const links: DashboardLink[] = [];
  if (isTaxManagerView(roles, applications)) {
    for (const e of mainMenuEntries(roles, applications)) {
      links.push({
        label: e.label === 'Home' ? 'Portfolios' : e.label,
        to: e.to,
        description: 'Part of the Tax Manager application.',
      });
    }
  }
  if (hasAnyRole(roles, CAPABILITY_ROLES.USER_LIST))
    links.push({ label: 'Users', to: paths.users, description: 'See who has access and manage their roles.' });
  if (hasAnyRole(roles, CAPABILITY_ROLES.USER_ADMIN)) {
    links.push({
      label: 'Create User',
      to: paths.newUser,
      description: 'Invite a colleague; they receive a temporary password by e-mail.',
    });
    links.push({
      label: 'User Sessions',
      to: paths.userSessions,
      description: 'See who is online and force a log-off.',
    });
  }
  if (hasAnyRole(roles, CAPABILITY_ROLES.BILLING))
    links.push({
      label: 'Manage Billing',
      to: paths.billing,
      description: 'Primary and billing contacts and your logo.',
    });
  if (roles.includes(Role.E_SUPPORT)) {
    links.push({
      label: 'Create Site Admin',
      to: paths.createSiteAdmin,
      description: 'Set up a new organisation and its first administrator.',
    });
    links.push({
      label: 'Create E-Support Account',
      to: paths.createESupport,
      description: 'Add a colleague to the support team.',
    });
  }
  for (const e of cogMenuEntries(roles, applications)) {
    const admin = ADMINISTRATION_CARDS[e.label];
    if (admin)
      links.push({ label: e.label, to: paths.organisationSettingsTab(admin.tab), description: admin.description });
    else if (e.label === 'Organisation Settings')
      links.push({ label: e.label, to: e.to, description: ORGANISATION_SETTINGS_DESCRIPTION });
    else if (e.label !== 'Users')
      links.push({ label: e.label, to: e.to, description: 'Part of the Tax Manager application.' });
  }
  if (hasAnyRole(roles, CAPABILITY_ROLES.INSIGHTS))
    links.push({
      label: 'Insights',
      to: paths.insights,
      description: 'Sign-ins, failures, MFA adoption, seats and concurrent users, drawn.',
    });
  if (hasAnyRole(roles, CAPABILITY_ROLES.SUPPORT))
    links.push({
      label: 'Organisations at a Glance',
      to: paths.organisationsAtAGlance,
      description: 'Every organisation’s seats, MFA adoption, SSO and sign-in trend.',
    });
  links.push({
    label: 'My Profile',
    to: paths.userProfile(userId),
    description: 'Your name, details and multi-factor authentication.',
  });
  links.push({
    label: 'My Security',
    to: paths.mySecurity,
    description: 'Where you are signed in, your recent sign-ins, signing out elsewhere.',
  });
  links.push({ label: 'User Manual', to: paths.userManual, description: 'How each screen of the portal works.' });
  links.push({ label: 'Announcements', to: paths.announcements, description: 'News from the support team.' });
  return links;
}

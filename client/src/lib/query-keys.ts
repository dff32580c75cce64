import type { AuditEventQuery } from '@shared/audit';
import type { SystemEventType } from '@shared/portal/shell';
import type { UserListQuery } from '@shared/api-types';

/**
 * Every query key of the client, in one place: a call cached under two keys is fetched twice, and an
 * invalidation that names a prefix must know what lies under it (`users` holds the list, one user, the last
 * login and the user groups of a user).
 */
export const queryKeys = {
  appInfo: ['app-info'] as const,
  currentUser: ['currentUser'] as const,
  /** auth/organisation: the organisation and its accounts (new user, audit filters). */
  organisation: ['organisation', 'full'] as const,
  announcements: {
    all: ['announcements'] as const,
    summary: ['announcements', 'summary'] as const,
    audiences: ['announcements', 'organisations'] as const,
  },
  auditEvents: (query: AuditEventQuery) => ['audit-events', query] as const,
  billingContact: (kind: string) => ['contact', kind] as const,
  /** An organisation's insights for a period (null: the caller's own), and every organisation at a glance. */
  insights: {
    report: (from: string, to: string, organisationId: number | null) =>
      ['insights', 'report', from, to, organisationId] as const,
    glance: ['insights', 'organisations'] as const,
  },
  /** Invitations: an organisation's list (E-Support names the organisation), and a link's preview. */
  invitations: {
    all: ['invitations'] as const,
    list: (organisationId: number | undefined, status: string) =>
      ['invitations', 'list', organisationId ?? 'own', status] as const,
    preview: (token: string) => ['invitation-preview', token] as const,
  },
  logo: ['logo'] as const,
  /** The caller's own security page. */
  mySecurity: {
    sessions: ['me', 'sessions'] as const,
    signIns: ['me', 'sign-ins'] as const,
    privacy: ['me', 'privacy'] as const,
    apps: ['me', 'apps'] as const,
  },
  mfa: {
    recoveryCodes: ['mfa', 'recovery-codes'] as const,
    trustedDevices: ['mfa', 'trusted-devices'] as const,
  },
  notifications: ['notifications'] as const,
  /** The applications of the portal's OpenID provider: the caller's own (E-Support: the deployment's) or a named one's. */
  oidcClients: {
    all: ['oidc-clients'] as const,
    list: (organisationId?: number) => ['oidc-clients', organisationId ?? 'own'] as const,
    discovery: ['oidc-discovery'] as const,
  },
  passkeys: ['passkeys'] as const,
  sessions: ['user-sessions'] as const,
  /** The Single Sign-On page: an organisation's connections and domains (null: the caller's own). */
  sso: {
    all: ['sso'] as const,
    connections: (organisationId: number | null) => ['sso', 'connections', organisationId] as const,
    domains: (organisationId: number | null) => ['sso', 'domains', organisationId] as const,
    testResult: (connectionId: number, key: string) => ['sso', 'test', connectionId, key] as const,
  },
  /** Directory Provisioning: an organisation's provisioning tokens (E-Support names the organisation). */
  /** An organisation's security policy (api/organisations/{id}/security-policy). */
  securityPolicy: (organisationId: number) => ['security-policy', organisationId] as const,
  supportAccess: ['support-access'] as const,
  scimTokens: {
    all: ['scim-tokens'] as const,
    of: (organisationId?: number) => ['scim-tokens', organisationId ?? 'own'] as const,
  },
  supportDomain: ['support-domain'] as const,
  integrations: {
    all: ['integrations'] as const,
    apiKeys: (organisationId?: number) => ['integrations', 'api-keys', organisationId ?? 'own'] as const,
    webhooks: (organisationId?: number) => ['integrations', 'webhooks', organisationId ?? 'own'] as const,
    deliveries: (webhookId: number) => ['integrations', 'deliveries', webhookId] as const,
    logStreams: (organisationId?: number) => ['integrations', 'log-streams', organisationId ?? 'own'] as const,
  },
  systemInformation: (eventType: SystemEventType) => ['systemInformation', eventType] as const,
  users: {
    all: ['users'] as const,
    list: (query: UserListQuery) => ['users', 'list', query] as const,
    byId: (id: number | string) => ['users', 'byId', String(id)] as const,
    lastLogin: (id: number | string) => ['users', 'lastLogin', String(id)] as const,
    userGroups: (id: number | string) => ['users', 'userGroups', String(id)] as const,
  },
};

import { assignableMainRoles } from '@shared/identity/account-rules';
import type { SingleUser } from '@shared/api-types';
import { BASE_ROLE, CAPABILITY_ROLES, hasAnyRole, Role, ROLE_NAMES } from '@shared/roles';

/** Spec 000 §3 'Account': what the user roles page edits. */
export interface Account {
  id: number;
  name: string;
  userEmail: string;
  /** The main role (never the administrator flag). */
  role: Role;
  hasAccess: boolean;
  isAdministrator: boolean;
  isMFAEnforced: boolean;
  isMFAEnabled: boolean;
  /** Passkeys */
  hasPasskey?: boolean;
  isSSO: boolean;
}

export const USER_TEXTS = {
  CHANGE_SAVED: 'Your change has been saved',
  NO_USERS: 'No users found',
  NEVER_LOGGED_IN: 'Unknown / Never Logged In',
  NO_NAME: 'N/A',
  DISABLE_MFA_FAILED: 'Failed to disable user MFA',
  EMAIL_REQUIRED: 'User email must not be empty',
  USER_ADDED: 'The user has been added',
  ORG_LOAD_FAILED: 'Failed to load current customer organisation information',
  ERASE_TITLE: 'Erase this user?',
  ERASE_CONFIRM: 'Erase',
  ERASE_FAILED: 'The user could not be erased.',
  eraseQuestion: (email: string) =>
    `${email} will be erased for good: their name and e-mail address are removed everywhere, and the audit log shows them as "Erased user". The address can be used again. This cannot be undone.`,
} as const;

export function displayName(u: { firstName?: string | null; lastName?: string | null }): string {
  return [u.firstName, u.lastName]
    .map((s) => (s ?? '').trim())
    .filter(Boolean)
    .join(' ');
}

/** The list's Role column: display names, comma separated, main role first. */
export function roleDisplay(roles: readonly number[]): string {
  return [...roles]
    .sort((a, b) => (a === Role.ADMINISTRATOR ? 1 : 0) - (b === Role.ADMINISTRATOR ? 1 : 0))
    .map((r) => ROLE_NAMES[r as Role] ?? String(r))
    .join(', ');
}

/** Spec 000 §3: the role is mapped from the integer; the administrator role is separated from the other role. */
export function toAccount(user: SingleUser): Account {
  const ids = user.userUserRoleMapping.map((m) => m.roleId as Role);
  const isAdministrator = ids.includes(Role.ADMINISTRATOR);
  const main = ids.find((r) => r !== Role.ADMINISTRATOR) ?? (isAdministrator ? Role.ADMINISTRATOR : BASE_ROLE);
  return {
    id: user.id,
    name: displayName(user),
    userEmail: user.userEmail,
    role: main,
    hasAccess: !user.isDisabled,
    isAdministrator: isAdministrator && main !== Role.ADMINISTRATOR,
    isMFAEnforced: user.isMFAEnforced,
    isMFAEnabled: user.isMFAEnabled,
    hasPasskey: user.hasPasskey,
    isSSO: user.isSSO,
  };
}

/** Spec 000 §4: the chosen role, plus the administrator role when the flag is set (only beside the base role). */
export function roleIdsToSave(role: Role, isAdministrator: boolean): Role[] {
  return isAdministrator && role === BASE_ROLE ? [role, Role.ADMINISTRATOR] : [role];
}

/**
 * Spec 000 §4: only one's own role when editing oneself; support assigns only the site admin role;
 * site admins and administrators the four roles.
 */
export function assignableRoles(callerRoles: readonly Role[], account: Account, isSelf: boolean): Role[] {
  const assignable = isSelf ? [] : assignableMainRoles({ roles: callerRoles });
  return assignable.length > 0 ? assignable : [account.role];
}

export function isWriter(roles: readonly Role[]): boolean {
  return hasAnyRole(roles, CAPABILITY_ROLES.USER_ADMIN);
}

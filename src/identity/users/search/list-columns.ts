import { UserListItem } from '../../../shared/api-types';
import { effectiveRoles } from '../../../shared/roles';

/** The user list's columns besides the id (UserListItem). */
export const LIST_COLUMNS = [
  'email',
  'isBlocked',
  'isDisabled',
  'roleId',
  'isAdministrator',
  'firstName',
  'lastName',
  'lastLoginAt',
  'isMFAEnforced',
  'isMFAEnabled',
  'hasPasskey',
  'isSSO',
  'managedBy',
] as const;

/** A list row as the database returns it (booleans as 0/1 on SQLite, the date as text there). */
export type RawListRow = Record<(typeof LIST_COLUMNS)[number] | 'id', unknown> & {
  email: string;
  firstName: string;
  lastName: string;
};

/** A list row as the answer's item; `lastLoginAt` as the driver converts the column. */
export function listItemOf(r: RawListRow, lastLoginAt: Date | null): UserListItem {
  return {
    id: Number(r.id),
    userEmail: r.email,
    isBlocked: Boolean(r.isBlocked),
    isDisabled: Boolean(r.isDisabled),
    userRoles: effectiveRoles(Number(r.roleId), Boolean(r.isAdministrator)),
    firstName: r.firstName,
    lastName: r.lastName,
    lastLoginDateTime: lastLoginAt ? lastLoginAt.toISOString() : null,
    isMFAEnforced: Boolean(r.isMFAEnforced),
    isMFAEnabled: Boolean(r.isMFAEnabled),
    hasPasskey: Boolean(r.hasPasskey),
    isSSO: Boolean(r.isSSO),
    isDirectoryManaged: r.managedBy !== null && r.managedBy !== undefined,
  };
}

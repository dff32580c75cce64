import { Role, ROLE_NAMES } from '@shared/roles';

/** A role select's options: each of `roles` by its name, its value the role's number. */
export function RoleOptions({ roles }: { roles: readonly Role[] }) {
  return roles.map((r) => (
    <option key={r} value={String(r)}>
      {ROLE_NAMES[r]}
    </option>
  ));
}

import { Role, ROLE_NAMES } from '@shared/roles';

/** A role select's options: each role by its name. */
export function RoleOptions({ roles }: { roles: readonly Role[] }) {
  return (
    <>
      {roles.map((r) => (
        <option key={r} value={r}>
          {ROLE_NAMES[r]}
        </option>
      ))}
    </>
  );
}

import { ROLE_NAMES } from '@shared/roles';
import { SSO_DEFAULT_ROLES } from '@shared/sso';

/** The roles a just-in-time account may be given, as the options of a select. */
export function RoleOptions() {
  return SSO_DEFAULT_ROLES.map((r) => (
    <option key={r} value={String(r)}>
      {ROLE_NAMES[r]}
    </option>
  ));
}

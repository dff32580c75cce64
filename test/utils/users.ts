import { Organisation } from '../../src/platform/database/entities/organisation.entity';
import { User } from '../../src/platform/database/entities/user.entity';
import { ALL_ROLES, ROLE_CODES } from '../../src/shared/roles';
import { createUser, UserOptions } from './factories';
import { Actor, RoleMatrix } from './roles';
import { TestApp } from './test-app';

/** Every role code of the catalogue, in catalogue order. */
export const ROLE_KEYS = ALL_ROLES.map((r) => ROLE_CODES[r]);

/** The statuses each role of the matrix gets; `make` may prepare fresh data per call (e.g. a new target user). */
export async function statusesFor(
  m: RoleMatrix,
  make: (actor: Actor, code: string) => PromiseLike<{ status: number }>,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [code, actor] of Object.entries(m.byRole)) out[code] = (await make(actor, code)).status;
  return out;
}

/** The expected statuses: `allowed` roles get `ok`, every other role `denied`. */
export function expected(allowed: string[], ok: number, denied = 403): Record<string, number> {
  return Object.fromEntries(ROLE_KEYS.map((k) => [k, allowed.includes(k) ? ok : denied]));
}

/** A plain user of the organisation to act on. */
export function target(t: TestApp, org: Organisation, options: UserOptions = {}): Promise<User> {
  return createUser(t, org, options);
}

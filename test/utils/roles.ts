import request from 'supertest';
import { Organisation } from '../../src/platform/database/entities/organisation.entity';
import { User } from '../../src/platform/database/entities/user.entity';
import { ALL_ROLES, Role, ROLE_CODES } from '../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from './factories';
import { TestApp } from './test-app';

export type Actor = { user: User; session: LoggedIn };

/** One signed-in user per role of the catalogue (E-Support in the vendor organisation, the rest in `org`). */
export interface RoleMatrix {
  org: Organisation;
  vendor: Organisation;
  /** Keyed by role code: E_SUPPORT, SITE_ADMIN, ADMINISTRATOR (Standard Admin + admin flag), STANDARD_ADMIN, ... */
  byRole: Record<string, Actor>;
  /** A site admin of another organisation. */
  otherOrgAdmin: Actor;
  otherOrg: Organisation;
}

export async function createRoleMatrix(t: TestApp): Promise<RoleMatrix> {
  const org = await createOrganisation(t);
  const otherOrg = await createOrganisation(t);
  const vendor = await createOrganisation(t, { isVendor: true });
  const byRole: Record<string, Actor> = {};
  for (const role of ALL_ROLES) {
    const user =
      role === Role.ADMINISTRATOR
        ? await createUser(t, org, { roleId: Role.STANDARD_ADMIN, isAdministrator: true })
        : await createUser(t, role === Role.E_SUPPORT ? vendor : org, { roleId: role });
    byRole[ROLE_CODES[role]] = { user, session: await login(t, user.email) };
  }
  const otherUser = await createUser(t, otherOrg, { roleId: Role.SITE_ADMIN });
  return {
    org,
    vendor,
    byRole,
    otherOrg,
    otherOrgAdmin: { user: otherUser, session: await login(t, otherUser.email) },
  };
}

/** The status each role gets for a call: e.g. `expectRoles(m, call, { allowed: ['SITE_ADMIN'], allowedStatus: 200 })`. */
export async function statusesByRole(
  m: RoleMatrix,
  call: (actor: Actor) => request.Test,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [code, actor] of Object.entries(m.byRole)) out[code] = (await call(actor)).status;
  return out;
}

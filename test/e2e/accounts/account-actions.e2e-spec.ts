import request from 'supertest';
import { Role, ROLE_CODES, ALL_ROLES } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { createUser, login } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * docs/product-rules.md §2, one rule for every action on another account: support acts on any organisation's site admin;
 * site admins on their organisation's other accounts; administrators on their organisation's accounts except
 * site admins and support. Every role of the catalogue tries every action on every kind of target.
 */
describe('the account-action rule, for every action, caller role and target role', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  type Target = 'E_SUPPORT' | 'SITE_ADMIN' | 'ADMINISTRATOR' | 'STANDARD_ADMIN' | 'VIEWER' | 'OTHER_ORG_SITE_ADMIN';
  const TARGETS: Target[] = [
    'E_SUPPORT',
    'SITE_ADMIN',
    'ADMINISTRATOR',
    'STANDARD_ADMIN',
    'VIEWER',
    'OTHER_ORG_SITE_ADMIN',
  ];

  /** A fresh account to act on (MFA on, so that switching it off is a real change). */
  const makeTarget = (kind: Target): Promise<User> => {
    const mfa = { totpSecret: 'JBSWY3DPEHPK3PXP' };
    switch (kind) {
      case 'E_SUPPORT':
        return createUser(t, m.vendor, { roleId: Role.E_SUPPORT, ...mfa });
      case 'OTHER_ORG_SITE_ADMIN':
        return createUser(t, m.otherOrg, { roleId: Role.SITE_ADMIN, ...mfa });
      case 'ADMINISTRATOR':
        return createUser(t, m.org, { roleId: Role.STANDARD_ADMIN, isAdministrator: true, ...mfa });
      default:
        return createUser(t, m.org, { roleId: Role[kind], ...mfa });
    }
  };

  type Action = 'role' | 'access' | 'sso' | 'mfa-enforce' | 'mfa-disable' | 'force-logoff';
  const ACTIONS: Record<
    Action,
    { routeRoles: string[]; call: (auth: object, caller: string, target: User) => request.Test }
  > = {
    role: {
      routeRoles: ['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'],
      call: (auth, caller, target) =>
        put('/api/users/updateRole', auth).send({
          userId: target.id,
          newUserRoleIds: [caller === 'E_SUPPORT' ? Role.SITE_ADMIN : Role.VIEWER],
        }),
    },
    access: {
      routeRoles: ['SITE_ADMIN', 'ADMINISTRATOR'],
      call: (auth, _c, target) => put('/api/users/disableUser', auth).send({ userId: target.id, isDisabled: true }),
    },
    sso: {
      routeRoles: ['SITE_ADMIN'],
      call: (auth, _c, target) =>
        put('/api/users/updateSsoStatus', auth).send({ userId: target.id, isSSOEnabled: false }),
    },
    'mfa-enforce': {
      routeRoles: ['SITE_ADMIN'],
      call: (auth, _c, target) => put('/api/users/enforceMFA', auth).send({ userId: target.id, isMFAEnforced: true }),
    },
    'mfa-disable': {
      routeRoles: ['SITE_ADMIN', 'ADMINISTRATOR'],
      call: (auth, _c, target) => put('/api/mfa/disableUserMfa', auth).send({ userId: target.id }),
    },
    'force-logoff': {
      routeRoles: ['SITE_ADMIN', 'ADMINISTRATOR'],
      call: (auth, _c, target) =>
        request(t.http)
          .post('/api/userLoginActivities/force-logoff')
          .set(auth as Record<string, string>)
          .send({ userIds: [target.id] }),
    },
  };
  const put = (path: string, auth: object) =>
    request(t.http)
      .put(path)
      .set(auth as Record<string, string>);

  /** The accounts each caller may act on, written out from docs/product-rules.md §2 (not computed by the code under test). */
  const MAY: Record<string, Target[]> = {
    E_SUPPORT: ['SITE_ADMIN', 'OTHER_ORG_SITE_ADMIN'],
    SITE_ADMIN: ['SITE_ADMIN', 'ADMINISTRATOR', 'STANDARD_ADMIN', 'VIEWER'],
    ADMINISTRATOR: ['ADMINISTRATOR', 'STANDARD_ADMIN', 'VIEWER'],
  };

  function expectedStatus(action: Action, caller: string, target: Target): number {
    if (!ACTIONS[action].routeRoles.includes(caller)) return 403;
    // Another organisation's account is answered like a missing one, except for support.
    if (caller !== 'E_SUPPORT' && (target === 'E_SUPPORT' || target === 'OTHER_ORG_SITE_ADMIN')) return 404;
    if (action === 'role') {
      // Support's one role action: making any account but an E-Support one a site admin.
      if (caller === 'E_SUPPORT') return target === 'E_SUPPORT' ? 403 : 200;
      // The roles page changes only holders of the four assignable roles.
      if (target === 'SITE_ADMIN') return 403;
    }
    return (MAY[caller] ?? []).includes(target) ? 200 : 403;
  }

  for (const action of Object.keys(ACTIONS) as Action[]) {
    it(`${action}: every caller role against every target role, another organisation included`, async () => {
      const actual: Record<string, Record<string, number>> = {};
      const wanted: Record<string, Record<string, number>> = {};
      for (const callerRole of ALL_ROLES) {
        const caller = ROLE_CODES[callerRole];
        actual[caller] = {};
        wanted[caller] = {};
        for (const kind of TARGETS) {
          const target = await makeTarget(kind);
          actual[caller][kind] = (await ACTIONS[action].call(m.byRole[caller].session.auth, caller, target)).status;
          wanted[caller][kind] = expectedStatus(action, caller, kind);
        }
      }
      expect(actual).toEqual(wanted);
    });
  }

  it("an administrator's force log-off of the site admin is refused and ends nothing", async () => {
    const siteAdmin = await createUser(t, m.org, { roleId: Role.SITE_ADMIN });
    const s = await login(t, siteAdmin.email);
    const res = await ACTIONS['force-logoff']
      .call(m.byRole.ADMINISTRATOR.session.auth, 'ADMINISTRATOR', siteAdmin)
      .expect(403);
    expect(res.body).toMatchObject({
      success: false,
      statusCode: 403,
      message: 'You cannot change the settings of this user.',
    });
    await request(t.http).get('/api/users/current').set(s.auth).expect(200);
    await request(t.http).post('/refresh').set('Cookie', s.cookie).expect(200);
    // The user-sessions page says so beforehand.
    const listed = await request(t.http)
      .get('/api/userLoginActivities/user-sessions')
      .set(m.byRole.ADMINISTRATOR.session.auth)
      .expect(200);
    const rowOf = (id: number) => listed.body.userSessions.find((r: { id: number }) => r.id === id);
    expect(rowOf(siteAdmin.id).canForceLogoff).toBe(false);
    expect(rowOf(m.byRole.VIEWER.user.id).canForceLogoff).toBe(true);
  });
});

import { Role } from '../roles';
import {
  assignableMainRoles,
  AccountAction,
  AccountHolder,
  checkAccountAction,
  checkNewUserRole,
  checkRoleChange,
  parseRoleIds,
  ROLE_RULE_MESSAGES as M,
} from './account-rules';

const VENDOR = 1;
const ORG = 2;
const OTHER_ORG = 3;
const support = { id: 1, organisationId: VENDOR, roles: [Role.E_SUPPORT] };
const siteAdmin = { id: 2, organisationId: ORG, roles: [Role.SITE_ADMIN] };
const administrator = { id: 3, organisationId: ORG, roles: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] };
const standardAdmin = { id: 4, organisationId: ORG, roles: [Role.STANDARD_ADMIN] };
const analystTarget = { id: 10, organisationId: ORG, roleId: Role.ANALYST, isAdministrator: false };
const flaggedTarget = { id: 11, organisationId: ORG, roleId: Role.STANDARD_ADMIN, isAdministrator: true };
const siteAdminTarget = { id: 12, organisationId: ORG, roleId: Role.SITE_ADMIN, isAdministrator: false };

describe('parseRoleIds: one main role plus the administrator flag', () => {
  it('reads a main role alone, or the base role with the flag', () => {
    expect(parseRoleIds([Role.VIEWER])).toEqual({ mainRole: Role.VIEWER, isAdministrator: false });
    expect(parseRoleIds([Role.ADMINISTRATOR, Role.STANDARD_ADMIN])).toEqual({
      mainRole: Role.STANDARD_ADMIN,
      isAdministrator: true,
    });
  });
  it('refuses two main roles, no main role and unknown ids', () => {
    expect(parseRoleIds([Role.VIEWER, Role.ANALYST])).toBe(M.ONE_MAIN_ROLE);
    expect(parseRoleIds([Role.ADMINISTRATOR])).toBe(M.ONE_MAIN_ROLE);
    expect(parseRoleIds([])).toBe(M.ONE_MAIN_ROLE);
    expect(parseRoleIds([99])).toBe(M.UNKNOWN_ROLE);
  });
  it('allows the administrator flag only beside the base role (Standard Admin)', () => {
    expect(parseRoleIds([Role.ANALYST, Role.ADMINISTRATOR])).toBe(M.ADMIN_NEEDS_BASE_ROLE);
    expect(parseRoleIds([Role.SITE_ADMIN, Role.ADMINISTRATOR])).toBe(M.ADMIN_NEEDS_BASE_ROLE);
  });
});

describe('assignableMainRoles', () => {
  it('support: Site Admin only; site admins and administrators: the four roles; others: none', () => {
    expect(assignableMainRoles(support)).toEqual([Role.SITE_ADMIN]);
    expect(assignableMainRoles(siteAdmin)).toEqual([4, 5, 6, 7]);
    expect(assignableMainRoles(administrator)).toEqual([4, 5, 6, 7]);
    expect(assignableMainRoles(standardAdmin)).toEqual([]);
  });
});

describe('checkRoleChange', () => {
  const choice = (mainRole: Role, isAdministrator = false) => ({ mainRole, isAdministrator });

  it("editing oneself: only one's own role, unchanged", () => {
    const self = { id: siteAdmin.id, organisationId: ORG, roleId: Role.SITE_ADMIN, isAdministrator: false };
    expect(checkRoleChange(siteAdmin, self, choice(Role.SITE_ADMIN))).toBeNull();
    expect(checkRoleChange(siteAdmin, self, choice(Role.STANDARD_ADMIN))).toBe(M.OWN_ROLE);
    const selfAdmin = { id: administrator.id, organisationId: ORG, roleId: Role.STANDARD_ADMIN, isAdministrator: true };
    expect(checkRoleChange(administrator, selfAdmin, choice(Role.STANDARD_ADMIN, false))).toBe(M.OWN_ROLE);
  });

  it('support may assign only Site Admin, without the flag', () => {
    expect(checkRoleChange(support, analystTarget, choice(Role.SITE_ADMIN))).toBeNull();
    expect(checkRoleChange(support, analystTarget, choice(Role.VIEWER))).toBe(M.SUPPORT_ONLY_SITE_ADMIN);
    expect(checkRoleChange(support, analystTarget, choice(Role.STANDARD_ADMIN, true))).toBe(M.SUPPORT_ONLY_SITE_ADMIN);
    expect(
      checkRoleChange(
        support,
        { id: 20, organisationId: VENDOR, roleId: Role.E_SUPPORT, isAdministrator: false },
        choice(Role.SITE_ADMIN),
      ),
    ).toBe(M.TARGET_NOT_MANAGEABLE);
  });

  it('site admins assign the four roles and the flag', () => {
    expect(checkRoleChange(siteAdmin, analystTarget, choice(Role.VIEWER))).toBeNull();
    expect(checkRoleChange(siteAdmin, analystTarget, choice(Role.STANDARD_ADMIN, true))).toBeNull();
    expect(checkRoleChange(siteAdmin, flaggedTarget, choice(Role.STANDARD_ADMIN, false))).toBeNull();
    expect(checkRoleChange(siteAdmin, analystTarget, choice(Role.SITE_ADMIN))).toBe(M.NOT_ASSIGNABLE);
    expect(checkRoleChange(siteAdmin, analystTarget, choice(Role.CA_VIEWER))).toBe(M.NOT_ASSIGNABLE);
    expect(checkRoleChange(siteAdmin, siteAdminTarget, choice(Role.VIEWER))).toBe(M.TARGET_NOT_MANAGEABLE);
  });

  it('administrators assign the four roles but never toggle the flag (it may go with the base role)', () => {
    expect(checkRoleChange(administrator, analystTarget, choice(Role.PORTFOLIO_MANAGER))).toBeNull();
    expect(checkRoleChange(administrator, analystTarget, choice(Role.STANDARD_ADMIN, true))).toBe(
      M.ONLY_SITE_ADMIN_ADMIN_FLAG,
    );
    expect(checkRoleChange(administrator, flaggedTarget, choice(Role.STANDARD_ADMIN, false))).toBe(
      M.ONLY_SITE_ADMIN_ADMIN_FLAG,
    );
    expect(checkRoleChange(administrator, flaggedTarget, choice(Role.STANDARD_ADMIN, true))).toBeNull();
    // Turning off the base role clears the flag: allowed.
    expect(checkRoleChange(administrator, flaggedTarget, choice(Role.ANALYST))).toBeNull();
    expect(checkRoleChange(administrator, siteAdminTarget, choice(Role.VIEWER))).toBe(M.TARGET_NOT_MANAGEABLE);
  });

  it("other roles change nobody's role", () => {
    expect(checkRoleChange(standardAdmin, analystTarget, choice(Role.VIEWER))).toBe(M.NO_ROLE_RIGHTS);
  });
});

describe('checkNewUserRole', () => {
  it('the four roles; the flag only by a site admin', () => {
    expect(checkNewUserRole(siteAdmin, { mainRole: Role.STANDARD_ADMIN, isAdministrator: true })).toBeNull();
    expect(checkNewUserRole(administrator, { mainRole: Role.STANDARD_ADMIN, isAdministrator: true })).toBe(
      M.ONLY_SITE_ADMIN_ADMIN_FLAG,
    );
    expect(checkNewUserRole(administrator, { mainRole: Role.VIEWER, isAdministrator: false })).toBeNull();
    expect(checkNewUserRole(siteAdmin, { mainRole: Role.SITE_ADMIN, isAdministrator: false })).toBe(M.NOT_ASSIGNABLE);
    expect(checkNewUserRole(support, { mainRole: Role.VIEWER, isAdministrator: false })).toBe(M.NO_ROLE_RIGHTS);
  });
});

describe('checkAccountAction: the one rule for every action on another account (docs/product-rules.md §2)', () => {
  const ACTIONS: AccountAction[] = ['role', 'access', 'sso', 'mfa', 'force-logoff'];
  const account = (id: number, organisationId: number, roleId: Role, isAdministrator = false) => ({
    id,
    organisationId,
    roleId,
    isAdministrator,
  });
  const targets = {
    support: account(20, VENDOR, Role.E_SUPPORT),
    siteAdmin: account(21, ORG, Role.SITE_ADMIN),
    otherSiteAdmin: account(22, ORG, Role.SITE_ADMIN),
    administrator: account(23, ORG, Role.STANDARD_ADMIN, true),
    standardAdmin: account(24, ORG, Role.STANDARD_ADMIN),
    viewer: account(25, ORG, Role.VIEWER),
    foreignSiteAdmin: account(26, OTHER_ORG, Role.SITE_ADMIN),
    foreignViewer: account(27, OTHER_ORG, Role.VIEWER),
  };
  type Target = keyof typeof targets;
  const callers = {
    support,
    siteAdmin,
    administrator,
    standardAdmin,
    viewer: { id: 5, organisationId: ORG, roles: [Role.VIEWER] },
    analyst: { id: 6, organisationId: ORG, roles: [Role.ANALYST] },
  };
  /** The targets each caller may act on (any action but a role change by support, checked below). */
  const allowed: Record<keyof typeof callers, Target[]> = {
    support: ['siteAdmin', 'otherSiteAdmin', 'foreignSiteAdmin'],
    siteAdmin: ['siteAdmin', 'otherSiteAdmin', 'administrator', 'standardAdmin', 'viewer'],
    administrator: ['administrator', 'standardAdmin', 'viewer'],
    standardAdmin: [],
    viewer: [],
    analyst: [],
  };

  for (const [callerName, caller] of Object.entries(callers) as Array<
    [keyof typeof callers, (typeof callers)[keyof typeof callers]]
  >) {
    it(`${callerName}: ${allowed[callerName].join(', ') || 'nobody'}`, () => {
      for (const action of ACTIONS.filter((a) => !(callerName === 'support' && a === 'role'))) {
        for (const [name, target] of Object.entries(targets) as Array<[Target, AccountHolder]>) {
          const verdict = checkAccountAction(caller, target, action);
          expect({ action, name, allowed: verdict === null }).toEqual({
            action,
            name,
            allowed: allowed[callerName].includes(name),
          });
        }
      }
    });
  }

  it('support gives the Site Admin role to any account of any organisation but another E-Support account', () => {
    expect(checkAccountAction(support, targets.foreignViewer, 'role')).toBeNull();
    expect(checkAccountAction(support, targets.viewer, 'role')).toBeNull();
    expect(checkAccountAction(support, targets.support, 'role')).toBe(M.TARGET_NOT_MANAGEABLE);
    expect(checkAccountAction(support, targets.foreignViewer, 'access')).toBe(M.TARGET_NOT_MANAGEABLE_ACCESS);
  });

  it("nobody changes their own role, access, SSO or MFA; ending one's own sessions is allowed", () => {
    const self = account(siteAdmin.id, ORG, Role.SITE_ADMIN);
    expect(checkAccountAction(siteAdmin, self, 'role')).toBe(M.OWN_ROLE);
    for (const a of ['access', 'sso', 'mfa'] as const)
      expect(checkAccountAction(siteAdmin, self, a)).toBe(M.OWN_ACCESS);
    expect(checkAccountAction(siteAdmin, self, 'force-logoff')).toBeNull();
  });

  it('another organisation is never reached but by support', () => {
    expect(checkAccountAction(siteAdmin, targets.foreignViewer, 'access')).toBe(M.OTHER_ORGANISATION);
    expect(checkAccountAction(administrator, targets.foreignViewer, 'force-logoff')).toBe(M.OTHER_ORGANISATION);
  });

  it('an administrator never acts on a site admin, whatever the action (force log-off included)', () => {
    for (const a of ACTIONS) expect(checkAccountAction(administrator, siteAdminTarget, a)).not.toBeNull();
  });
});

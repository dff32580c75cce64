import { Role } from '../shared/roles';
import {
  assignableMainRoles,
  checkManageable,
  checkNewUserRole,
  checkRoleChange,
  parseRoleIds,
  ROLE_RULE_MESSAGES as M,
} from './role-rules';

const support = { id: 1, roles: [Role.E_SUPPORT] };
const siteAdmin = { id: 2, roles: [Role.SITE_ADMIN] };
const administrator = { id: 3, roles: [Role.STANDARD_ADMIN, Role.ADMINISTRATOR] };
const standardAdmin = { id: 4, roles: [Role.STANDARD_ADMIN] };
const analystTarget = { id: 10, roleId: Role.ANALYST, isAdministrator: false };
const flaggedTarget = { id: 11, roleId: Role.STANDARD_ADMIN, isAdministrator: true };
const siteAdminTarget = { id: 12, roleId: Role.SITE_ADMIN, isAdministrator: false };

describe('parseRoleIds: one main role plus the administrator flag', () => {
  it('reads a main role alone, or the base role with the flag', () => {
    expect(parseRoleIds([Role.VIEWER])).toEqual({ mainRole: Role.VIEWER, isAdministrator: false });
    expect(parseRoleIds([Role.ADMINISTRATOR, Role.STANDARD_ADMIN])).toEqual({ mainRole: Role.STANDARD_ADMIN, isAdministrator: true });
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

  it('editing oneself: only one\'s own role, unchanged', () => {
    const self = { id: siteAdmin.id, roleId: Role.SITE_ADMIN, isAdministrator: false };
    expect(checkRoleChange(siteAdmin, self, choice(Role.SITE_ADMIN))).toBeNull();
    expect(checkRoleChange(siteAdmin, self, choice(Role.STANDARD_ADMIN))).toBe(M.OWN_ROLE);
    const selfAdmin = { id: administrator.id, roleId: Role.STANDARD_ADMIN, isAdministrator: true };
    expect(checkRoleChange(administrator, selfAdmin, choice(Role.STANDARD_ADMIN, false))).toBe(M.OWN_ROLE);
  });

  it('support may assign only Site Admin, without the flag', () => {
    expect(checkRoleChange(support, analystTarget, choice(Role.SITE_ADMIN))).toBeNull();
    expect(checkRoleChange(support, analystTarget, choice(Role.VIEWER))).toBe(M.SUPPORT_ONLY_SITE_ADMIN);
    expect(checkRoleChange(support, analystTarget, choice(Role.STANDARD_ADMIN, true))).toBe(M.SUPPORT_ONLY_SITE_ADMIN);
    expect(checkRoleChange(support, { id: 20, roleId: Role.E_SUPPORT, isAdministrator: false }, choice(Role.SITE_ADMIN))).toBe(M.TARGET_NOT_MANAGEABLE);
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
    expect(checkRoleChange(administrator, analystTarget, choice(Role.STANDARD_ADMIN, true))).toBe(M.ONLY_SITE_ADMIN_ADMIN_FLAG);
    expect(checkRoleChange(administrator, flaggedTarget, choice(Role.STANDARD_ADMIN, false))).toBe(M.ONLY_SITE_ADMIN_ADMIN_FLAG);
    expect(checkRoleChange(administrator, flaggedTarget, choice(Role.STANDARD_ADMIN, true))).toBeNull();
    // Turning off the base role clears the flag: allowed.
    expect(checkRoleChange(administrator, flaggedTarget, choice(Role.ANALYST))).toBeNull();
    expect(checkRoleChange(administrator, siteAdminTarget, choice(Role.VIEWER))).toBe(M.TARGET_NOT_MANAGEABLE);
  });

  it('other roles change nobody\'s role', () => {
    expect(checkRoleChange(standardAdmin, analystTarget, choice(Role.VIEWER))).toBe(M.NO_ROLE_RIGHTS);
  });
});

describe('checkNewUserRole', () => {
  it('the four roles; the flag only by a site admin', () => {
    expect(checkNewUserRole(siteAdmin, { mainRole: Role.STANDARD_ADMIN, isAdministrator: true })).toBeNull();
    expect(checkNewUserRole(administrator, { mainRole: Role.STANDARD_ADMIN, isAdministrator: true })).toBe(M.ONLY_SITE_ADMIN_ADMIN_FLAG);
    expect(checkNewUserRole(administrator, { mainRole: Role.VIEWER, isAdministrator: false })).toBeNull();
    expect(checkNewUserRole(siteAdmin, { mainRole: Role.SITE_ADMIN, isAdministrator: false })).toBe(M.NOT_ASSIGNABLE);
    expect(checkNewUserRole(support, { mainRole: Role.VIEWER, isAdministrator: false })).toBe(M.NO_ROLE_RIGHTS);
  });
});

describe('checkManageable: access, SSO, MFA of another user', () => {
  it('never oneself; never an E-Support account; an administrator never a site admin', () => {
    expect(checkManageable(siteAdmin, { id: siteAdmin.id, roleId: Role.SITE_ADMIN, isAdministrator: false })).toBe(M.OWN_ACCESS);
    expect(checkManageable(siteAdmin, analystTarget)).toBeNull();
    expect(checkManageable(siteAdmin, siteAdminTarget)).toBeNull();
    expect(checkManageable(administrator, siteAdminTarget)).toBe(M.TARGET_NOT_MANAGEABLE_ACCESS);
    expect(checkManageable(administrator, flaggedTarget)).toBeNull();
    expect(checkManageable(siteAdmin, { id: 30, roleId: Role.E_SUPPORT, isAdministrator: false })).toBe(M.TARGET_NOT_MANAGEABLE_ACCESS);
  });
});

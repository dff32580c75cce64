import { bulkNamesPrivilegedRole, parseInvitationRole } from './invitations';
import { Role } from './roles';

describe('parseInvitationRole', () => {
  it('reads a role code or display name in any case; Administrator is the base role with the flag', () => {
    expect(parseInvitationRole('ANALYST')).toEqual({ roleId: Role.ANALYST, admin: false });
    expect(parseInvitationRole(' portfolio manager ')).toEqual({ roleId: Role.PORTFOLIO_MANAGER, admin: false });
    expect(parseInvitationRole('Site Admin')).toEqual({ roleId: Role.SITE_ADMIN, admin: false });
    expect(parseInvitationRole('administrator')).toEqual({ roleId: Role.STANDARD_ADMIN, admin: true });
    expect(parseInvitationRole('Astronaut')).toBeNull();
    expect(parseInvitationRole('')).toBeNull();
    expect(parseInvitationRole('4')).toBeNull();
  });
});

describe('bulkNamesPrivilegedRole', () => {
  it('finds Site Admin or Administrator in a role cell, not in an address', () => {
    expect(bulkNamesPrivilegedRole('email,role\na@b.test,Site Admin')).toBe(true);
    expect(bulkNamesPrivilegedRole('email,role\na@b.test,SITE_ADMIN\n')).toBe(true);
    expect(bulkNamesPrivilegedRole('email,role\r\na@b.test,"Administrator"')).toBe(true);
    expect(bulkNamesPrivilegedRole('email,role\nadministrator@b.test,Analyst')).toBe(false);
    expect(bulkNamesPrivilegedRole('email,role\na@b.test,Viewer')).toBe(false);
  });
});

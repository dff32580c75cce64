import { parseInvitationRole } from './invitations';
import { Role } from '../roles';

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

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../common/app.exception';
import { AuthUser, canAccessOrganisation } from '../common/auth-user';
import { SessionsService } from '../sessions/sessions.service';
import { ROLE_CODES, ROLE_NAMES } from '../shared/roles';
import { User } from './entities/user.entity';
import { CurrentUserInfo } from '../shared/api-types';

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * The user with this id, if the caller may see them: same organisation, or any for E-Support.
   * Another organisation's user is answered exactly like a missing one (404), so ids reveal nothing.
   */
  async findAccessible(caller: AuthUser, userId: number): Promise<User> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user || !canAccessOrganisation(caller, user.organisationId)) throw AppException.notFound('User not found.');
    return user;
  }

  async current(userId: number): Promise<CurrentUserInfo> {
    const user = await this.users.findOne({ where: { id: userId }, relations: { organisation: true } });
    if (!user?.organisation) throw AppException.notFound('User not found.');
    return {
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      organisationId: user.organisationId,
      organisationCode: user.organisation.code,
      masterAccountName: user.organisation.name,
      applications: user.organisation.applications,
      roles: user.roles.map((r) => ({ roleId: r, roleCode: ROLE_CODES[r], roleName: ROLE_NAMES[r] })),
      isMFAEnforced: user.isMFAEnforced,
      isMFAEnabled: user.isMFAEnabled,
      isSSO: user.isSSO,
    };
  }

  /** The current user when the session is still open and the account enabled; else null. */
  async currentForSession(userId: number, sessionId: string): Promise<CurrentUserInfo | null> {
    if (!(await this.sessions.isActive(sessionId))) return null;
    const user = await this.users.findOneBy({ id: userId });
    if (!user || user.isDisabled || user.isBlocked) return null;
    return this.current(userId);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { Repository } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { SessionsService } from '../sessions/sessions.service';
import { User } from '../users/entities/user.entity';
import { AccessPayload } from './token.service';

/** Access tokens count only while their session is open and the account is enabled. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly sessions: SessionsService,
  ) {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: config.jwtSecret, ignoreExpiration: false });
  }

  async validate(payload: AccessPayload): Promise<AuthUser> {
    const ended = () => AppException.unauthorized('Your session has ended. Please log in again.', 'SESSION_ENDED');
    if (payload.typ !== 'access') throw AppException.unauthorized();
    const [active, user] = await Promise.all([this.sessions.isActive(payload.sid), this.users.findOneBy({ id: payload.sub })]);
    if (!active || !user || user.isDisabled || user.isBlocked) throw ended();
    return toAuthUser(user, payload.sid);
  }
}

export function toAuthUser(user: User, sessionId: string): AuthUser {
  return {
    id: user.id,
    email: user.email,
    organisationId: user.organisationId,
    sessionId,
    roles: user.roles,
    isMFAEnforced: user.isMFAEnforced,
    isMFAEnabled: user.isMFAEnabled,
  };
}

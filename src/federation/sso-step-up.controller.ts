import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SsoStepUpDto, SsoStepUpResponse } from '../step-up/dto/step-up.dto';
import { StepUpService } from '../step-up/step-up.service';
import { AppException } from '../common/app.exception';
import { AuthUser } from '../common/auth-user';
import { Access } from '../common/decorators/access.decorators';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import { ErrorResponse } from '../common/error-response';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { ERROR_CODES } from '../shared/messages';
import { ALL_ROLES } from '../shared/roles';
import { SsoConnection } from './entities/sso-connection.entity';
import { SsoIdentity } from './entities/sso-identity.entity';
import { SsoSession } from './entities/sso-session.entity';

/**
 * Access: every role, signed in, for the caller's own session (no id in the path). A step-up of an account that
 * signs in through a provider happens at that provider (docs/product-rules.md §7): its organisation's connection, else the
 * deployment-wide one.
 */
@ApiTags('auth')
@Controller('auth/step-up')
export class SsoStepUpController {
  constructor(
    @InjectRepository(SsoSession) private readonly ssoSessions: Repository<SsoSession>,
    @InjectRepository(SsoIdentity) private readonly identities: Repository<SsoIdentity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stepUps: StepUpService,
  ) {}

  @Post('sso')
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, mfaPending: true })
  @ApiOkResponse({ type: SsoStepUpResponse })
  @ApiBadRequestResponse({ description: 'SSO_UNAVAILABLE: corporate login is not configured', type: ErrorResponse })
  async sso(@CurrentUser() caller: AuthUser, @Body() dto: SsoStepUpDto): Promise<{ url: string }> {
    const connectionId = await this.connectionOf(caller);
    if (connectionId === null && !this.config.oidc)
      throw AppException.badRequest('Corporate login is not configured.', ERROR_CODES.SSO_UNAVAILABLE);
    const ticket = encodeURIComponent(this.stepUps.ssoTicket(caller, dto.returnTo));
    return {
      url:
        connectionId === null
          ? `/auth/sso?prompt=login&stepUp=${ticket}`
          : `/auth/sso/${connectionId}?prompt=login&stepUp=${ticket}`,
    };
  }

  /**
   * The organisation's connection the caller signs in through: the one that opened this session, else the first
   * enabled one the account is linked to; null: the deployment-wide provider.
   */
  private async connectionOf(caller: AuthUser): Promise<number | null> {
    const bySession = await this.ssoSessions.findOne({
      where: { sessionId: caller.sessionId },
      select: { connectionId: true },
    });
    if (bySession) return bySession.connectionId;
    const linked = await this.identities
      .createQueryBuilder('x')
      .innerJoin(SsoConnection, 'c', 'c.id = x.connectionId')
      .where('x.userId = :id', { id: caller.id })
      .andWhere('c.enabled = :on', { on: true })
      .orderBy('x.connectionId', 'ASC')
      .getOne();
    return linked ? linked.connectionId : null;
  }
}

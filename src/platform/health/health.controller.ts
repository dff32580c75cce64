import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AppException } from '../web/app.exception';
import { Access } from '../web/decorators/access.decorators';
import { version } from '../config/version';
import { HealthService } from './health.service';
import { ShutdownState } from '../shutdown/shutdown-state';
import { ERROR_CODES } from '../../shared/messages';
import { Answers } from '../openapi/decorators';

/**
 * Access: public, for load balancers, orchestrators and the container HEALTHCHECK; reveals only up/down
 * and which dependency is down.
 * - live: the process answers (restart it when this fails);
 * - ready: it can serve (database, Redis when configured, SMTP when configured) and is not shutting down; take it out
 *   of rotation when this fails;
 * - health: the database answers (kept for the image's HEALTHCHECK and the browser tests).
 */
@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly shutdown: ShutdownState,
  ) {}

  @Answers(200, 'HealthAnswer')
  @Access.public()
  @Get()
  async check() {
    if ((await this.health.database()) !== 'ok')
      throw new AppException(HttpStatus.SERVICE_UNAVAILABLE, ERROR_CODES.UNAVAILABLE, 'The database does not answer.');
    return { status: 'ok', version };
  }

  @Answers(200, 'HealthAnswer')
  @Access.public()
  @Get('live')
  live() {
    return { status: 'ok', version };
  }

  @Answers(200, 'HealthAnswer')
  @Access.public()
  @Get('ready')
  async ready() {
    if (this.shutdown.draining)
      throw new AppException(HttpStatus.SERVICE_UNAVAILABLE, ERROR_CODES.NOT_READY, 'The server is shutting down.');
    const { ready, checks } = await this.health.readiness();
    if (!ready)
      throw new AppException(HttpStatus.SERVICE_UNAVAILABLE, ERROR_CODES.NOT_READY, 'A dependency does not answer.', {
        checks,
      });
    return { status: 'ok', version, checks };
  }
}

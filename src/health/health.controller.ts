import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { AppException } from '../common/app.exception';
import { Public } from '../common/decorators/access.decorators';
import { version } from '../version';

/** Access: public, for load balancers and the container HEALTHCHECK; reveals nothing but up/down. */
@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(private readonly db: DataSource) {}

  @Public()
  @Get()
  async health() {
    try {
      await this.db.query('SELECT 1');
    } catch {
      throw new AppException(503, 'UNAVAILABLE', 'The database does not answer.');
    }
    return { status: 'ok', version };
  }
}

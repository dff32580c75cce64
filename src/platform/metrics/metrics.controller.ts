import { Controller, Get, Header, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Response } from 'express';
import { Access } from '../web/decorators/access.decorators';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsService } from './metrics.service';

/**
 * Access: no user token (@Public); instead {@link MetricsAccessGuard}: METRICS_TOKEN as a Bearer token,
 * or a request from loopback.
 */
@ApiExcludeController()
@Controller('api/metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Access.public()
  @UseGuards(MetricsAccessGuard)
  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() res: Response): Promise<void> {
    const { contentType, body } = await this.metrics.scrape();
    res.type(contentType).send(body);
  }
}

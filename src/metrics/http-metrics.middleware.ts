import { Injectable, NestMiddleware } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service';

/** Times every HTTP request and counts it under its route pattern once the response has finished. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      // The pattern (`/api/users/:id`), never the path: ids in label values would grow without bound.
      const pattern = (req.route as { path?: unknown } | undefined)?.path;
      const route =
        typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : res.statusCode === 404 ? 'unmatched' : 'other';
      this.metrics.observeHttp(req.method, route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  }
}

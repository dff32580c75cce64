import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';

/** One JSON line per request: time, method, path (query dropped: it may carry tokens), status, duration, user. */
@Injectable()
export class RequestLoggerMiddleware implements NestMiddleware {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (this.config.logLevel === 'silent' || this.config.logLevel === 'error') return next();
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const user = (req as Request & { user?: { id: number } }).user;
      process.stdout.write(
        JSON.stringify({
          time: new Date().toISOString(),
          level: res.statusCode >= 500 ? 'error' : 'info',
          msg: 'request',
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - start) / 1000n) / 1000,
          userId: user?.id,
          ip: req.ip,
        }) + '\n',
      );
    });
    next();
  }
}

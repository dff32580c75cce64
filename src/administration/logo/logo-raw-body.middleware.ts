import { HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { raw } from 'express';
import { AppException } from '../../platform/web/app.exception';
import { LIMITS } from '../../shared/limits';
import { ORG_ADMIN_MESSAGES as M } from '../../shared/administration/organisation-admin';
import { ERROR_CODES } from '../../shared/messages';

const parse = raw({ type: () => true, limit: LIMITS.LOGO_MAX_BYTES });

/** The logo upload is the raw file (any content type), read into a Buffer of at most 10 MB. */
@Injectable()
export class LogoRawBodyMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    parse(req, res, (err?: unknown) => {
      const e = err as { type?: string } | undefined;
      if (e?.type === 'entity.too.large')
        return next(new AppException(HttpStatus.PAYLOAD_TOO_LARGE, ERROR_CODES.PAYLOAD_TOO_LARGE, M.LOGO_TOO_LARGE));
      next(err as Error | undefined);
    });
  }
}

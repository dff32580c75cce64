import { HttpStatus, Injectable, NestMiddleware } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { text } from 'express';
import { AppException } from '../../platform/web/app.exception';
import { INVITATION_LIMITS, INVITATION_MESSAGES } from '../../shared/administration/invitations';
import { ERROR_CODES } from '../../shared/messages';
import { BulkFile } from './bulk-file';

const parse = text({
  type: ['text/csv', 'text/plain'],
  limit: INVITATION_LIMITS.BULK_MAX_BYTES,
  defaultCharset: 'utf-8',
});

/**
 * The bulk invitation body is a CSV file, read as text (at most BULK_MAX_BYTES) and parsed once into its rows
 * (BulkFile), which both the step-up decision and the invitations read. Its problems are the service's to answer,
 * after the caller is known.
 */
@Injectable()
export class BulkBodyMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    parse(req, res, (err?: unknown) => {
      const e = err as { type?: string } | undefined;
      if (e?.type === 'entity.too.large')
        return next(
          new AppException(
            HttpStatus.PAYLOAD_TOO_LARGE,
            ERROR_CODES.PAYLOAD_TOO_LARGE,
            INVITATION_MESSAGES.BULK_TOO_MANY,
          ),
        );
      if (!err && typeof req.body === 'string') req.body = BulkFile.read(req.body);
      next(err as Error | undefined);
    });
  }
}

import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable } from 'rxjs';
import { requestContextOf } from '../../platform/web/request-context';
import { ScimCaller } from '../../platform/web/scim-caller';
import { ScimTokensService } from './scim-tokens.service';

/**
 * Every answer of the SCIM service is application/scim+json (RFC 7644 §3.1), and every call records its token's use
 * (at most once a minute: ScimTokensService.recordUse) before it runs.
 */
@Injectable()
export class ScimResponseInterceptor implements NestInterceptor {
  constructor(private readonly tokens: ScimTokensService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request & { scimToken?: ScimCaller }>();
    context.switchToHttp().getResponse<Response>().type('application/scim+json');
    if (req.scimToken) await this.tokens.recordUse(req.scimToken, requestContextOf(req));
    return next.handle();
  }
}

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ScimTokenAuthService } from '../credentials/scim-token-auth.service';
import { accessOf } from '../../platform/web/decorators/access.decorators';

/**
 * Checks the provisioning token on @Access.scim() routes (`Authorization: Bearer <token>`, never a user's access
 * token) and puts its organisation on the request as `scimToken`. Runs before the rate limiter, which counts per token.
 */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: ScimTokenAuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (accessOf(this.reflector, context)?.kind !== 'scim') return true;
    const req = context
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | undefined>; scimToken?: unknown }>();
    req.scimToken = await this.tokens.authenticateHeader(req.headers.authorization);
    return true;
  }
}

import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Response } from 'express';
import { Access } from '../../../platform/web/decorators/access.decorators';
import { SignInStep } from '../../../platform/web/http/browser-cookie';
import { Errors, Redirects } from '../../../platform/openapi/decorators';
import { SsoFlowService } from './sso-flow.service';

/**
 * Access: public, as the start of a sign-in through the deployment-wide provider (OIDC_*). The round trip is
 * bound to the browser that started it by a signed HttpOnly cookie holding state, nonce and the PKCE verifier,
 * read back by GET /callback, which ends every OIDC round trip.
 */
@ApiTags('auth')
@Controller()
export class SsoController {
  constructor(private readonly flow: SsoFlowService) {}

  /**
   * `prompt=login` asks the provider to authenticate the person again (with max_age=0), whatever session they have
   * there. With the `stepUp` ticket of POST /auth/step-up/sso, the round trip is a re-authentication of the signed-in
   * session it names (docs/product-rules.md §7): its callback marks that session instead of opening one. A sign-in's
   * `returnTo` (a path of the OpenID provider's sign-in, else ignored) is where it ends.
   */
  @Redirects("To the identity provider's authorization endpoint")
  @Errors(404, 502)
  @Access.public()
  @Get('auth/sso')
  @SignInStep()
  async start(
    @Res() res: Response,
    @Query('prompt') prompt?: string,
    @Query('stepUp') stepUpTicket?: string,
    @Query('returnTo') returnTo?: string,
  ): Promise<void> {
    await this.flow.startDeploymentWide(res, { prompt, returnTo, tickets: { stepUp: stepUpTicket } });
  }
}

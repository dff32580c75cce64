import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { JwtService } from '@nestjs/jwt';
import { Response } from 'express';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { Access } from '../../common/decorators/access.decorators';
import { SsoService } from '../connectors/deployment-oidc.service';
import { StepUpService } from '../../step-up/step-up.service';
import { Errors, Redirects } from '../../openapi/decorators';

/** Read back by GET /callback (round-trip/sso-flow.service.ts), which ends every OIDC round trip. */
const TRANSACTION_COOKIE = 'ssoTransaction';
const TRANSACTION_SECONDS = 10 * 60;

/**
 * Access: public, as the start of a sign-in through the deployment-wide provider (OIDC_*). The round trip is
 * bound to the browser that started it by a signed HttpOnly cookie holding state, nonce and the PKCE verifier.
 */
@ApiTags('auth')
@Controller()
export class SsoController {
  constructor(
    private readonly sso: SsoService,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stepUps: StepUpService,
  ) {}

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }

  /**
   * `prompt=login` asks the provider to authenticate the person again (with max_age=0), whatever session they have
   * there. With the `stepUp` ticket of POST /auth/step-up/sso, the round trip is a re-authentication of the signed-in
   * session it names (docs/product-rules.md §7): its callback marks that session instead of opening one.
   */
  @Redirects("To the identity provider's authorization endpoint")
  @Errors(404, 502)
  @Access.public()
  @Get('auth/sso')
  async start(
    @Res() res: Response,
    @Query('prompt') prompt?: string,
    @Query('stepUp') stepUpTicket?: string,
  ): Promise<void> {
    const stepUp = stepUpTicket === undefined ? undefined : this.stepUps.readSsoTicket(stepUpTicket);
    if (stepUpTicket !== undefined && !stepUp) {
      res.redirect(302, `/logIn?ssoError=${encodeURIComponent(STEP_UP_TICKET_INVALID)}`);
      return;
    }
    const { url, transaction } = await this.sso.start({ reauthenticate: prompt === 'login' || !!stepUp });
    const carried = { typ: 'sso', ...transaction, ...(stepUp ? { stepUp } : {}) };
    // Lax, not Strict: the cookie must come back on the identity provider's top-level redirect.
    res.cookie(TRANSACTION_COOKIE, this.jwt.sign(carried, { expiresIn: TRANSACTION_SECONDS }), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/callback',
      maxAge: TRANSACTION_SECONDS * 1000,
    });
    res.redirect(302, url);
  }
}

const STEP_UP_TICKET_INVALID = 'The confirmation took too long. Please try the action again.';

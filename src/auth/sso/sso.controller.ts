import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { JwtService } from '@nestjs/jwt';
import { Request, Response } from 'express';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { AppException } from '../../common/app.exception';
import { Public } from '../../common/decorators/access.decorators';
import { setRefreshCookie } from '../refresh-cookie';
import { SsoService, SsoTransaction } from './sso.service';

const TRANSACTION_COOKIE = 'ssoTransaction';
const TRANSACTION_SECONDS = 10 * 60;

/**
 * Access: public, as the start and the end of a sign-in. The round trip is bound to the browser that
 * started it by a signed HttpOnly cookie holding state, nonce and the PKCE verifier.
 */
@ApiTags('auth')
@Controller()
export class SsoController {
  constructor(
    private readonly sso: SsoService,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }

  @Public()
  @Get('auth/sso')
  async start(@Res() res: Response): Promise<void> {
    const { url, transaction } = await this.sso.start();
    // Lax, not Strict: the cookie must come back on the identity provider's top-level redirect.
    res.cookie(TRANSACTION_COOKIE, this.jwt.sign({ typ: 'sso', ...transaction }, { expiresIn: TRANSACTION_SECONDS }), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/callback',
      maxAge: TRANSACTION_SECONDS * 1000,
    });
    res.redirect(302, url);
  }

  @Public()
  @Get('callback')
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const raw = (req as Request & { cookies?: Record<string, string> }).cookies?.[TRANSACTION_COOKIE];
    res.clearCookie(TRANSACTION_COOKIE, { path: '/callback', sameSite: 'lax', secure: this.secure, httpOnly: true });
    let transaction: SsoTransaction | undefined;
    try {
      const payload = raw ? this.jwt.verify<SsoTransaction & { typ: string }>(raw) : undefined;
      if (payload?.typ === 'sso')
        transaction = { state: payload.state, nonce: payload.nonce, codeVerifier: payload.codeVerifier };
    } catch {
      transaction = undefined;
    }
    try {
      const { refreshToken } = await this.sso.finish(new URL(req.originalUrl, this.sso.redirectUri), transaction, {
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      setRefreshCookie(res, refreshToken, this.secure);
      // The client finds no access token, refreshes with the cookie just set, and is signed in (spec: callback → root).
      res.redirect(302, '/');
    } catch (e) {
      const message =
        e instanceof AppException
          ? (e.getResponse() as { message: string }).message
          : 'The corporate login did not succeed. Please try again.';
      res.redirect(302, `/logIn?ssoError=${encodeURIComponent(message)}`);
    }
  }
}

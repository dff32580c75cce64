import type { AuthStatus, CurrentUserInfo } from '../../shared/api-types';
import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Request, Response } from 'express';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import {
  CurrentChallenge,
  CurrentProfile,
  OptionalCaller,
  SignInChallenge,
} from '../../platform/web/decorators/current-user.decorator';
import { Client, RequestContext } from '../../platform/web/request-context';
import { SignedIn } from './auth.service';
import { SignedInSessionService } from './signed-in-session.service';
import { LocalAuthGuard } from './local.strategy';
import { PasswordChangeService } from './passwords/password-change.service';
import { ForgotPasswordService } from './passwords/forgot-password.service';
import { ResetPasswordService } from './passwords/reset-password.service';
import { LoginDto } from './dto/login.dto';
import { ChangePasswordDto, ForgotPasswordDto, ResetPasswordDto } from './dto/password.dto';
import { clearRefreshCookie, REFRESH_COOKIE, setRefreshCookie } from '../../platform/web/http/refresh-cookie';
import { TokenService } from '../credentials/token.service';
import { originOf } from '../credentials/session-auth.service';
import { Answers } from '../../platform/openapi/decorators';
import { SignInStep } from '../../platform/web/http/browser-cookie';

/**
 * Access: every route here is public by nature (signing in, refreshing, recovering a password);
 * the steps after the first are bound to their challenge token (verified by the access guard), logout to the
 * caller's own token.
 */
@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    private readonly signedIn: SignedInSessionService,
    private readonly passwordChange: PasswordChangeService,
    private readonly forgotPasswords: ForgotPasswordService,
    private readonly resetPasswords: ResetPasswordService,
    private readonly tokens: TokenService,
  ) {}

  @Answers(200, 'LoginAnswer')
  @Access.challenge('mfa', { optional: true })
  @Post('auth/login')
  @SignInStep()
  @UseGuards(LocalAuthGuard)
  @HttpCode(200)
  // The body was validated and the sign-in run by LocalAuthGuard; @Body() declares it (docs, the route inventory).
  login(@Body() _body: LoginDto, @Req() req: Request & { user: SignedIn }, @Res({ passthrough: true }) res: Response) {
    const { accessToken, refreshToken, recoveryCodesLeft, trustedDevice } = req.user;
    setRefreshCookie(res, refreshToken, this.tokens.cookieSecure);
    // A newly trusted device's cookie; after a recovery code, how many are left.
    if (trustedDevice) res.cookie(trustedDevice.name, trustedDevice.value, trustedDevice.options);
    return { success: true, accessToken, ...(recoveryCodesLeft !== undefined ? { recoveryCodesLeft } : {}) };
  }

  @Answers(200, 'SuccessOnly')
  @Access.challenge('change-password')
  @Post('auth/change-password')
  @HttpCode(200)
  changePassword(
    @Body() dto: ChangePasswordDto,
    @CurrentChallenge() challenge: SignInChallenge,
    @Req() req: Request,
    @Client() client: RequestContext,
  ) {
    return this.passwordChange.changeForcedPassword(challenge.userId(), dto, req.ip ?? 'unknown', client);
  }

  @Answers(200, 'SuccessMessage')
  @Access.public()
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @Post('auth/forgot-password')
  @HttpCode(200)
  forgotPassword(@Body() dto: ForgotPasswordDto, @Client() client: RequestContext) {
    return this.forgotPasswords.forgotPassword(dto, client);
  }

  @Answers(200, 'SuccessOnly')
  @Access.public()
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @Post('auth/reset-password')
  @HttpCode(200)
  resetPassword(@Body() dto: ResetPasswordDto, @Client() client: RequestContext) {
    return this.resetPasswords.resetPassword(dto, client);
  }

  @Answers(200, 'AuthStatus')
  @Access.public({ session: 'optional' })
  @Get('auth/status')
  status(@OptionalCaller() caller: AuthUser | null, @CurrentProfile() profile: CurrentUserInfo): AuthStatus {
    return caller ? { authenticated: true, user: profile } : { authenticated: false };
  }

  @Answers(200, 'LogoutResult')
  @Access.public({ session: 'optional' })
  @Post('auth/logout')
  @HttpCode(200)
  async logout(
    @OptionalCaller() caller: AuthUser | null,
    @Res({ passthrough: true }) res: Response,
    @Client() client: RequestContext,
  ) {
    const logoutUrl = caller ? await this.signedIn.logout(caller.sessionId, client) : undefined;
    clearRefreshCookie(res, this.tokens.cookieSecure);
    return logoutUrl ? { success: true, logoutUrl } : { success: true };
  }

  @Answers(200, 'RefreshAnswer')
  @Access.public({ refreshCookie: true })
  @Post('refresh')
  @HttpCode(200)
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const cookies = (req as Request & { cookies?: Record<string, string> }).cookies ?? {};
    try {
      const { accessToken, refreshToken } = await this.signedIn.refresh(cookies[REFRESH_COOKIE], originOf(req));
      if (refreshToken) setRefreshCookie(res, refreshToken, this.tokens.cookieSecure);
      return { success: true, newAccessToken: accessToken };
    } catch (e) {
      clearRefreshCookie(res, this.tokens.cookieSecure);
      throw e;
    }
  }
}

import type { AuthStatus } from '../shared/api-types';
import { Body, Controller, Get, Headers, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Request, Response } from 'express';
import { Public } from '../common/decorators/access.decorators';
import { Client, RequestContext } from '../common/request-context';
import { AuthService, SignedIn } from './auth.service';
import { LocalAuthGuard } from './local.strategy';
import { PasswordChangeService } from './passwords/password-change.service';
import { ForgotPasswordService } from './passwords/forgot-password.service';
import { ResetPasswordService } from './passwords/reset-password.service';
import { LoginDto } from './dto/login.dto';
import { ChangePasswordDto, ForgotPasswordDto, ResetPasswordDto } from './dto/password.dto';
import { clearRefreshCookie, REFRESH_COOKIE, setRefreshCookie } from '../common/http/refresh-cookie';
import { AppException } from '../common/app.exception';
import { SessionAuthService } from '../credentials/session-auth.service';
import { TokenService } from '../credentials/token.service';
import { Answers, Credentials } from '../openapi/decorators';

/**
 * Access: every route here is public by nature (signing in, refreshing, recovering a password);
 * the steps after the first are bound to their challenge token, logout to the caller's own token.
 */
@ApiTags('auth')
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly passwordChange: PasswordChangeService,
    private readonly forgotPasswords: ForgotPasswordService,
    private readonly resetPasswords: ResetPasswordService,
    private readonly tokens: TokenService,
    private readonly sessionAuth: SessionAuthService,
  ) {}

  @Answers(200, 'LoginAnswer')
  @Credentials(['challenge'], true)
  @Public()
  @Post('auth/login')
  @UseGuards(LocalAuthGuard)
  @HttpCode(200)
  @ApiBearerAuth()
  // The body was validated and the sign-in run by LocalAuthGuard; @Body() declares it (docs, the route inventory).
  login(@Body() _body: LoginDto, @Req() req: Request & { user: SignedIn }, @Res({ passthrough: true }) res: Response) {
    const { accessToken, refreshToken, recoveryCodesLeft, trustedDevice } = req.user;
    setRefreshCookie(res, refreshToken, this.tokens.cookieSecure);
    // A newly trusted device's cookie; after a recovery code, how many are left.
    if (trustedDevice) res.cookie(trustedDevice.name, trustedDevice.value, trustedDevice.options);
    return { success: true, accessToken, ...(recoveryCodesLeft !== undefined ? { recoveryCodesLeft } : {}) };
  }

  @Answers(200, 'SuccessOnly')
  @Credentials(['challenge'])
  @Public()
  @Post('auth/change-password')
  @HttpCode(200)
  @ApiBearerAuth()
  changePassword(
    @Body() dto: ChangePasswordDto,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
    @Client() client: RequestContext,
  ) {
    return this.passwordChange.changeForcedPassword(authorization, dto, req.ip ?? 'unknown', client);
  }

  @Answers(200, 'SuccessMessage')
  @Public()
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @Post('auth/forgot-password')
  @HttpCode(200)
  forgotPassword(@Body() dto: ForgotPasswordDto, @Client() client: RequestContext) {
    return this.forgotPasswords.forgotPassword(dto, client);
  }

  @Answers(200, 'SuccessOnly')
  @Public()
  @Throttle({ default: { limit: 10, ttl: 60_000 } })
  @Post('auth/reset-password')
  @HttpCode(200)
  resetPassword(@Body() dto: ResetPasswordDto, @Client() client: RequestContext) {
    return this.resetPasswords.resetPassword(dto, client);
  }

  @Answers(200, 'AuthStatus')
  @Credentials(['bearer'], true)
  @Public()
  @Get('auth/status')
  @ApiBearerAuth()
  async status(@Headers('authorization') authorization: string | undefined): Promise<AuthStatus> {
    const signedIn = await this.sessionAuth.authenticateHeader(authorization).catch((e: unknown) => {
      if (e instanceof AppException) return null;
      throw e;
    });
    return signedIn ? { authenticated: true, user: signedIn.profile } : { authenticated: false };
  }

  @Answers(200, 'LogoutResult')
  @Credentials(['bearer'], true)
  @Public()
  @Post('auth/logout')
  @HttpCode(200)
  @ApiBearerAuth()
  async logout(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) res: Response,
    @Client() client: RequestContext,
  ) {
    const logoutUrl = await this.auth.logout(authorization, client);
    clearRefreshCookie(res, this.tokens.cookieSecure);
    return logoutUrl ? { success: true, logoutUrl } : { success: true };
  }

  @Answers(200, 'RefreshAnswer')
  @Credentials(['refreshCookie'])
  @Public()
  @Post('refresh')
  @HttpCode(200)
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const cookies = (req as Request & { cookies?: Record<string, string> }).cookies ?? {};
    try {
      const { accessToken, refreshToken } = await this.auth.refresh(cookies[REFRESH_COOKIE]);
      if (refreshToken) setRefreshCookie(res, refreshToken, this.tokens.cookieSecure);
      return { success: true, newAccessToken: accessToken };
    } catch (e) {
      clearRefreshCookie(res, this.tokens.cookieSecure);
      throw e;
    }
  }
}

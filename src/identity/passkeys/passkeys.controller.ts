import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { AuthUser } from '../../platform/web/auth-user';
import { Access } from '../../platform/web/decorators/access.decorators';
import { CurrentChallenge, CurrentUser, SignInChallenge } from '../../platform/web/decorators/current-user.decorator';
import { ParseIdPipe } from '../../platform/web/pipes/parse-id.pipe';
import { Client, RequestContext } from '../../platform/web/request-context';
import { ALL_ROLES } from '../../shared/roles';
import { RegisterPasskeyDto, RenamePasskeyDto } from './dto/passkey.dto';
import { PasskeysService } from './passkeys.service';
import { Answers, Errors } from '../../platform/openapi/decorators';

/** Rate limits of the passkey calls (per account when signed in, per address otherwise), a minute each. */
export const PASSKEY_RATE_LIMITS = { OPTIONS: 30, REGISTER: 10 } as const;

/**
 * Access: the /mfa/passkeys routes act on the caller's own passkeys only, for every role, and stay open to an
 * account whose enforced MFA is still to be set up (a passkey satisfies it). Nobody manages another account's
 * passkeys; an administrator removes them all with 'Disable User MFA'. Adding one (its registration options) and
 * removing one need a recent proof of identity (docs/product-rules.md §7), so a taken-over session cannot give
 * itself a password-less way in.
 */
@ApiTags('mfa')
@Controller('mfa/passkeys')
export class PasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Answers(200, 'PasskeyOptions')
  @Post('registration-options')
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, mfaPending: true, stepUp: true })
  @Throttle({ default: { limit: PASSKEY_RATE_LIMITS.OPTIONS, ttl: 60_000 } })
  registrationOptions(@CurrentUser() user: AuthUser) {
    return this.passkeys.registrationOptions(user);
  }

  @Answers(200, 'PasskeyItem')
  @Post()
  @HttpCode(200)
  @Access({ roles: ALL_ROLES, mfaPending: true, supportSession: 'refused' })
  @Throttle({ default: { limit: PASSKEY_RATE_LIMITS.REGISTER, ttl: 60_000 } })
  register(@CurrentUser() user: AuthUser, @Body() dto: RegisterPasskeyDto, @Client() client: RequestContext) {
    return this.passkeys.register(user, dto.name, dto.response as unknown as RegistrationResponseJSON, client);
  }

  @Answers(200, ['PasskeyItem'])
  @Get()
  @Access({ roles: ALL_ROLES, mfaPending: true })
  list(@CurrentUser() user: AuthUser) {
    return this.passkeys.list(user.id);
  }

  @Answers(200, 'PasskeyItem')
  @Patch(':id')
  @Access({ roles: ALL_ROLES, mfaPending: true, supportSession: 'refused' })
  rename(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: number, @Body() dto: RenamePasskeyDto) {
    return this.passkeys.rename(user, id, dto.name);
  }

  @Answers(200, 'SuccessOnly')
  @Delete(':id')
  @Access({ roles: ALL_ROLES, mfaPending: true, stepUp: true })
  remove(@CurrentUser() user: AuthUser, @Param('id', ParseIdPipe) id: number, @Client() client: RequestContext) {
    return this.passkeys.remove(user, id, client);
  }
}

/**
 * Access: public, as the sign-in it serves. With a login's MFA challenge token as bearer, the options name that
 * account's passkeys (the MFA step); without, they are for a password-less sign-in with a discoverable passkey.
 * Every verification needs a fresh challenge from here, so this route's limit bounds the guesses too.
 */
@ApiTags('auth')
@Controller('auth/passkey')
export class PasskeyLoginController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Answers(200, 'PasskeyOptions')
  @Access.challenge('mfa', { optional: true })
  @Errors(400)
  @Post('options')
  @HttpCode(200)
  @Throttle({ default: { limit: PASSKEY_RATE_LIMITS.OPTIONS, ttl: 60_000 } })
  options(@CurrentChallenge() challenge: SignInChallenge) {
    return this.passkeys.authenticationOptions(challenge.given ? challenge.userId() : null);
  }
}

import { SessionMethod, SIGN_IN_FAILURE_REASONS, signInMethodOf } from '../../shared/administration/insights';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AssertionResult, PasskeysService } from '../passkeys';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { DeviceCookie } from '../trusted-devices';
import { SignInAttempts, SignInClient } from './sign-in/sign-in-attempts';
import { SecondFactorStep } from './sign-in/second-factor.step';
import { OrganisationSignInRules } from './sign-in/organisation-sign-in-rules';
import { assertMaySignIn } from './sign-in/assert-may-sign-in';
import { Session, SessionsService } from '../sessions';
import { ClientInfo } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import { AUTH_MESSAGES, ERROR_CODES } from '../../shared/messages';
import { LoginDto } from './dto/login.dto';
import { TokenService } from '../credentials/token.service';
import { SignInChallenge } from '../../platform/web/decorators/current-user.decorator';

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  /** After a sign-in with a recovery code, how many are left. */
  recoveryCodesLeft?: number;
  /** The cookie of a newly trusted device. */
  trustedDevice?: DeviceCookie;
}

/**
 * Sign-in as a state machine over one call (docs/product-rules.md §3): credentials, then the second factor when the
 * account has MFA, then a forced password change when one is due; each step that needs more answers
 * 401 with a code and a short challenge token for the next. The organisation's rules are OrganisationSignInRules';
 * a session's refresh and logout, SignedInSessionService's.
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly attempts: SignInAttempts,
    private readonly rules: OrganisationSignInRules,
    private readonly secondFactor: SecondFactorStep,
    private readonly passkeys: PasskeysService,
    private readonly tokens: TokenService,
    private readonly sessions: SessionsService,
  ) {}

  /** POST /auth/login: the steps in order; each one that is not passed answers for itself. */
  async login(
    dto: LoginDto,
    challenge: SignInChallenge,
    client: SignInClient,
    cookies?: Record<string, string>,
  ): Promise<SignedIn> {
    if (!dto.acceptToS) throw AppException.badRequest(AUTH_MESSAGES.TERMS_NOT_ACCEPTED, ERROR_CODES.TERMS_NOT_ACCEPTED);
    // A passkey alone is a password-less sign-in.
    if (dto.passkey && dto.username === undefined && dto.password === undefined)
      return this.loginWithPasskey(dto.passkey, client);
    const { user, organisation, failuresCounted } = await this.attempts.checkPassword(
      dto.username.toLowerCase(),
      dto.password,
      client,
    );
    assertMaySignIn(user);
    // The organisation's rules before the second factor, so that no code is sent to someone who may not sign in here.
    const policy = await this.rules.policyFor(user, organisation);
    await this.rules.assertAddressAllowed(user, client, 'password', policy);
    await this.rules.assertSsoNotRequired(user, client, 'password', policy);
    const { recoveryCodesLeft, rememberDevice, factor } = await this.secondFactor.pass(
      user,
      dto,
      challenge,
      client,
      cookies,
    );
    // The session records the factors used: the OpenID provider's amr and acr come from it.
    const method: SessionMethod = factor ? `password+${factor}` : 'password';
    const signedIn = await this.completeLogin(user, client, method, {
      addressChecked: true,
      failuresCounted,
    });
    if (recoveryCodesLeft !== undefined) signedIn.recoveryCodesLeft = recoveryCodesLeft;
    if (rememberDevice) signedIn.trustedDevice = await this.secondFactor.trustDevice(user, client);
    return signedIn;
  }

  /**
   * The last steps of every sign-in with credentials: a due password change, then the session (`addressChecked`: the
   * organisation's address ranges were checked earlier in this request, and are not read again; `failuresCounted:
   * false`: this request's throttle check found no failure to clear).
   */
  private async completeLogin(
    user: User,
    client: SignInClient,
    method: string,
    { addressChecked = false, failuresCounted = true }: { addressChecked?: boolean; failuresCounted?: boolean } = {},
  ): Promise<SignedIn> {
    if (user.mustChangePassword) {
      throw AppException.unauthorized(AUTH_MESSAGES.PASSWORD_CHANGE_REQUIRED, ERROR_CODES.PASSWORD_CHANGE_REQUIRED, {
        challengeToken: this.tokens.signChallenge(user.id, 'change-password'),
      });
    }
    await this.attempts.succeeded(user.email, client.ip, failuresCounted);
    return addressChecked ? this.openSession(user, client, method) : this.signIn(user, client, method);
  }

  /**
   * A password-less sign-in with a discoverable passkey (user verification required, so it is both factors and no
   * TOTP follows). The account's lock-out, access and password-change checks, the organisation's single sign-on
   * requirement and the session's concurrent-users limit are those of a password sign-in.
   */
  private async loginWithPasskey(response: object, client: SignInClient): Promise<SignedIn> {
    const checked: AssertionResult = await this.passkeys.verifyAssertion(response as AuthenticationResponseJSON, null);
    const known = checked.user;
    if (known) await this.attempts.check(known.email, client, 'passkey');
    if (!checked.ok) {
      if (known) await this.attempts.countFailure(known.email, client.ip, known);
      await this.attempts.refused(
        'SIGN_IN_FAILED',
        known?.email ?? 'an unknown passkey',
        known,
        client,
        SIGN_IN_FAILURE_REASONS.PASSKEY_NOT_VERIFIED,
        { method: 'passkey', reason: 'PASSKEY_NOT_VERIFIED' },
      );
      throw checked.error;
    }
    assertMaySignIn(checked.user);
    await this.rules.assertSsoNotRequired(checked.user, client, 'passkey');
    return this.completeLogin(checked.user, client, 'passkey');
  }

  /** Opens a session for an account whose identity is established (password steps or SSO). */
  async signIn(
    user: User,
    client: ClientInfo,
    method: string,
    within?: (tx: EntityManager, session: Session) => Promise<void>,
  ): Promise<SignedIn> {
    await this.rules.assertAddressAllowed(user, client, signInMethodOf(method));
    return this.openSession(user, client, method, within);
  }

  private async openSession(
    user: User,
    client: ClientInfo,
    method: string,
    within?: (tx: EntityManager, session: Session) => Promise<void>,
  ): Promise<SignedIn> {
    // One transaction: concurrent-users limit, session, refresh token, last login.
    const { session, refreshToken } = await this.sessions.start(user, client, method, within);
    return { accessToken: this.tokens.signAccess(user.id, session.id), refreshToken };
  }
}

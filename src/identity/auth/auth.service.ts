import {
  SessionMethod,
  SIGN_IN_FAILURE_REASONS,
  SignInMethod,
  signInMethodOf,
} from '../../shared/administration/insights';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { AssertionResult, PasskeysService } from '../passkeys';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { DeviceCookie } from '../trusted-devices';
import { SignInAttempts, SignInClient } from './sign-in/sign-in-attempts';
import { SecondFactorStep } from './sign-in/second-factor.step';
import { assertMaySignIn } from './sign-in/assert-may-sign-in';
import { Session, SessionsService } from '../sessions';
import { ClientInfo } from '../../platform/web/request-context';
import { User } from '../../platform/database/entities/user.entity';
import { AUTH_MESSAGES, ERROR_CODES } from '../../shared/messages';
import { LoginDto } from './dto/login.dto';
import { PasswordService } from '../credentials/password.service';
import { TokenService } from '../credentials/token.service';
import { SignInChallenge } from '../../platform/web/decorators/current-user.decorator';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { addressAllowed } from '../credentials/security-policy-rules';
import { CallOrigin, SessionAuthService } from '../credentials/session-auth.service';
import { Role } from '../../shared/roles';
import { SECURITY_POLICY_MESSAGES } from '../../shared/administration/security-policy';
import { Requires } from '../../platform/wiring';
import { SignInPolicy, SsoRequirement } from './sign-in/sso-requirement';
import { LogoutRedirect } from './logout-redirect';

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
 * 401 with a code and a short challenge token for the next.
 */
@Injectable()
export class AuthService {
  /** The organisation's requirement of its single sign-on (SSO_REQUIRED, with where it starts). */
  @Requires(SsoRequirement) private readonly ssoRequirement!: SsoRequirement;
  /** Where an SSO session's logout continues. */
  @Requires(LogoutRedirect) private readonly logoutRedirect!: LogoutRedirect;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly sessionAuth: SessionAuthService,
    private readonly passwords: PasswordService,
    private readonly tokens: TokenService,
    private readonly sessions: SessionsService,
    private readonly attempts: SignInAttempts,
    private readonly secondFactor: SecondFactorStep,
    private readonly passkeys: PasskeysService,
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
    const { user, failuresCounted } = await this.checkPassword(dto.username.toLowerCase(), dto.password, client);
    assertMaySignIn(user);
    // The organisation's rules before the second factor, so that no code is sent to someone who may not sign in here.
    const policy = await this.signInPolicy(user);
    await this.assertAddressAllowed(user, client, 'password', policy);
    await this.assertSsoNotRequired(user, client, 'password', policy);
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
   * The throttle, then the account and its password. Always one argon2 verification (against a dummy hash without an
   * account or a password), so the answer takes as long for an unknown e-mail as for a wrong password.
   * `failuresCounted`: whether the throttle counts failures against the account (a success clears them).
   */
  private async checkPassword(
    email: string,
    password: string,
    client: SignInClient,
  ): Promise<{ user: User; failuresCounted: boolean }> {
    const failuresCounted = await this.attempts.check(email, client);
    const user = await this.users.findOneBy({ email });
    const checked = await this.passwords.verifyAccount(user, password);
    if (!user || checked !== 'right') {
      // A password blocked after "This wasn't me" is answered and counted as a wrong one: whoever holds it learns
      // nothing, not even that it was right; the trail records why.
      await this.attempts.failed(email, user, client, checked === 'blocked' ? 'PASSWORD_BLOCKED' : 'WRONG_PASSWORD');
      throw AppException.unauthorized(AUTH_MESSAGES.INVALID_CREDENTIALS, ERROR_CODES.INVALID_CREDENTIALS);
    }
    return { user, failuresCounted };
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
    await this.assertSsoNotRequired(checked.user, client, 'passkey');
    return this.completeLogin(checked.user, client, 'passkey');
  }

  /**
   * After the password or a password-less passkey proved who signs in: the organisation's policy may require its
   * provider instead (401 SSO_REQUIRED with where it starts), recorded as a refused sign-in by that method.
   */
  private async assertSsoNotRequired(
    user: User,
    client: SignInClient,
    method: Exclude<SignInMethod, 'sso'>,
    policy?: SignInPolicy | null,
  ): Promise<void> {
    const url = await this.ssoRequirement.requiredFor(user, policy);
    if (url === undefined) return;
    await this.attempts.refused('SIGN_IN_FAILED', user.email, user, client, SIGN_IN_FAILURE_REASONS.SSO_REQUIRED, {
      method,
      reason: 'SSO_REQUIRED',
    });
    throw AppException.unauthorized(SECURITY_POLICY_MESSAGES.SSO_REQUIRED, ERROR_CODES.SSO_REQUIRED, { url });
  }

  /**
   * What the organisation asks of a sign-in (its address ranges, single sign-on), read once for the steps that
   * check it; null for an E-Support account, which no organisation's policy binds.
   */
  private async signInPolicy(user: User): Promise<SignInPolicy | null> {
    if (user.roleId === Role.E_SUPPORT) return null;
    return this.organisations.findOne({
      select: { id: true, allowedIpRanges: true, ssoRequired: true, ssoRequiredBy: true },
      where: { id: user.organisationId },
    });
  }

  /**
   * The organisation's address ranges at sign-in, by every way in (password, passkey, SSO); E-Support accounts are
   * bound by none. Refused with 403 IP_NOT_ALLOWED, recorded in the audit trail.
   */
  private async assertAddressAllowed(
    user: User,
    client: ClientInfo,
    method: SignInMethod,
    policy?: SignInPolicy | null,
  ): Promise<void> {
    const org = policy === undefined ? await this.signInPolicy(user) : policy;
    if (!org || addressAllowed(org.allowedIpRanges, client.ip)) return;
    await this.attempts.refused('SIGN_IN_FAILED', user.email, user, client, SIGN_IN_FAILURE_REASONS.IP_NOT_ALLOWED, {
      method,
      reason: 'IP_NOT_ALLOWED',
    });
    throw AppException.forbidden(SECURITY_POLICY_MESSAGES.IP_NOT_ALLOWED, ERROR_CODES.IP_NOT_ALLOWED);
  }

  /** Opens a session for an account whose identity is established (password steps or SSO). */
  async signIn(
    user: User,
    client: ClientInfo,
    method: string,
    within?: (tx: EntityManager, session: Session) => Promise<void>,
  ): Promise<SignedIn> {
    await this.assertAddressAllowed(user, client, signInMethodOf(method));
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

  async refresh(raw: string | undefined, origin: CallOrigin): Promise<{ accessToken: string; refreshToken?: string }> {
    // rotate() refuses (and ends) the session of an account disabled, blocked or gone.
    const { session, refreshToken } = await this.sessions.rotate(raw);
    // Then the organisation's policy, as on every call (its session lifetimes, its address ranges), and its single
    // sign-on requirement; the idle limit counts from the refresh before this one.
    if (session.sessionRules !== false)
      await this.sessionAuth.enforceOnRefresh(session.id, origin, session.previousRefreshAt);
    return { accessToken: this.tokens.signAccess(session.userId, session.id), refreshToken };
  }

  /** Ends the caller's session; answers where the browser goes next when the provider's session must end too. */
  async logout(sessionId: string, client?: ClientInfo): Promise<string | undefined> {
    // Read before the end: a session that is over already has nothing left to end at the provider.
    const active = await this.sessions.isActive(sessionId);
    const logoutUrl = active ? await this.logoutRedirect.logoutUrl(sessionId) : undefined;
    await this.sessions.end(sessionId, 'logout', client);
    return logoutUrl;
  }
}

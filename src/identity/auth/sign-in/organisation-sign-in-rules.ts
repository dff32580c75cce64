import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SIGN_IN_FAILURE_REASONS, SignInMethod } from '../../../shared/administration/insights';
import { SECURITY_POLICY_MESSAGES } from '../../../shared/administration/security-policy';
import { ERROR_CODES } from '../../../shared/messages';
import { Role } from '../../../shared/roles';
import { AppException } from '../../../platform/web/app.exception';
import { ClientInfo } from '../../../platform/web/request-context';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { findRow } from '../../../platform/database/entity-rows';
import { Requires } from '../../../platform/wiring';
import { addressAllowed } from '../../credentials/security-policy-rules';
import { SignInAttempts, SignInClient } from './sign-in-attempts';
import { SIGN_IN_POLICY_COLUMNS, SignInPolicy, SsoRequirement } from './sso-requirement';

/**
 * What the organisation's security policy asks of a sign-in before it opens a session: its address ranges (every
 * way in) and its requirement of single sign-on (a password or a passkey alone); each refusal is audited.
 */
@Injectable()
export class OrganisationSignInRules {
  /** The organisation's requirement of its single sign-on (SSO_REQUIRED, with where it starts). */
  @Requires(SsoRequirement) private readonly ssoRequirement!: SsoRequirement;

  constructor(
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly attempts: SignInAttempts,
  ) {}

  /**
   * What the organisation asks of a sign-in (its address ranges, single sign-on), read once for the steps that
   * check it; null for an E-Support account, which no organisation's policy binds. `read`: the organisation's row as
   * the account's read brought it ({@link SignInAttempts.checkPassword}), so that it is not read again.
   */
  async policyFor(user: User, read?: SignInPolicy | null): Promise<SignInPolicy | null> {
    if (user.roleId === Role.E_SUPPORT) return null;
    if (read !== undefined) return read;
    return findRow(this.organisations, { id: user.organisationId }, { select: SIGN_IN_POLICY_COLUMNS });
  }

  /**
   * The organisation's address ranges at sign-in, by every way in (password, passkey, SSO); E-Support accounts are
   * bound by none. Refused with 403 IP_NOT_ALLOWED, recorded in the audit trail.
   */
  async assertAddressAllowed(
    user: User,
    client: ClientInfo,
    method: SignInMethod,
    policy?: SignInPolicy | null,
  ): Promise<void> {
    const org = policy === undefined ? await this.policyFor(user) : policy;
    if (!org || addressAllowed(org.allowedIpRanges, client.ip)) return;
    await this.attempts.refused('SIGN_IN_FAILED', user.email, user, client, SIGN_IN_FAILURE_REASONS.IP_NOT_ALLOWED, {
      method,
      reason: 'IP_NOT_ALLOWED',
    });
    throw AppException.forbidden(SECURITY_POLICY_MESSAGES.IP_NOT_ALLOWED, ERROR_CODES.IP_NOT_ALLOWED);
  }

  /**
   * After the password or a password-less passkey proved who signs in: the organisation's policy may require its
   * provider instead (401 SSO_REQUIRED with where it starts), recorded as a refused sign-in by that method.
   */
  async assertSsoNotRequired(
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
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { type SignInPolicy, SsoRequirement } from '../../auth';
import { SsoAccount, SsoCoverage } from '../../credentials/sso-coverage';
import { Implements } from '../../../platform/wiring';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { VerifiedDomainsService } from '../../domains';
import { emailDomain } from '../../../shared/identity/domains';
import { Role } from '../../../shared/roles';
import { SsoDiscoveryResult } from '../../../shared/identity/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoIdentity } from '../entities/sso-identity.entity';
import { SsoSession } from '../entities/sso-session.entity';

/**
 * POST /auth/sso/discover: the login card asks where an e-mail signs in. Also tells sign-in by password or by a
 * passkey alone when the organisation's security policy requires its provider of an account (ssoRequired).
 */
@Injectable()
@Implements(SsoRequirement, SsoCoverage)
export class SsoDiscoveryService implements SsoRequirement, SsoCoverage {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    @InjectRepository(SsoSession) private readonly ssoSessions: Repository<SsoSession>,
    @InjectRepository(SsoIdentity) private readonly identities: Repository<SsoIdentity>,
    private readonly domains: VerifiedDomainsService,
  ) {}

  /**
   * Looks at the e-mail's domain only, never at accounts, so the answer and the time it takes are the same
   * whether or not an account exists.
   */
  async discover(email: string): Promise<SsoDiscoveryResult> {
    const organisationId = await this.domains.organisationForEmail(email);
    if (organisationId === null) return { sso: false };
    return this.answer(organisationId, email);
  }

  /**
   * Whether an address of `organisationId` signs in through its provider: the organisation verified the address's
   * domain and has an enabled connection (an invitation's page asks this for the organisation that invited).
   */
  async discoverFor(organisationId: number, email: string): Promise<SsoDiscoveryResult> {
    if ((await this.domains.organisationForEmail(email)) !== organisationId) return { sso: false };
    return this.answer(organisationId, email);
  }

  private async answer(organisationId: number, email: string): Promise<SsoDiscoveryResult> {
    const url = await this.startUrl(organisationId, email);
    return url ? { sso: true, url: url.url, name: url.name } : { sso: false };
  }

  /**
   * Where the account must sign in instead of with its password or a passkey, or undefined when those are fine: its
   * organisation requires SSO, its e-mail is on a domain the organisation verified, and the organisation has a
   * provider. E-Support accounts and the site admin who saved the requirement keep their password and passkeys.
   * `policy`: the organisation's row as the sign-in read it already (null: no policy binds the account).
   */
  async requiredFor(user: User, policy?: SignInPolicy | null): Promise<string | undefined> {
    if (user.roleId === Role.E_SUPPORT) return undefined;
    const org =
      policy !== undefined
        ? policy
        : await this.organisations.findOne({
            select: { id: true, ssoRequired: true, ssoRequiredBy: true },
            where: { id: user.organisationId },
          });
    if (!org?.ssoRequired || org.ssoRequiredBy === user.id) return undefined;
    if ((await this.domains.organisationForEmail(user.email)) !== org.id) return undefined;
    return (await this.startUrl(org.id, user.email))?.url;
  }

  /**
   * Whether the organisation's requirement of single sign-on, which the caller found on, reaches this account: its
   * e-mail is on a domain the organisation verified and the organisation has a provider to send it to (the session
   * check asks this at a refresh and a step-up; E-Support and the site admin who saved it are its own to spare).
   */
  async covers(account: SsoAccount): Promise<boolean> {
    if ((await this.domains.organisationForEmail(account.email)) !== account.organisationId) return false;
    return this.connections.existsBy({ organisationId: account.organisationId, enabled: true });
  }

  /**
   * Of these accounts of an organisation that requires single sign-on (E-Support and the site admin who saved the
   * requirement already left out), the ids of those it covers: e-mail on a domain the organisation verified, and a
   * provider to send them to. Each domain is looked up once.
   */
  async coveredAmong(
    organisationId: number,
    accounts: ReadonlyArray<{ id: number; email: string }>,
  ): Promise<number[]> {
    if (accounts.length === 0) return [];
    if (!(await this.connections.existsBy({ organisationId, enabled: true }))) return [];
    const verified = new Map<string, boolean>();
    const covered: number[] = [];
    for (const account of accounts) {
      const domain = emailDomain(account.email);
      if (!domain) continue;
      if (!verified.has(domain)) verified.set(domain, await this.domains.isVerified(organisationId, domain));
      if (verified.get(domain)) covered.push(account.id);
    }
    return covered;
  }

  private async startUrl(organisationId: number, email: string): Promise<{ url: string; name: string } | undefined> {
    const c = await this.connections.findOne({ where: { organisationId, enabled: true }, order: { id: 'ASC' } });
    if (!c) return undefined;
    return { url: `/auth/sso/${c.id}?login_hint=${encodeURIComponent(email.trim())}`, name: c.name };
  }

  /**
   * The connection a signed-in account signs in through: the one that opened this session, else the first enabled
   * one the account is linked to; null: the deployment-wide provider.
   */
  async connectionOf(userId: number, sessionId: string): Promise<number | null> {
    const bySession = await this.ssoSessions.findOne({ where: { sessionId }, select: { connectionId: true } });
    if (bySession) return bySession.connectionId;
    const linked = await this.identities
      .createQueryBuilder('x')
      .innerJoin(SsoConnection, 'c', 'c.id = x.connectionId')
      .where('x.userId = :id', { id: userId })
      .andWhere('c.enabled = :on', { on: true })
      .orderBy('x.connectionId', 'ASC')
      .getOne();
    return linked ? linked.connectionId : null;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { VerifiedDomainsService } from '../domains/verified-domains.service';
import { SsoDiscoveryResult } from '../shared/sso';
import { SsoConnection } from './entities/sso-connection.entity';

/** POST /auth/sso/discover: the login card asks where an e-mail signs in. */
@Injectable()
export class SsoDiscoveryService {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    private readonly domains: VerifiedDomainsService,
  ) {}

  /**
   * Looks at the e-mail's domain only, never at accounts, so the answer and the time it takes are the same
   * whether or not an account exists.
   */
  async discover(email: string): Promise<SsoDiscoveryResult> {
    const organisationId = await this.domains.organisationForEmail(email);
    if (organisationId === null) return { sso: false };
    return this.connectionOf(organisationId, email);
  }

  /**
   * Whether an address of `organisationId` signs in through its provider: the organisation verified the address's
   * domain and has an enabled connection (an invitation's page asks this for the organisation that invited).
   */
  async discoverFor(organisationId: number, email: string): Promise<SsoDiscoveryResult> {
    if ((await this.domains.organisationForEmail(email)) !== organisationId) return { sso: false };
    return this.connectionOf(organisationId, email);
  }

  private async connectionOf(organisationId: number, email: string): Promise<SsoDiscoveryResult> {
    const c = await this.connections.findOne({ where: { organisationId, enabled: true }, order: { id: 'ASC' } });
    if (!c) return { sso: false };
    return { sso: true, url: `/auth/sso/${c.id}?login_hint=${encodeURIComponent(email.trim())}`, name: c.name };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Response } from 'express';
import { Repository } from 'typeorm';
import { AppException } from '../../../platform/web/app.exception';
import { RequestContext } from '../../../platform/web/request-context';
import { ERROR_CODES } from '../../../shared/messages';
import { SSO_MESSAGES, SsoProtocol } from '../../../shared/identity/sso';
import { SsoConnection } from '../entities/sso-connection.entity';
import { DeploymentWideSignIn } from '../sign-in/deployment-wide-sign-in.service';
import { FederatedSignInService } from '../sign-in/federated-sign-in.service';
import { RoundTripEnd } from './round-trip-purpose';

/**
 * The connection a round trip goes through, and the end it hands to its purpose: the connection looked up again when
 * the answer comes back (usable, or merely existing for a purpose that tests disabled ones), the account a proven
 * identity is (a connection's linked account, or the deployment-wide provider's).
 */
@Injectable()
export class RoundTripEnds {
  constructor(
    @InjectRepository(SsoConnection) private readonly connections: Repository<SsoConnection>,
    private readonly federated: FederatedSignInService,
    private readonly deploymentWide: DeploymentWideSignIn,
  ) {}

  /** An enabled connection of this protocol, or the refusal the sign-in page shows. */
  async usable(id: number, protocol?: SsoProtocol): Promise<SsoConnection> {
    const c = await this.connections.findOneBy({ id });
    if (!c || (protocol && c.protocol !== protocol)) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    if (!c.enabled) throw AppException.forbidden(SSO_MESSAGES.DISABLED, ERROR_CODES.SSO_NOT_ALLOWED);
    return c;
  }

  /** A connection of this protocol, enabled or not: an administrator tests one before enabling it. */
  async existing(id: number, protocol?: SsoProtocol): Promise<SsoConnection> {
    const c = await this.connections.findOneBy(protocol ? { id, protocol } : { id });
    if (!c) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
    return c;
  }

  /** The end of a round trip through this protocol and connection (null: the deployment-wide provider). */
  end(
    protocol: SsoProtocol,
    connectionId: number | null,
    client: RequestContext,
    res: Response,
    identity: RoundTripEnd['identity'],
  ): RoundTripEnd {
    return {
      protocol,
      client,
      res,
      connection: async ({ disabledToo = false } = {}) => {
        if (connectionId === null) {
          if (disabledToo) throw AppException.notFound(SSO_MESSAGES.NOT_FOUND);
          return null;
        }
        return disabledToo ? this.existing(connectionId, protocol) : this.usable(connectionId, protocol);
      },
      identity,
      account: (c, proven) =>
        c ? this.federated.linkedAccount(c, proven.subject) : this.deploymentWide.account(proven),
      providerName: (c) => (c ? c.name : 'the corporate identity provider'),
    };
  }
}

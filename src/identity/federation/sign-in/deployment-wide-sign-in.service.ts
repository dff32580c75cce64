import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../../../platform/web/app.exception';
import { ClientInfo } from '../../../platform/web/request-context';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { assertMaySignIn, AuthService, SignedIn } from '../../auth';
import { ERROR_CODES } from '../../../shared/messages';
import { ProviderRefusal } from '../connectors/provider-refusal';
import { FederatedIdentity } from './federated-sign-in.service';

/**
 * Corporate single sign-on through the deployment-wide provider (OIDC_*, docs/product-rules.md §3), reached as one
 * more source of the OIDC connector: an identity signs in only as an existing, enabled account that is marked for
 * SSO in an organisation with SSO enabled. The provider proves the e-mail, the product decides access; no account
 * is created.
 */
@Injectable()
export class DeploymentWideSignIn {
  private readonly logger = new Logger('SSO');

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    private readonly auth: AuthService,
  ) {}

  async signIn(identity: FederatedIdentity, client: ClientInfo): Promise<SignedIn> {
    const user = await this.account(identity);
    return this.auth.signIn(user, client, 'sso');
  }

  /** The enabled SSO account of an SSO organisation with the e-mail the provider proved, or the refusal. */
  async account(identity: FederatedIdentity): Promise<User> {
    if (identity.emailVerified === false) {
      const detail = 'the e-mail address is not verified by the identity provider';
      this.logger.warn(`Corporate login failed: ${detail}`);
      throw new ProviderRefusal(detail);
    }
    const refused = () =>
      AppException.forbidden(
        'Your account is not enabled for corporate login. Please contact your administrator.',
        ERROR_CODES.SSO_NOT_ALLOWED,
      );
    if (!identity.email) throw refused();
    const user = await this.users.findOneBy({ email: identity.email });
    if (!user || !user.isSSO) throw refused();
    const org = await this.organisations.findOneBy({ id: user.organisationId });
    if (!org?.isSSOEnabled) throw refused();
    assertMaySignIn(user);
    return user;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Response } from 'express';
import { setRefreshCookie } from '../../common/http/refresh-cookie';
import { APP_CONFIG } from '../../config/app-config.module';
import { AppConfig } from '../../config/env.validation';
import { backToLogin, RoundTripEnd, RoundTripHandler } from '../round-trip/round-trip-purpose';
import { DeploymentWideSignIn } from './deployment-wide-sign-in.service';
import { FederatedSignInService } from './federated-sign-in.service';

/**
 * The end of a round trip that signs in: through a connection, the account its rules give (FederatedSignInService);
 * through the deployment-wide provider, the existing SSO account of the e-mail (DeploymentWideSignIn). Signed in, the
 * browser goes to `/` with the refresh cookie, where the client refreshes with it; refused, to the sign-in page with
 * the reason.
 */
@Injectable()
export class SignInEnd implements RoundTripHandler<unknown> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly federated: FederatedSignInService,
    private readonly deploymentWide: DeploymentWideSignIn,
  ) {}

  async end(_ticket: unknown, end: RoundTripEnd): Promise<void> {
    try {
      const c = await end.connection();
      const identity = await end.identity(c);
      const { refreshToken } = c
        ? await this.federated.signIn(c, identity, end.client)
        : await this.deploymentWide.signIn(identity, end.client);
      this.signedIn(end.res, refreshToken);
    } catch (e) {
      backToLogin(end.res, e);
    }
  }

  private signedIn(res: Response, refreshToken: string): void {
    setRefreshCookie(res, refreshToken, this.config.publicUrl.startsWith('https:'));
    res.redirect(302, '/');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Response } from 'express';
import { setRefreshCookie } from '../../../platform/web/http/refresh-cookie';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { providerReturnPath } from '../../../shared/identity/return-path';
import { backToLogin, RoundTripEnd, RoundTripHandler } from '../round-trip/round-trip-purpose';
import { DeploymentWideSignIn } from './deployment-wide-sign-in.service';
import { FederatedSignInService } from './federated-sign-in.service';

/**
 * The end of a round trip that signs in: through a connection, the account its rules give (FederatedSignInService);
 * through the deployment-wide provider, the existing SSO account of the e-mail (DeploymentWideSignIn). Signed in, the
 * browser goes with the refresh cookie (and its copy for the OpenID provider) to the provider's sign-in it came from
 * (the round trip's return path), else to `/`, where the client refreshes with it; refused, to the sign-in page with
 * the reason.
 */
@Injectable()
export class SignInEnd implements RoundTripHandler<string | undefined> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly federated: FederatedSignInService,
    private readonly deploymentWide: DeploymentWideSignIn,
  ) {}

  /** `returnTo`: the OpenID provider's path the round trip carried, if any. */
  async end(returnTo: string | undefined, end: RoundTripEnd): Promise<void> {
    try {
      const c = await end.connection();
      const identity = await end.identity(c);
      const { refreshToken } = c
        ? await this.federated.signIn(c, identity, end.client)
        : await this.deploymentWide.signIn(identity, end.client);
      this.signedIn(end.res, refreshToken, providerReturnPath(returnTo, this.config.publicUrl) ?? '/');
    } catch (e) {
      backToLogin(end.res, e);
    }
  }

  private signedIn(res: Response, refreshToken: string, destination: string): void {
    setRefreshCookie(res, refreshToken, this.config.publicUrl.startsWith('https:'));
    res.redirect(302, destination);
  }
}

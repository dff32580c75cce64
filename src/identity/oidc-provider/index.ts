/** The OpenID provider feature's entry: its module, and the middleware configure-app mounts. */
export { OidcProviderModule } from './oidc-provider.module';
export { OidcProviderService } from './oidc-provider.service';

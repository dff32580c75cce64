/** What the domains feature offers the rest of the server: other features import it from here, never from its files. */
export { DomainsModule } from './domains.module';
export { VerifiedDomainsService } from './verified-domains.service';

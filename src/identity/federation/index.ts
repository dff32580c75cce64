/** What the federation feature offers the rest of the server: other features import it from here, never from its files. */
export { SsoDiscoveryService } from './discovery/sso-discovery.service';
export { FederationModule } from './federation.module';
export { refusalMessage, RoundTripPurposeHandler } from './round-trip/round-trip-purpose';
export type { RoundTripEnd, RoundTripPurpose } from './round-trip/round-trip-purpose';
export { FederatedSignInService } from './sign-in/federated-sign-in.service';
export { InvitationConsent } from './sign-in/invitation-consent';

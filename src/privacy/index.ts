/**
 * What the privacy feature offers the rest of the server: other features import it from here, never from its files.
 * A feature that keeps applications a person consented to exports a provider of `CONSENTED_APPLICATIONS`
 * (my-data.service.ts) from its module, which PrivacyModule imports, and lists its tables in
 * users/lifecycle/personal-data.ts (the erasure test fails until it does).
 */
export { PrivacyModule } from './privacy.module';

/** What the privacy feature offers the rest of the server: other features import it from here, never from its files. */
export { PrivacyModule } from './privacy.module';
export { CONSENTED_APPLICATIONS } from './my-data.service';
export type { ConsentedApplications } from './my-data.service';
export { RetentionService } from './retention.service';
export type { RetentionRun } from './retention.service';

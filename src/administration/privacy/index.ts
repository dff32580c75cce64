/** What the privacy feature offers the rest of the server: other features import it from here, never from its files. */
export { PrivacyModule } from './privacy.module';

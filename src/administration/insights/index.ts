/** What the insights feature offers the rest of the server: other features import it from here, never from its files. */
export { NotMeLink } from './entities/not-me-link.entity';
export { SignInHistory } from './entities/sign-in-history.entity';
export { InsightsModule } from './insights.module';

/** What the insights feature offers the rest of the server: other features import it from here, never from its files. */
export { InsightsModule } from './insights.module';

/** What the sessions feature offers the rest of the server: other features import it from here, never from its files. */
export { Session } from './entities/session.entity';
export { SESSION_ENDED, SESSION_POLICY_CHANGED, SESSION_STARTED } from './session-events';
export type { SessionEnded, SessionPolicyChanged, SessionStarted } from './session-events';
export { SessionsModule } from './sessions.module';
export { SessionsService } from './sessions.service';

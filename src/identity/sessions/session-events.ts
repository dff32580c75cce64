import { EventName } from '../../platform/events';

export interface SessionEnded {
  sessionId: string;
  userId: number;
  organisationId: number;
  reason: string;
}

export interface SessionStarted {
  sessionId: string;
  userId: number;
  organisationId: number;
}

/**
 * A session ended (after the ending committed, or inside the caller's transaction when it ended there): live
 * connections (the notifications socket) close at once, the User sessions page of its organisation reloads, a
 * support access in it ends, the applications it signed in to hear of it. Published with EventEmitter2's `emit`:
 * every `@OnEvent(SESSION_ENDED)` handler starts before `emit` returns, and a handler's failure is logged, never
 * the writer's.
 */
export const SESSION_ENDED: EventName<SessionEnded> = 'session.ended';

/** A session started (after it committed): the User sessions page of its organisation reloads. Like SESSION_ENDED. */
export const SESSION_STARTED: EventName<SessionStarted> = 'session.started';

export interface SessionPolicyChanged {
  organisationId: number;
}

/**
 * An organisation's security policy changed (after it committed): its live connections must meet the new rules, and
 * its running support accesses end when it no longer allows them. Like SESSION_ENDED.
 */
export const SESSION_POLICY_CHANGED: EventName<SessionPolicyChanged> = 'session.policy-changed';

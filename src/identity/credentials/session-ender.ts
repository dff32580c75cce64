import type { PolicyEnd } from './access-policy';

/**
 * Ends a session the organisation's policy ended (idle or too old), or a support-access session past its end or whose
 * organisation turned support access off, with its sockets and its audit event: the sessions feature does.
 */
export abstract class SessionEnder {
  /** Answers whether this call ended it (false when the sweep or another call already had). */
  abstract endByPolicy(sessionId: string, reason: PolicyEnd): Promise<boolean>;
}

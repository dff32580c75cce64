import request from 'supertest';
import { Session } from '../../src/identity/sessions/entities/session.entity';
import { LoggedIn } from './factories';
import { TestApp } from './test-app';

/** The session id inside an access token. */
export function sessionIdOf(s: LoggedIn): string {
  const payload = JSON.parse(Buffer.from(s.accessToken.split('.')[1], 'base64url').toString()) as { sid: string };
  return payload.sid;
}

/**
 * Moves the session's last proof of identity `minutesAgo` into the past (time moved with the mark, not waited for).
 * Both the sign-in and the step-up column: whichever the lookup reads, it is that old.
 */
export async function ageSession(t: TestApp, s: LoggedIn, minutesAgo: number): Promise<void> {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  const moved = await t.db
    .getRepository(Session)
    .update({ id: sessionIdOf(s) }, { createdAt: at, authenticatedAt: at });
  if (!moved.affected) throw new Error('no such session');
}

/** POST /auth/step-up with the password (or another proof). */
export function stepUp(t: TestApp, s: LoggedIn, proof: object): request.Test {
  return request(t.http).post('/auth/step-up').set(s.auth).send(proof);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { SupportContext } from './auth-user';

/**
 * The call being served is one of a support-access session: the member it acts as, and who acts. Empty until the
 * access layer has verified the caller (a token that only claims an actor fills nothing).
 */
interface SupportSessionCall {
  memberId?: number;
  support?: SupportContext;
}

const calls = new AsyncLocalStorage<SupportSessionCall>();

/**
 * The JOSE header of a support-access session's token: explicitly typed (RFC 8725 §3.11), so that a call presenting
 * one is told apart by its first characters, before and without decoding it.
 */
export const SUPPORT_ACCESS_TOKEN_HEADER = { alg: 'HS256', typ: 'support-access+jwt' } as const;

const SUPPORT_ACCESS_BEARER = `Bearer ${Buffer.from(JSON.stringify(SUPPORT_ACCESS_TOKEN_HEADER)).toString('base64url')}.`;

/**
 * Express middleware: a call presenting a support-access session's token is served inside a context of its own,
 * which the access layer fills once it has verified the session ({@link enterSupportSession}); a token that only
 * looks like one fills nothing. Every other call passes straight on, with no context and no per-call wrapping (a
 * Nest interceptor on every route would put each call through RxJS).
 */
export function supportSessionCalls(req: Request, _res: Response, next: NextFunction): void {
  if (req.headers.authorization?.startsWith(SUPPORT_ACCESS_BEARER)) calls.run({}, next);
  else next();
}

/** The access layer, once it has verified a support-access session's caller: the call acts for this member. */
export function enterSupportSession(memberId: number, support: SupportContext): void {
  const call = calls.getStore();
  if (call) {
    call.memberId = memberId;
    call.support = support;
  }
}

/** Runs work as a call of a support-access session (what {@link supportSessionCalls} and the access layer set up). */
export function runInSupportSession<T>(memberId: number, support: SupportContext, work: () => T): T {
  return calls.run({ memberId, support }, work);
}

/**
 * Who acts for this account in the call being served: set when the call is one of a support-access session as this
 * account, whichever form the account takes where it is named (the caller, or the account entity acting on itself).
 */
export function supportActingFor(accountId: number): SupportContext | undefined {
  const call = calls.getStore();
  return call?.support && call.memberId === accountId ? call.support : undefined;
}

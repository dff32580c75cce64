import { AsyncLocalStorage } from 'node:async_hooks';
import type { SupportContext } from './auth-user';

/** The call being served is one of a support-access session: the member it acts as, and who acts. */
interface SupportSessionCall {
  memberId: number;
  support: SupportContext;
}

const calls = new AsyncLocalStorage<SupportSessionCall>();

/** Runs the handling of a call of a support-access session (the access layer's interceptor does, for every route). */
export function runInSupportSession<T>(memberId: number, support: SupportContext, work: () => T): T {
  return calls.run({ memberId, support }, work);
}

/**
 * Who acts for this account in the call being served: set when the call is one of a support-access session as this
 * account, whichever form the account takes where it is named (the caller, or the account entity acting on itself).
 */
export function supportActingFor(accountId: number): SupportContext | undefined {
  const call = calls.getStore();
  return call && call.memberId === accountId ? call.support : undefined;
}

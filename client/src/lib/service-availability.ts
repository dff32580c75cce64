import { ERROR_CODES } from '@shared/messages';

/**
 * Whether the server last said it is briefly unavailable (503 SERVICE_UNAVAILABLE: an engine underneath cannot be
 * reached) and has answered no call since. lib/api.ts reports every answer of the server; the notice
 * (components/ui/service-unavailable-notice.tsx) shows one message while it lasts, however many calls meet it.
 */
type Listener = (unavailable: boolean) => void;

let unavailable = false;
const listeners = new Set<Listener>();

export const serviceAvailability = {
  get unavailable(): boolean {
    return unavailable;
  },
  /** What the server's latest answer said: unavailable (true), or anything else it answered (false). */
  report(isUnavailable: boolean): void {
    if (isUnavailable === unavailable) return;
    unavailable = isUnavailable;
    for (const listener of listeners) listener(unavailable);
  },
  /** Hears each change; returns the unsubscriber. */
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function isServiceUnavailable(status: number, body: { code?: unknown } | undefined): boolean {
  return status === 503 && body?.code === ERROR_CODES.SERVICE_UNAVAILABLE;
}

/** How many times a read (GET) that met SERVICE_UNAVAILABLE is sent again before its caller hears of it. */
export const UNAVAILABLE_RETRIES = 3;
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 15_000;

/**
 * The wait before retry number `attempt` (0 first): at least what the server asked in Retry-After (seconds), and
 * doubling from a second, at most 15 s. With the server's 2 s: 2, 2, then 4 s, about 8 s in all.
 */
export function unavailableRetryDelayMs(attempt: number, retryAfter: string | null): number {
  const asked = Number(retryAfter);
  const askedMs = Number.isFinite(asked) && asked > 0 ? asked * 1000 : 0;
  return Math.min(Math.max(askedMs, FIRST_WAIT_MS * 2 ** attempt), LONGEST_WAIT_MS);
}

import { createSafeFetch, SafeFetch, SafeFetchError } from '../../common/http/safe-fetch';

/** Outbound limits for customer receivers (docs/integrations.md): connect, answer, and what is read of it. */
export const OUTBOUND_CONNECT_MS = 5_000;
export const OUTBOUND_ANSWER_MS = 10_000;
export const OUTBOUND_MAX_BYTES = 1024 * 1024;
/** What is kept of a receiver's error body. */
const EXCERPT_CHARS = 200;

/** The fetch every webhook and log-stream request goes through: never follows a redirect (a 3xx is a failure). */
export function receiverFetch(allowPrivateNetworks: boolean): SafeFetch {
  return createSafeFetch({
    allowPrivateNetworks,
    connectTimeoutMs: OUTBOUND_CONNECT_MS,
    timeoutMs: OUTBOUND_ANSWER_MS,
    maxBytes: OUTBOUND_MAX_BYTES,
    maxRedirects: 0,
  });
}

/** A short, inert excerpt of a receiver's text: control characters dropped, markup escaped, cut short. */
export function excerpt(text: string): string {
  const flat = text
    .slice(0, EXCERPT_CHARS * 2)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .trim()
    .slice(0, EXCERPT_CHARS);
  return flat.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** POSTs once and says how it went: a 2xx is success; any other answer, a timeout or a refusal is a failure. */
export async function postOnce(
  fetch: SafeFetch,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal?: AbortSignal,
): Promise<Outcome> {
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
    if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status, error: null };
    if (res.status >= 300 && res.status < 400)
      return { ok: false, statusCode: res.status, error: `HTTP ${res.status}: redirects are not followed` };
    const text = excerpt(await res.text().catch(() => ''));
    return { ok: false, statusCode: res.status, error: `HTTP ${res.status}${text ? `: ${text}` : ''}` };
  } catch (e) {
    const message = e instanceof SafeFetchError ? `${e.code}: ${e.message}` : `NETWORK: ${(e as Error).message}`;
    return { ok: false, statusCode: null, error: excerpt(message) };
  }
}

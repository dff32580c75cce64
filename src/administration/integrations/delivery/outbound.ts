import { createSafeFetch, SafeFetch, SafeFetchError } from '../../../platform/web/http/safe-fetch';

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
    // Only the status decides an attempt: a longer answer is cut at the cap, never a failure (which would resend).
    overLimit: 'truncate',
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
  /** No connection or no complete answer in time: the attempt held its slot for the whole limit. */
  timedOut?: boolean;
}

/** Header values shorter than this cannot be a credential worth hiding (content types, timestamps). */
const SECRET_MIN_CHARS = 8;

/**
 * An error's text with every header value of the request taken out (a token, a signature, and each word of them):
 * an error raised while sending may quote what it was sending, and what is kept is shown to the receiver's owners.
 */
function withoutSecrets(text: string, headers: Record<string, string>): string {
  const secrets = Object.values(headers)
    .flatMap((value) => [value, ...value.split(/\s+/)])
    .filter((v) => v.length >= SECRET_MIN_CHARS)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
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
    return {
      ok: false,
      statusCode: null,
      error: excerpt(withoutSecrets(message, headers)),
      timedOut: e instanceof SafeFetchError && e.code === 'TIMEOUT',
    };
  }
}

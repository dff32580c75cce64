/**
 * The request layer of spec 001 §7.1. Relative paths starting with api, pqte, mfa, auth or refresh get
 * the server host prepended and send credentials, a JSON content type and the token from local
 * storage. A 403 {success: false, message: 'jwt expired'} refreshes the access token and retries the
 * request once, invisibly. A 503 SERVICE_UNAVAILABLE (an engine underneath the server is briefly unreachable)
 * is retried for reads (GET) after the server's Retry-After, a few times; a write is not sent again (its caller
 * hears the calm message); either way the service-availability notice shows while it lasts.
 */
import { AUTH_MESSAGES, AVAILABILITY_MESSAGES, ERROR_CODES, type ErrorBodyCode } from '@shared/messages';
import {
  isServiceUnavailable,
  serviceAvailability,
  UNAVAILABLE_RETRIES,
  unavailableRetryDelayMs,
} from './service-availability';
import { supportSessionStore } from './support-session';

export const TOKEN_KEY = 'accessToken';
const SERVER_PREFIX = /^\/?(api|pqte|mfa|auth|refresh)(\/|$|\?)/;
const API_BASE: string = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/+$/, '') ?? '';

/**
 * The access token calls carry: a support-access session's in the tab that holds one (lib/support-session.ts),
 * else the signed-in account's own. `set` and `clear` concern the account's own token only.
 */
export const tokenStore = {
  get: (): string | null => supportSessionStore.get()?.accessToken ?? localStorage.getItem(TOKEN_KEY),
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

export interface ErrorBody {
  success?: boolean;
  statusCode?: number;
  code?: ErrorBodyCode;
  message?: string;
  challengeToken?: string;
  [key: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message ?? `Request failed with status ${status}`);
  }
  get code(): string | undefined {
    return this.body.code;
  }
}

/** Fired when the session cannot be renewed: the auth provider signs the user out locally. */
export const SESSION_EXPIRED_EVENT = 'session-expired';
/** A call was refused until the caller enrols a second factor (their organisation now requires one). */
export const MFA_ENROLMENT_EVENT = 'mfa-enrolment-required';

export function resolveUrl(path: string): { url: string; server: boolean } {
  if (/^https?:\/\//.test(path)) return { url: path, server: false };
  const server = SERVER_PREFIX.test(path);
  const url = server ? `${API_BASE}/${path.replace(/^\/+/, '')}` : path;
  return { url, server };
}

export function isJwtExpired(status: number, body: ErrorBody): boolean {
  return status === 403 && body.success === false && body.message === AUTH_MESSAGES.JWT_EXPIRED;
}

/** docs/product-rules.md §7: a sensitive call made without a recent proof of identity. */
export function isStepUpRequired(status: number, body: ErrorBody): boolean {
  return status === 403 && body.code === ERROR_CODES.STEP_UP_REQUIRED;
}

/**
 * Asks the person to confirm it is them (the 'Confirm it's you' dialog registers itself here): resolves true once
 * the server has marked the session, false when they cancel. Calls that meet STEP_UP_REQUIRED at once share one
 * question.
 */
type StepUpHandler = () => Promise<boolean>;
let stepUpHandler: StepUpHandler | null = null;
let askingStepUp: Promise<boolean> | null = null;

export function setStepUpHandler(handler: StepUpHandler | null): void {
  stepUpHandler = handler;
  // A question asked through the previous handler is not waited for any longer.
  askingStepUp = null;
}

export function confirmIdentity(): Promise<boolean> {
  if (!stepUpHandler) return Promise.resolve(false);
  askingStepUp ??= stepUpHandler().finally(() => (askingStepUp = null));
  return askingStepUp;
}

let refreshing: Promise<string | null> | null = null;
/** The last refresh failed only because the server was briefly unavailable: the session itself may be fine. */
let refreshUnavailable = false;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A server call, sent again while the server answers SERVICE_UNAVAILABLE when `retry` says so (a refused call changed
 * nothing on the server, so the same call is safe to send again), after its Retry-After; every answer is reported to
 * the service-availability notice.
 */
async function fetchServer(url: string, init: RequestInit, retry: boolean): Promise<{ res: Response; data: unknown }> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, init);
    const data = await parse(res);
    const unavailable = isServiceUnavailable(res.status, data as ErrorBody);
    serviceAvailability.report(unavailable);
    if (!unavailable || !retry || attempt >= UNAVAILABLE_RETRIES) return { res, data };
    await wait(unavailableRetryDelayMs(attempt, res.headers.get('Retry-After')));
  }
}

async function refreshOnce(): Promise<string | null> {
  refreshUnavailable = false;
  try {
    // Retried while unavailable: a refused refresh rotated nothing, and giving up would sign the person out.
    const { res, data } = await fetchServer(
      resolveUrl('refresh').url,
      { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' } },
      true,
    );
    refreshUnavailable = isServiceUnavailable(res.status, data as ErrorBody);
    if (!res.ok) return null;
    const body = data as { newAccessToken?: string } | undefined;
    if (!body?.newAccessToken) return null;
    tokenStore.set(body.newAccessToken);
    return body.newAccessToken;
  } catch {
    return null;
  }
}

/** One refresh at a time: concurrent requests that meet an expired token share it. */
export function refreshAccessToken(): Promise<string | null> {
  refreshing ??= refreshOnce().finally(() => (refreshing = null));
  return refreshing;
}

/** Whether the last refresh failed because the server was briefly unavailable (not because the session ended). */
export function lastRefreshWasUnavailable(): boolean {
  return refreshUnavailable;
}

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (a file upload). */
  body?: BodyInit;
  /** A token other than the stored access token (the login's challenge token). */
  bearer?: string;
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T = unknown>(
  path: string,
  options: RequestOptions = {},
  retried = false,
  steppedUp = false,
): Promise<T> {
  const { json, bearer, headers, body, ...init } = options;
  const { url, server } = resolveUrl(path);
  const h = new Headers(headers);
  if (server) {
    if (!(body instanceof FormData) && !(body instanceof Blob)) h.set('Content-Type', 'application/json');
    const token = bearer ?? tokenStore.get();
    if (token) h.set('Authorization', `Bearer ${token}`);
  }
  const sent: RequestInit = {
    ...init,
    credentials: server ? 'include' : init.credentials,
    headers: h,
    body: json !== undefined ? JSON.stringify(json) : body,
  };
  const read = (init.method ?? 'GET').toUpperCase() === 'GET';
  const { res, data } = server
    ? await fetchServer(url, sent, read)
    : await fetch(url, sent).then(async (r) => ({ res: r, data: await parse(r) }));
  if (res.ok) return data as T;

  const err = (
    typeof data === 'object' && data !== null ? data : { message: String(data ?? res.statusText) }
  ) as ErrorBody;
  if (
    server &&
    !bearer &&
    supportSessionStore.get() &&
    (isJwtExpired(res.status, err) || (res.status === 401 && err.code === ERROR_CODES.SESSION_ENDED))
  ) {
    // A support-access session is never refreshed: once over, the tab returns to the E-Support account's own session.
    supportSessionStore.clear();
  } else if (server && !bearer && !retried && isJwtExpired(res.status, err)) {
    const fresh = await refreshAccessToken();
    if (fresh) return request<T>(path, options, true, steppedUp);
    // The server could not renew the session for now: the person stays signed in, the call fails calmly.
    if (lastRefreshWasUnavailable())
      throw new ApiError(503, {
        success: false,
        statusCode: 503,
        code: ERROR_CODES.SERVICE_UNAVAILABLE,
        message: AVAILABILITY_MESSAGES.SERVICE_UNAVAILABLE,
      });
    window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
  } else if (server && !bearer && !steppedUp && isStepUpRequired(res.status, err)) {
    // Once: the call is retried after the person confirmed it is them, and a second refusal is the answer.
    if (await confirmIdentity()) return request<T>(path, options, retried, true);
  } else if (
    server &&
    !bearer &&
    res.status === 401 &&
    tokenStore.get() &&
    (err.code === ERROR_CODES.SESSION_ENDED || err.code === ERROR_CODES.UNAUTHENTICATED)
  ) {
    window.dispatchEvent(new Event(SESSION_EXPIRED_EVENT));
  } else if (server && !bearer && res.status === 403 && err.code === ERROR_CODES.MFA_ENROLMENT_REQUIRED) {
    window.dispatchEvent(new Event(MFA_ENROLMENT_EVENT));
  }
  throw new ApiError(res.status, err);
}

/** A query string of the fields that are set (`?a=1&b=x`, or '' when none is): the list calls' filters. */
export function querySearch(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, json?: unknown, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'POST', json }),
  put: <T>(path: string, json?: unknown, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'PUT', json }),
  patch: <T>(path: string, json?: unknown, options?: RequestOptions) =>
    request<T>(path, { ...options, method: 'PATCH', json }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>(path, { ...options, method: 'DELETE' }),
};

/** A new password refused as breached, or shorter than the organisation's minimum: its message belongs under the new-password field. */
export function breachedPasswordMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  // Also a password shorter than the organisation's security policy asks: WEAK_PASSWORD naming the field.
  const refused =
    error.code === ERROR_CODES.PASSWORD_BREACHED ||
    (error.code === ERROR_CODES.WEAK_PASSWORD && Array.isArray(error.body.errors));
  return refused ? (error.body.message ?? null) : null;
}

/** The message of an error for people, or the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.body.message || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

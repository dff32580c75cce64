import { io, Socket } from 'socket.io-client';
import { SOCKET_ERRORS, SOCKET_EVENTS, SOCKET_PATH, type NotificationItem } from '@shared/portal/notifications';
import { lastRefreshWasUnavailable, refreshAccessToken, tokenStore } from './api';

/**
 * The notifications socket (spec 001 §7): socket.io connected to the configured base URL
 * (VITE_API_URL, default this origin) with the access token as the query parameter `token`.
 * When the server refuses or drops it for an expired token, the token is refreshed and the socket
 * connects again; when the session has ended, the socket stops and `onSessionEnded` runs once.
 */
export const SOCKET_BASE: string =
  (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/+$/, '') || window.location.origin;

export interface NotificationSocketHandlers {
  onNotification: (item: NotificationItem) => void;
  /** Every (re)connection: the list may have missed messages while disconnected. */
  onConnect?: () => void;
  /** Lost the connection (it reconnects by itself, or after a token refresh). */
  onDisconnect?: () => void;
  /** The session cannot be renewed (logged out, forced off, disabled). */
  onSessionEnded?: () => void;
  /** The organisation's sessions changed (sent to its user administrators only): the User sessions page reloads. */
  onSessionsChanged?: () => void;
}

export interface NotificationConnection {
  socket: Socket;
  stop: () => void;
}

/** Consecutive authentication retries before giving up (a refresh that keeps failing). */
const MAX_AUTH_RETRIES = 3;
/** While the server cannot check the token (its database is unreachable): the first wait, and the longest. */
const UNAVAILABLE_RETRY_MS = 2000;
const UNAVAILABLE_RETRY_MAX_MS = 30_000;

export function startNotificationSocket(
  handlers: NotificationSocketHandlers,
  create: typeof io = io,
): NotificationConnection {
  let stopped = false;
  let retries = 0;
  let unavailableWaitMs = UNAVAILABLE_RETRY_MS;
  let unavailableTimer: ReturnType<typeof setTimeout> | undefined;
  const socket = create(SOCKET_BASE, {
    path: SOCKET_PATH,
    query: { token: tokenStore.get() ?? '' },
    transports: ['websocket', 'polling'],
    autoConnect: false,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 10_000,
  });

  const connectWithStoredToken = () => {
    if (stopped) return;
    const token = tokenStore.get();
    if (!token) return;
    socket.io.opts.query = { token };
    socket.connect();
  };

  const end = () => {
    stopped = true;
    socket.disconnect();
    handlers.onSessionEnded?.();
  };

  /** While the server is briefly unavailable: `retry` later, each wait longer than the last. */
  const later = (retry: () => void) => {
    clearTimeout(unavailableTimer);
    unavailableTimer = setTimeout(retry, unavailableWaitMs);
    unavailableWaitMs = Math.min(unavailableWaitMs * 2, UNAVAILABLE_RETRY_MAX_MS);
  };

  /**
   * The token was refused or has expired: refresh it, then connect again; else the session is over, unless the server
   * was only briefly unavailable (then the refresh is tried again later, not counted as a refusal).
   */
  const renew = async () => {
    if (stopped) return;
    if (++retries > MAX_AUTH_RETRIES) return end();
    const fresh = await refreshAccessToken();
    if (stopped || !tokenStore.get()) return;
    if (fresh) connectWithStoredToken();
    else if (lastRefreshWasUnavailable()) {
      retries--;
      later(() => void renew());
    } else end();
  };

  // Automatic reconnections (network loss) carry the newest token.
  socket.io.on('reconnect_attempt', () => {
    const token = tokenStore.get();
    if (token) socket.io.opts.query = { token };
  });
  socket.on('connect', () => {
    retries = 0;
    unavailableWaitMs = UNAVAILABLE_RETRY_MS;
    handlers.onConnect?.();
  });
  socket.on(SOCKET_EVENTS.NOTIFICATION, (item: NotificationItem) => {
    if (!stopped) handlers.onNotification(item);
  });
  socket.on(SOCKET_EVENTS.SESSIONS_CHANGED, () => {
    if (!stopped) handlers.onSessionsChanged?.();
  });
  socket.on('connect_error', (err: Error) => {
    if (stopped || socket.active) return; // a transport error: socket.io retries by itself
    if (
      err.message === SOCKET_ERRORS.JWT_EXPIRED ||
      err.message === SOCKET_ERRORS.SESSION_ENDED ||
      err.message === SOCKET_ERRORS.NO_TOKEN
    )
      void renew();
    // The server is briefly unable to check the token: the same token, later.
    else if (err.message === SOCKET_ERRORS.UNAVAILABLE) later(connectWithStoredToken);
    // Invalid token or MFA enrolment pending: nothing to retry.
  });
  // The server says why it is about to drop the socket.
  let dropReason: string | undefined;
  socket.on(SOCKET_EVENTS.SESSION, (e: { reason?: string }) => (dropReason = e?.reason));
  socket.on('disconnect', (reason) => {
    handlers.onDisconnect?.();
    if (reason !== 'io server disconnect') return;
    // Dropped by the server: an ended session is final; an expired token is refreshed.
    if (dropReason === 'session-ended') end();
    else void renew();
    dropReason = undefined;
  });

  connectWithStoredToken();
  return {
    socket,
    stop: () => {
      stopped = true;
      clearTimeout(unavailableTimer);
      socket.removeAllListeners();
      socket.io.removeAllListeners();
      socket.disconnect();
    },
  };
}

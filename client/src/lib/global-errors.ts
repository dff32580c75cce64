/**
 * Spec 001 §8: global uncaught errors are logged to the console unless marked silenced, and the error
 * stream is throttled to 10: an error is logged, and any other arriving within the next 10 ms is
 * dropped (a render loop or a failing poll would otherwise flood the console). Installed once, at start.
 */
export const ERROR_STREAM_THROTTLE_MS = 10;

const SILENCED = 'silenced';

/** Marks an error that must not reach the console (one already reported to the user, say). */
export function markSilenced<T>(error: T): T {
  if (typeof error === 'object' && error !== null)
    Object.defineProperty(error, SILENCED, { value: true, enumerable: false });
  return error;
}

export function isSilenced(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<string, unknown>)[SILENCED] === true;
}

export interface ErrorStreamOptions {
  log?: (message: string, error: unknown) => void;
  now?: () => number;
  throttleMs?: number;
}

/** The error stream: returns whether the error was logged. */
export function createErrorStream({
  log = (m, e) => console.error(m, e),
  now = () => Date.now(),
  throttleMs = ERROR_STREAM_THROTTLE_MS,
}: ErrorStreamOptions = {}) {
  let lastLoggedAt = Number.NEGATIVE_INFINITY;
  return (error: unknown): boolean => {
    if (isSilenced(error)) return false;
    const at = now();
    if (at - lastLoggedAt < throttleMs) return false;
    lastLoggedAt = at;
    log('Uncaught error:', error);
    return true;
  };
}

/**
 * Listens for the window's uncaught errors and unhandled promise rejections. The browser's own report
 * is suppressed, so each error is logged once, by the stream, or not at all. Returns the uninstaller.
 */
export function installGlobalErrorHandlers(target: Window = window, stream = createErrorStream()): () => void {
  const onError = (event: ErrorEvent) => {
    stream(event.error ?? event.message);
    event.preventDefault();
  };
  const onRejection = (event: Event) => {
    stream((event as PromiseRejectionEvent).reason);
    event.preventDefault();
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

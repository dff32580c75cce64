import { Logger } from '@nestjs/common';
import { unavailableEngine } from '../web/engine-unavailable';

export interface PeriodicOptions {
  /** The first run, this long after the start (so it does not compete with start-up and the first requests). */
  firstDelayMs: number;
  /** Then one run every so often. */
  everyMs: number;
  /**
   * A failed run is logged here as "<what> failed: <message>"; the next run comes as planned. A run that found the
   * database unreachable is a warning instead, and is tried again a minute later (a daily job would otherwise wait a
   * day for a few seconds' outage).
   */
  logger: Logger;
  what: string;
}

/** How long after a run that found an engine unreachable it is tried again. */
export const RETRY_AFTER_OUTAGE_MS = 60_000;

/**
 * Housekeeping on plain timers (the audit purge, the sweep of unsaved logo uploads), unref'd so that they never
 * keep the process alive. Returns the function that stops them, for the service's shutdown hook.
 */
export function runPeriodically(task: () => Promise<unknown>, options: PeriodicOptions): () => void {
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const run = () =>
    void task().catch((e: Error) => {
      const engine = unavailableEngine(e);
      if (!engine) return options.logger.error(`${options.what} failed: ${e.message}`);
      options.logger.warn(`${options.what} put off for a minute: the ${engine} is unreachable (${e.message})`);
      if (stopped) return;
      clearTimeout(retry);
      retry = setTimeout(run, RETRY_AFTER_OUTAGE_MS).unref();
    });
  const timers = [setTimeout(run, options.firstDelayMs).unref(), setInterval(run, options.everyMs).unref()];
  return () => {
    stopped = true;
    clearTimeout(retry);
    timers.forEach((timer) => clearTimeout(timer));
  };
}

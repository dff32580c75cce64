import { Logger } from '@nestjs/common';

export interface PeriodicOptions {
  /** The first run, this long after the start (so it does not compete with start-up and the first requests). */
  firstDelayMs: number;
  /** Then one run every so often. */
  everyMs: number;
  /** A failed run is logged here as "<what> failed: <message>"; the next run comes as planned. */
  logger: Logger;
  what: string;
}

/**
 * Housekeeping on plain timers (the audit purge, the sweep of unsaved logo uploads), unref'd so that they never
 * keep the process alive. Returns the function that stops them, for the service's shutdown hook.
 */
export function runPeriodically(task: () => Promise<unknown>, options: PeriodicOptions): () => void {
  const run = () => void task().catch((e: Error) => options.logger.error(`${options.what} failed: ${e.message}`));
  const timers = [setTimeout(run, options.firstDelayMs).unref(), setInterval(run, options.everyMs).unref()];
  return () => timers.forEach((timer) => clearTimeout(timer));
}

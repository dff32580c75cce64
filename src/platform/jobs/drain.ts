import { Logger } from '@nestjs/common';
import { EngineState } from '../web/engine-state';
import { unavailableEngine } from '../web/engine-unavailable';

/** What a drain runs: a pass over whatever is due, what follows the last pass, and where a failure goes. */
export interface DrainSteps {
  /** Delivers what is due now. */
  pass(): Promise<void>;
  /** After the last pass of a run (housekeeping such as pruning delivered rows). */
  afterPasses(): Promise<void>;
  /** A run that threw (the database unreachable, most often): the next kick or sweep tries again. */
  failed(error: unknown): void;
  /** Once the run is over, failed or not (a timer for the next retry). */
  settled?(): Promise<void>;
}

/**
 * An outbox's delivery runs, one at a time (the mail outbox, the integrations' deliveries). `kick()` starts a run, or
 * asks the running one for one more pass after it, so whatever was stored before a kick is seen by a pass that
 * starts after it; the callers of a run share its promise. `stop()` refuses new runs and waits for the one under way.
 */
export class Drain {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(private readonly steps: DrainSteps) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs passes now, or one more after the running one. Resolves when no run is under way. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.steps.pass();
        } while (this.again && !this.stopped);
        await this.steps.afterPasses();
      } catch (e) {
        if (!this.stopped) this.steps.failed(e);
      } finally {
        this.running = undefined;
      }
      await this.steps.settled?.();
    })();
    return this.running;
  }

  /** No run starts after this; resolves once the one under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}

/**
 * The failure handler of an outbox's runs: the database (or Redis) gone is an outage, logged once by the
 * EngineState (the next kick or sweep tries again); anything else is logged as the outbox's own error.
 */
export function drainFailureHandler(
  outbox: string,
  logger: Logger,
  engines: EngineState | undefined,
): (error: unknown) => void {
  return (error) => {
    const engine = unavailableEngine(error);
    if (engine && engines) engines.down(engine, error);
    else logger.error(`The ${outbox} could not be read: ${(error as Error).message}`);
  };
}

import { Global, Injectable, Logger, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Engine, ENGINES } from './engine-unavailable';

/** While an engine is down, how often its probe asks whether it answers again. */
export const PROBE_EVERY_MS = 1000;
/** What a refusal tells the caller to wait before trying again (the `Retry-After` header, in seconds). */
export const RETRY_AFTER_SECONDS = 2;

/** A change of an engine's state, as listeners of {@link EngineState.onChange} hear it. */
export type EngineChange =
  { engine: Engine; up: false; cause: string } | { engine: Engine; up: true; downForMs: number; refused: number };

interface Outage {
  since: number;
  cause: string;
  /** Calls that reported this outage (requests answered 503, commands that fell back). */
  refused: number;
}

/** One line of a cause: the error's message (never its stack, never a connection string's password). */
function causeOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split('\n')[0]
    .replace(/\/\/[^@/\s]*@/g, '//[redacted]@')
    .slice(0, 300);
}

/**
 * Whether each engine underneath this instance (the database, Redis when configured) answers, as the calls that use
 * them find out. Every user of an engine reports here: the exception filter (a request refused 503), readiness, the
 * rate limiter's and the sign-in throttle's Redis stores, the Redis connection's events. It logs the transitions
 * only, one warning when an engine goes away (with the cause) and one when it answers again (with the outage's
 * duration and how many calls were refused), per instance, whatever the traffic; it feeds the `engine_up` gauge; and
 * while an engine is down its probe (`SELECT 1`, Redis's PING) runs once a second, so an outage is seen to end even
 * when no request comes.
 */
@Injectable()
export class EngineState implements OnApplicationShutdown {
  private readonly logger = new Logger('Engines');
  private readonly outages = new Map<Engine, Outage>();
  private readonly probes = new Map<Engine, () => Promise<unknown>>();
  private readonly timers = new Map<Engine, NodeJS.Timeout>();
  private readonly listeners = new Set<(change: EngineChange) => void>();
  private stopped = false;

  constructor(@Optional() db?: DataSource) {
    if (db) this.watch('database', () => db.query('SELECT 1'));
  }

  /** Adds an engine this instance uses, with the probe that tells whether it answers (run only while it is down). */
  watch(engine: Engine, probe: () => Promise<unknown>): void {
    this.probes.set(engine, probe);
  }

  /** The engines this instance uses, in a fixed order. */
  get engines(): Engine[] {
    return ENGINES.filter((e) => this.probes.has(e) || this.outages.has(e));
  }

  isUp(engine: Engine): boolean {
    return !this.outages.has(engine);
  }

  /** A call that needed `engine` could not reach it. The first report of an outage logs a warning. */
  down(engine: Engine, cause: unknown): void {
    const outage = this.outages.get(engine);
    if (outage) {
      outage.refused++;
      return;
    }
    const text = causeOf(cause);
    this.outages.set(engine, { since: Date.now(), cause: text, refused: 1 });
    this.logger.warn(`${engine} unreachable: ${text}`);
    this.emit({ engine, up: false, cause: text });
    this.startProbing(engine);
  }

  /** `engine` answered a call. Ends its outage, if any, with one warning naming how long it lasted. */
  up(engine: Engine): void {
    const outage = this.outages.get(engine);
    if (!outage) return;
    this.outages.delete(engine);
    this.stopProbing(engine);
    const downForMs = Date.now() - outage.since;
    this.logger.warn(
      `${engine} reachable again after ${(downForMs / 1000).toFixed(1)} s ` +
        `(${outage.refused} call${outage.refused === 1 ? '' : 's'} affected; cause was: ${outage.cause})`,
    );
    this.emit({ engine, up: true, downForMs, refused: outage.refused });
  }

  /** Hears every transition (e.g. to catch up on what an outage of Redis kept from this instance). Returns `off`. */
  onChange(listener: (change: EngineChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: EngineChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (e) {
        this.logger.error(`A listener of engine changes failed: ${(e as Error).message}`);
      }
    }
  }

  private startProbing(engine: Engine): void {
    const probe = this.probes.get(engine);
    if (!probe || this.stopped || this.timers.has(engine)) return;
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      probe().then(
        () => {
          running = false;
          this.up(engine);
        },
        () => {
          running = false;
        },
      );
    }, PROBE_EVERY_MS);
    timer.unref();
    this.timers.set(engine, timer);
  }

  private stopProbing(engine: Engine): void {
    clearInterval(this.timers.get(engine));
    this.timers.delete(engine);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const engine of [...this.timers.keys()]) this.stopProbing(engine);
    this.listeners.clear();
  }
}

/** The one EngineState of the application, for every module (infrastructure: the filter, Redis, readiness). */
@Global()
@Module({ providers: [EngineState], exports: [EngineState] })
export class EngineStateModule {}

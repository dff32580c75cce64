import { E_TIMEOUT, Mutex, MutexInterface, withTimeout } from 'async-mutex';
import { DataSource, ReplicationMode } from 'typeorm';
import { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';
import { SqliteQueryRunner } from 'typeorm/driver/sqlite/SqliteQueryRunner';
import { PreparedStatements } from './prepared-statements';
import { typeormSqliteProblems } from './typeorm-internals';

/** How long a query waits for another request's transaction before it gives up (a stuck transaction, not load). */
export const DEFAULT_GATE_TIMEOUT_MS = 30_000;

export interface SerialiseOptions {
  /** Maximum wait for the gate, in milliseconds. */
  timeoutMs?: number;
  /** Told how long each acquisition waited (seconds), e.g. for a metrics histogram. */
  onWait?: (seconds: number) => void;
}

/** Thrown when the gate could not be had in time; answered 503 by the exception filter. */
export class DatabaseBusyError extends Error {
  constructor() {
    super('The database is busy. Please try again.');
    this.name = 'DatabaseBusyError';
  }
}

/** The one mutex of a data source, and the same with a timeout for a wait. */
interface Gate {
  free: MutexInterface;
  timed: MutexInterface;
  /** Counts the writes that ended (see writeGeneration). */
  writes: { generation: number };
  /** The open connection's prepared statements; undefined where TypeORM runs every query itself. */
  statements: () => PreparedStatements | undefined;
}

/** A statement that only reads: one SELECT (a WITH or a PRAGMA may write, so they count as writes). */
const READ_ONLY = /^\s*SELECT\b/i;

/**
 * A query runner of its own for every caller, all on the driver's one SQLite connection, with one gate:
 * a transaction holds the gate from BEGIN to COMMIT/ROLLBACK, and any query outside a transaction waits
 * for the gate and holds it while it runs. So a request's query can never land inside another request's
 * open transaction, and two transactions can never nest as savepoints of each other (TypeORM's SQLite
 * driver otherwise shares one query runner for the whole data source: typeorm/typeorm#1884, #307).
 */
export class SerialisedSqliteQueryRunner extends SqliteQueryRunner {
  private releaseGate?: MutexInterface.Releaser;

  constructor(
    driver: SqliteDriver,
    private readonly gate: Gate,
    private readonly onWait?: (seconds: number) => void,
  ) {
    super(driver);
  }

  /** True while this runner holds the gate (inside its own transaction). */
  get holdsGate(): boolean {
    return this.releaseGate !== undefined;
  }

  private async acquire(): Promise<MutexInterface.Releaser> {
    // A free gate is taken at once: no timeout to arm (a timer per query cost more than the wait).
    if (!this.gate.free.isLocked()) {
      this.onWait?.(0);
      return this.gate.free.acquire();
    }
    const started = process.hrtime.bigint();
    try {
      return await this.gate.timed.acquire();
    } catch (err) {
      if (err === E_TIMEOUT) throw new DatabaseBusyError();
      throw err;
    } finally {
      this.onWait?.(Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /** Ends a transaction's hold: what it wrote is committed or rolled back, either way a new generation. */
  private openGate(): void {
    const release = this.releaseGate;
    this.releaseGate = undefined;
    if (release) this.gate.writes.generation++;
    release?.();
  }

  /** Runs a statement, prepared once for the connection where it can be (prepared-statements.ts). */
  private run(query: string, parameters: unknown[] | undefined, structured: boolean) {
    const statements = this.gate.statements();
    if (!statements || this.isReleased || !PreparedStatements.takes(query))
      return super.query(query, parameters, structured);
    return statements.query(query, parameters, structured) as ReturnType<SqliteQueryRunner['query']>;
  }

  override async query(
    query: string,
    parameters?: unknown[],
    useStructuredResult = false,
  ): ReturnType<SqliteQueryRunner['query']> {
    if (this.holdsGate) return this.run(query, parameters, useStructuredResult);
    const release = await this.acquire();
    try {
      return await this.run(query, parameters, useStructuredResult);
    } finally {
      // Counted before the caller hears of it, failed or not (a failed statement may have written part).
      if (!READ_ONLY.test(query)) this.gate.writes.generation++;
      release();
    }
  }

  override async startTransaction(
    isolationLevel?: Parameters<SqliteQueryRunner['startTransaction']>[0],
  ): Promise<void> {
    const outermost = !this.isTransactionActive;
    if (outermost) this.releaseGate = await this.acquire();
    try {
      await super.startTransaction(isolationLevel);
    } catch (err) {
      if (outermost) this.reset();
      throw err;
    }
  }

  override async commitTransaction(): Promise<void> {
    await super.commitTransaction();
    // A failed COMMIT keeps the gate: the caller rolls back next (TypeORM always does).
    if (!this.isTransactionActive) this.openGate();
  }

  override async rollbackTransaction(): Promise<void> {
    const outermost = this.transactionDepth <= 1;
    try {
      await super.rollbackTransaction();
    } finally {
      // Even a failed ROLLBACK ends the transaction as far as SQLite is concerned (it had been rolled back).
      if (outermost) this.reset();
    }
  }

  /** A runner released with its transaction still open (a bug elsewhere) must not keep the gate forever. */
  override async release(): Promise<void> {
    if (this.isTransactionActive) {
      try {
        await super.rollbackTransaction();
      } catch {
        /* the transaction is gone either way */
      }
      this.reset();
    }
    return super.release();
  }

  private reset(): void {
    this.isTransactionActive = false;
    this.transactionDepth = 0;
    this.openGate();
  }
}

/**
 * Makes every query runner of a SQLite data source a SerialisedSqliteQueryRunner sharing one gate. Call
 * before initialize(), so that migrations already go through it. Other drivers are left alone
 * (PostgreSQL gives each transaction its own pooled connection). Throws, so the server does not start, when
 * TypeORM's driver no longer has the shape this relies on (typeorm-internals.ts).
 */
export function serialiseSqlite(dataSource: DataSource, options: SerialiseOptions = {}): DataSource {
  const driver = dataSource.driver;
  if (!(driver instanceof SqliteDriver)) return dataSource;
  const problems = typeormSqliteProblems(dataSource);
  if (problems.length > 0)
    throw new Error(
      `TypeORM's SQLite driver changed (${problems.join('; ')}): transactions cannot be kept apart on SQLite. ` +
        'Pin the TypeORM version in package.json or use PostgreSQL (DATABASE_URL).',
    );
  const mutex = new Mutex();
  let statements: PreparedStatements | undefined;
  let closing = false;
  const gate: Gate = {
    free: mutex,
    timed: withTimeout(mutex, options.timeoutMs ?? DEFAULT_GATE_TIMEOUT_MS),
    writes: { generation: 0 },
    statements: () => {
      const connection = driver.databaseConnection as PreparedStatements['connection'] | undefined;
      if (closing || !connection || !dataSource.isInitialized) return undefined;
      if (statements?.connection !== connection)
        statements = runsEveryQueryItself(dataSource)
          ? undefined
          : new PreparedStatements(connection, driver.options.busyErrorRetry);
      return statements;
    },
  };
  // sqlite3 closes a connection only when none of its statements is left: the kept ones go first.
  const disconnect = driver.disconnect.bind(driver);
  driver.disconnect = async () => {
    closing = true;
    try {
      await statements?.finalizeAll();
      statements = undefined;
      await disconnect();
    } finally {
      closing = false;
    }
  };
  generations.set(dataSource, gate.writes);
  const observers = waitObservers(dataSource);
  if (options.onWait) observers.push(options.onWait);
  const onWait = (seconds: number) => observers.forEach((observe) => observe(seconds));
  driver.createQueryRunner = (_mode?: ReplicationMode) => new SerialisedSqliteQueryRunner(driver, gate, onWait);
  return dataSource;
}

/**
 * Whether TypeORM must run every query itself: it logs queries, times them against maxQueryExecutionTime, or tells
 * subscribers of each query (none of which this product does).
 */
function runsEveryQueryItself(dataSource: DataSource): boolean {
  const { logging, maxQueryExecutionTime } = dataSource.options as {
    logging?: unknown;
    maxQueryExecutionTime?: number;
  };
  return (
    Boolean(logging) ||
    Boolean(maxQueryExecutionTime) ||
    dataSource.subscribers.some((s) => s.beforeQuery !== undefined || s.afterQuery !== undefined)
  );
}

const generations = new WeakMap<DataSource, { generation: number }>();

/** How often a lookup that reuses rows asks SQLite whether another connection (another process) has written. */
const OUTSIDE_WRITE_CHECK_MS = 1000;

/**
 * The write generation of a serialised SQLite data source: a number that grows after every statement that may
 * have written and every transaction, before its caller hears of it. Every query of the process goes through the
 * one gate, so a value read before a lookup and still current later says that nothing was written in between: what
 * the lookup read may be reused until it changes. Writes by another connection to the file (an operator's sqlite3
 * shell, a script) do not pass the gate: at most once a second, a read of the generation also asks SQLite's
 * `PRAGMA data_version` (which changes when another connection commits) and counts a change as a write, so such a
 * write is seen within about a second. Undefined for other drivers (PostgreSQL is shared by instances whose writes
 * this process never sees).
 */
export function writeGeneration(dataSource: DataSource): (() => number) | undefined {
  const writes = generations.get(dataSource);
  if (!writes) return undefined;
  let checkedAt = 0;
  let checking = false;
  let version: number | undefined;
  const checkOutsideWrites = () => {
    // The driver's own connection (public on TypeORM's SqliteDriver): the statement is a read with no effect, so it
    // needs no turn at the gate; sqlite3 runs it between the statements queued on the connection.
    const connection = (dataSource.driver as SqliteDriver).databaseConnection as
      { get(sql: string, cb: (err: Error | null, row?: { data_version?: number }) => void): void } | undefined;
    if (!connection || checking) return;
    checking = true;
    connection.get('PRAGMA data_version', (err, row) => {
      checking = false;
      if (err || row?.data_version === undefined) return;
      if (version !== undefined && row.data_version !== version) writes.generation++;
      version = row.data_version;
    });
  };
  return () => {
    const now = Date.now();
    if (now - checkedAt >= OUTSIDE_WRITE_CHECK_MS) {
      checkedAt = now;
      checkOutsideWrites();
    }
    return writes.generation;
  };
}

const observersOf = new WeakMap<DataSource, Array<(seconds: number) => void>>();
function waitObservers(dataSource: DataSource): Array<(seconds: number) => void> {
  let list = observersOf.get(dataSource);
  if (!list) observersOf.set(dataSource, (list = []));
  return list;
}

/** Tells `observe` how long each query or transaction waited for the gate (seconds); no-op off SQLite. */
export function observeGateWaits(dataSource: DataSource, observe: (seconds: number) => void): void {
  waitObservers(dataSource).push(observe);
}

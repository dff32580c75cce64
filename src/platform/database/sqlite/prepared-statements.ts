import type { Database, RunResult, Statement } from 'sqlite3';
import { QueryFailedError, QueryResult } from 'typeorm';

/** How many statements stay prepared: far more than the distinct statements of a busy minute. */
const KEPT = 256;

/**
 * The statements of the one SQLite connection, each prepared once by its text and run again with new parameters:
 * one trip to the thread pool a query where sqlite3's `Database#all` and `#run` take two (prepare, then run) and
 * finalize the statement after it. Least recently used first out (finalized when its queued runs are done).
 * A query is answered the way TypeORM's SqliteQueryRunner answers it: the new row's id for an INSERT, the rows
 * otherwise, the changed rows' count as `affected`.
 */
export class PreparedStatements {
  private readonly statements = new Map<string, Statement>();
  /** Preparations under way: the connection closes only once they are done and their statements finalized. */
  private readonly preparing = new Set<Promise<unknown>>();

  constructor(
    /** sqlite3's connection: TypeORM's SqliteDriver#databaseConnection. */
    readonly connection: Database,
    /** Milliseconds before a statement SQLite answered SQLITE_BUSY is tried again (TypeORM's busyErrorRetry). */
    private readonly busyRetryMs: number | undefined,
  ) {}

  /**
   * Whether `sql` may run here: not a write that returns rows (`run` would leave such a statement part-way, open
   * inside its transaction; TypeORM reads those through `all` after a leading comment, which this keeps).
   */
  static takes(sql: string): boolean {
    return !(/^(INSERT|UPDATE|DELETE) /.test(sql) && /\bRETURNING\b/i.test(sql));
  }

  /** Runs `sql` with `parameters`; the structured result, or what TypeORM's `query()` answers without one. */
  async query(sql: string, parameters: unknown[] | undefined, structured: boolean): Promise<unknown> {
    const statement = this.statements.get(sql) ?? (await this.prepare(sql, parameters));
    const insert = sql.startsWith('INSERT ');
    const writes = insert || sql.startsWith('UPDATE ') || sql.startsWith('DELETE ');
    const { rows, lastID, changes } = await this.execute(statement, sql, parameters ?? [], writes);
    const result = new QueryResult();
    result.raw = insert ? lastID : rows;
    if (Array.isArray(rows)) result.records = rows;
    result.affected = changes;
    return structured ? result : result.raw;
  }

  /** Finalizes every kept statement: the connection closes only without any. */
  async finalizeAll(): Promise<void> {
    await Promise.allSettled([...this.preparing]);
    const all = [...this.statements.values()];
    this.statements.clear();
    await Promise.all(all.map((s) => new Promise<void>((done) => s.finalize(() => done()))));
  }

  /**
   * Prepares and keeps `sql`. Waits for the preparation: sqlite3 drops the runs queued on a statement whose
   * preparation failed without calling them back.
   */
  private async prepare(sql: string, parameters: unknown[] | undefined): Promise<Statement> {
    const preparation = new Promise<Statement>((ok, fail) => {
      const prepared: Statement = this.connection.prepare(sql, (err) =>
        err ? fail(new QueryFailedError(sql, parameters, err)) : ok(prepared),
      );
    });
    this.preparing.add(preparation);
    let statement: Statement;
    try {
      statement = await preparation;
    } finally {
      this.preparing.delete(preparation);
    }
    this.statements.set(sql, statement);
    if (this.statements.size > KEPT) {
      const [oldest, evicted] = this.statements.entries().next().value as [string, Statement];
      this.statements.delete(oldest);
      evicted.finalize();
    }
    return statement;
  }

  private execute(
    statement: Statement,
    sql: string,
    parameters: unknown[],
    writes: boolean,
  ): Promise<{ rows?: unknown[]; lastID?: number; changes?: number }> {
    // Most recently used last: the Map's order is the eviction order.
    this.statements.delete(sql);
    this.statements.set(sql, statement);
    const busyRetryMs = this.busyRetryMs;
    return new Promise((ok, fail) => {
      const attempt = () => {
        const done = function (this: RunResult, err: Error | null, rows?: unknown[]) {
          if (err) {
            if (String(err).includes('SQLITE_BUSY:') && busyRetryMs && busyRetryMs > 0) {
              setTimeout(attempt, busyRetryMs);
              return;
            }
            fail(new QueryFailedError(sql, parameters, err));
            return;
          }
          ok(writes ? { lastID: this.lastID, changes: this.changes } : { rows });
        };
        if (writes) statement.run(parameters, done);
        else statement.all(parameters, done);
      };
      attempt();
    });
  }
}

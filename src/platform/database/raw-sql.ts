import { DataSource, EntityManager } from 'typeorm';

/**
 * The one place where a statement written by hand meets the two engines (SQLite in one process, PostgreSQL shared by
 * instances): placeholders, how a date or a flag is written, case-insensitive matching and advisory locks. A feature
 * writes its statements once, with `?` placeholders, in its store file, and never asks which engine it runs on.
 */
export type Database = DataSource | EntityManager;

function isPostgres(db: Database): boolean {
  const source = db instanceof EntityManager ? db.connection : db;
  return source.options.type === 'postgres';
}

/**
 * A statement written with `?` placeholders as the database takes it: PostgreSQL's `$1, $2, …`, SQLite's `?` as they
 * are. Worked out once where the statement is used often. A `?` inside a quoted literal is not a placeholder: the
 * statements given here have none.
 */
export function positional(db: Database, sql: string): string {
  if (!isPostgres(db)) return sql;
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

/** A `?` placeholder for each value, comma-separated: an IN list's or a VALUES row's. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** Runs a statement written with `?` placeholders. */
export function runSql<T = unknown>(db: Database, sql: string, params: unknown[]): Promise<T[]> {
  return db.query(positional(db, sql), params);
}

/**
 * An UPDATE's count of changed rows. `sql` ends with a RETURNING clause and starts with a comment: TypeORM's SQLite
 * runner then reads the returned rows (it runs statements starting with "UPDATE " without reading any), while on
 * PostgreSQL it answers an UPDATE with its rows and their count.
 */
export async function updatedCount(db: Database, sql: string, params: unknown[]): Promise<number> {
  const result = (await runSql(db, sql, params)) as unknown[];
  if (!isPostgres(db)) return result.length;
  return Number(result[1]);
}

/**
 * Runs an INSERT of one row written with `?` placeholders; with `withId`, answers the new row's id (PostgreSQL's
 * RETURNING row; TypeORM's SQLite driver answers an INSERT with its lastID), else 0.
 */
export async function insertRow(db: Database, sql: string, params: unknown[], withId: boolean): Promise<number> {
  const postgres = isPostgres(db);
  const inserted: unknown = await db.query(
    `${positional(db, sql)}${postgres && withId ? ' RETURNING id' : ''}`,
    params,
  );
  if (!withId) return 0;
  return postgres ? Number((inserted as Array<{ id: number | string }>)[0].id) : Number(inserted);
}

/** A date as a statement writes it: PostgreSQL takes the Date; SQLite keeps UTC text, the way TypeORM writes it. */
export function storedDate(db: Database, at: Date): Date | string {
  return isPostgres(db) ? at : at.toISOString().replace('T', ' ').replace('Z', '');
}

/** A flag as a statement writes it: PostgreSQL's boolean, SQLite's 1 or 0. */
export function storedFlag(db: Database, value: boolean): boolean | number {
  return isPostgres(db) ? value : value ? 1 : 0;
}

/** A date column as a raw query reads it: a Date from PostgreSQL, UTC text ('YYYY-MM-DD HH:MM:SS[.SSS]') from SQLite. */
export function readDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}

/**
 * The clause that keeps a SELECT's rows locked against other writers until the transaction ends: PostgreSQL's
 * FOR UPDATE; none on SQLite, where every transaction is exclusive already (sqlite/serialiser.ts).
 */
export function rowLock(db: Database): ' FOR UPDATE' | '' {
  return isPostgres(db) ? ' FOR UPDATE' : '';
}

/** The LIKE that ignores case: PostgreSQL's ILIKE; SQLite's LIKE already ignores the case of ASCII letters. */
export function caseInsensitiveLike(db: Database): 'ILIKE' | 'LIKE' {
  return isPostgres(db) ? 'ILIKE' : 'LIKE';
}

/**
 * Holds an advisory lock until the transaction `tx` ends, so that instances doing the same one-off work (a first
 * start on an empty database) queue behind each other: PostgreSQL's pg_advisory_xact_lock, a number or a name
 * (hashed by hashtext); on SQLite every transaction is exclusive already (sqlite/serialiser.ts).
 */
export async function lockForTransaction(tx: EntityManager, key: number | string): Promise<void> {
  if (!isPostgres(tx)) return;
  if (typeof key === 'number') await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
  else await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

/**
 * Runs `work` while this instance holds the advisory lock `key` (PostgreSQL's pg_try_advisory_lock, on a connection of
 * its own), or answers null at once when another instance holds it. SQLite has one process: `work` runs.
 */
export async function whileLocked<T>(db: DataSource, key: number, work: () => Promise<T>): Promise<T | null> {
  if (!isPostgres(db)) return work();
  const runner = db.createQueryRunner();
  try {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as Array<{
      locked: boolean;
    }>;
    if (!locked) return null;
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await runner.release();
  }
}

import { EntityManager } from 'typeorm';

/** A statement written with `?` placeholders, run with PostgreSQL's `$n` where that is the database. */
export function run<T = unknown>(tx: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  if (tx.connection.options.type !== 'postgres') return tx.query(sql, params);
  let i = 0;
  return tx.query(
    sql.replace(/\?/g, () => `$${++i}`),
    params,
  );
}

/**
 * An UPDATE's count of changed rows. `sql` ends with a RETURNING clause and starts with a comment: TypeORM's SQLite
 * runner then reads the returned rows (it runs statements starting with "UPDATE " without reading any), while on
 * PostgreSQL it answers an UPDATE with its rows and their count.
 */
export async function updated(tx: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const result = (await run(tx, sql, params)) as unknown[];
  if (tx.connection.options.type !== 'postgres') return result.length;
  return Number(result[1]);
}

/** A date as the database stores it: PostgreSQL takes the Date; SQLite keeps UTC text as TypeORM writes it. */
export function dbDate(tx: EntityManager, at: Date): Date | string {
  return tx.connection.options.type === 'postgres' ? at : at.toISOString().replace('T', ' ').replace('Z', '');
}

/** A boolean as the database stores it: PostgreSQL takes it; SQLite keeps 1 or 0. */
export function dbBoolean(tx: EntityManager, value: boolean): boolean | number {
  return tx.connection.options.type === 'postgres' ? value : value ? 1 : 0;
}

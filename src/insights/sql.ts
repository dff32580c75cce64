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

/** A date as the database stores it: PostgreSQL takes the Date; SQLite keeps UTC text as TypeORM writes it. */
export function dbDate(tx: EntityManager, at: Date): Date | string {
  return tx.connection.options.type === 'postgres' ? at : at.toISOString().replace('T', ' ').replace('Z', '');
}

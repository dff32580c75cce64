import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { findRow, FindRowOptions, findRowWithCount, RowKey } from './entity-rows';
import { rowLock, runSql } from './raw-sql';

/**
 * Reads one row by id and keeps it locked against other writers until the transaction ends: a row lock
 * (SELECT … FOR UPDATE) on PostgreSQL; on SQLite every transaction is exclusive already (sqlite/serialiser.ts).
 * Count-then-write limits take their organisation's row this way, so parallel requests queue behind each other.
 * `select`: the properties to read (by default every column).
 */
export function lockRow<T extends ObjectLiteral>(
  tx: EntityManager,
  entity: EntityTarget<T>,
  id: number | string,
  select?: FindRowOptions<T>['select'],
): Promise<T | null> {
  if (!tx.queryRunner?.isTransactionActive) throw new Error('lockRow needs a transaction');
  return findRow(tx.getRepository(entity), { id } as RowKey<T>, { lock: true, select });
}

/**
 * {@link lockRow}, then a count that must see every write the lock waited for (a count-then-write limit: its
 * organisation's row, then the rows the limit counts). `count` is a statement of one `COUNT(*) AS "n"` with `?`
 * placeholders. On PostgreSQL two statements: a statement's snapshot is taken when it starts, so a count in the
 * locking statement would miss what the transaction it waited for committed. On SQLite, where the transaction holds
 * the database from its start (sqlite/serialiser.ts), one: the row's columns and the count read together.
 */
export async function lockRowAndCount<T extends ObjectLiteral>(
  tx: EntityManager,
  entity: EntityTarget<T>,
  id: number | string,
  select: FindRowOptions<T>['select'],
  count: { sql: string; params: unknown[] },
): Promise<{ row: T; count: number } | null> {
  if (rowLock(tx)) {
    const row = await lockRow(tx, entity, id, select);
    if (!row) return null;
    const [counted] = await runSql<{ n: number | string }>(tx, count.sql, count.params);
    return { row, count: Number(counted?.n ?? 0) };
  }
  if (!tx.queryRunner?.isTransactionActive) throw new Error('lockRowAndCount needs a transaction');
  return findRowWithCount(tx.getRepository(entity), { id } as RowKey<T>, count, { select });
}

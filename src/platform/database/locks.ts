import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { findRow, FindRowOptions, RowKey } from './entity-rows';

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

import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Reads one row by id and keeps it locked against other writers until the transaction ends: a row lock
 * (SELECT … FOR UPDATE) on PostgreSQL; on SQLite every transaction is exclusive already (sqlite/serialiser.ts).
 * Count-then-write limits take their organisation's row this way, so parallel requests queue behind each other.
 */
export function lockRow<T extends ObjectLiteral>(
  tx: EntityManager,
  entity: EntityTarget<T>,
  id: number | string,
): Promise<T | null> {
  if (!tx.queryRunner?.isTransactionActive) throw new Error('lockRow needs a transaction');
  const qb = tx.getRepository(entity).createQueryBuilder('locked').where('locked.id = :id', { id });
  if (tx.connection.options.type === 'postgres') qb.setLock('pessimistic_write');
  return qb.getOne();
}

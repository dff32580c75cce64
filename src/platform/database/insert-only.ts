import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

/**
 * One INSERT and nothing read back. TypeORM's `save()` first SELECTs the row by its id (to choose between INSERT
 * and UPDATE), and `insert()` reads the columns with database defaults back (SQLite has no RETURNING for it): round
 * trips for nothing when the caller needs no value the database makes. A password login ran 12 statements and now
 * runs 9, inside the transaction that holds the SQLite gate.
 */
export async function insertOnly<T extends ObjectLiteral>(
  tx: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<void> {
  await tx.createQueryBuilder().insert().into(entity).values(values).updateEntity(false).execute();
}

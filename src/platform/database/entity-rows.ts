import { EntityMetadata, ObjectLiteral, Repository } from 'typeorm';
import { positional, rowLock } from './raw-sql';

/** Which row: columns of the entity (by their property names) and the value each must equal. */
export type RowKey<T> = { [K in keyof T]?: string | number };

export interface FindRowOptions<T> {
  /** The properties to read (by default every column of the entity); the others stay undefined, as with `select`. */
  select?: readonly (keyof T & string)[];
  /** Keep the row locked against other writers until `tx` ends: FOR UPDATE on PostgreSQL (see locks.ts). */
  lock?: boolean;
}

/** One statement of one entity, worked out once: its SQL as the engine takes it, and the columns it reads. */
interface RowStatement {
  sql: string;
  read: EntityMetadata['columns'];
}

const statements = new WeakMap<EntityMetadata, Map<string, RowStatement>>();

function statementOf<T extends ObjectLiteral>(
  repository: Repository<T>,
  by: string[],
  { select, lock }: FindRowOptions<T>,
): RowStatement {
  const metadata = repository.metadata;
  const shape = `${by.join(',')}|${select?.join(',') ?? '*'}|${lock ? 'lock' : ''}`;
  let ofEntity = statements.get(metadata);
  if (!ofEntity) statements.set(metadata, (ofEntity = new Map()));
  const known = ofEntity.get(shape);
  if (known) return known;
  const driver = repository.manager.connection.driver;
  const column = (property: string) => {
    const found = metadata.findColumnWithPropertyName(property);
    if (!found) throw new Error(`${metadata.name} has no column ${property}`);
    return found;
  };
  const read = select ? select.map(column) : metadata.columns;
  const where = by.map((property) => `${driver.escape(column(property).databaseName)} = ?`).join(' AND ');
  const forUpdate = lock ? rowLock(repository.manager) : '';
  const statement = {
    sql: positional(
      repository.manager,
      `SELECT ${read.map((c) => driver.escape(c.databaseName)).join(', ')} FROM ${driver.escape(metadata.tableName)} WHERE ${where} LIMIT 1${forUpdate}`,
    ),
    read,
  };
  ofEntity.set(shape, statement);
  return statement;
}

/**
 * One row of an entity, found by equal columns, read with a statement worked out once per entity and shape and
 * hydrated as TypeORM's `findOne` hydrates it: an instance of the entity, each column through the driver's own
 * conversion (SQLite's 0/1 flags and date text, PostgreSQL's types). For the hot paths (a sign-in's account, its
 * organisation's rules, the row a count-then-write limit locks), where building a query and hydrating it through the
 * query builder cost more than the statement itself; relations are not loaded (none of those paths reads one).
 * Only TypeORM's public API: the entity's metadata and the driver's `escape` and `prepareHydratedValue`.
 */
export async function findRow<T extends ObjectLiteral>(
  repository: Repository<T>,
  key: RowKey<T>,
  options: FindRowOptions<T> = {},
): Promise<T | null> {
  const by = Object.keys(key).sort();
  const statement = statementOf(repository, by, options);
  const params = by.map((property) => key[property as keyof T]);
  const rows = (await repository.manager.query(statement.sql, params)) as Array<Record<string, unknown>>;
  const row = rows[0];
  if (!row) return null;
  const driver = repository.manager.connection.driver;
  const entity = repository.metadata.create() as T;
  for (const column of statement.read)
    column.setEntityValue(entity, driver.prepareHydratedValue(row[column.databaseName], column));
  return entity;
}

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

/** The row of another entity that a row refers to, read with it: the referring property, and what to read of it. */
export interface JoinedRow<T, J extends ObjectLiteral> {
  repository: Repository<J>;
  /** The property of the first entity holding the joined row's id. */
  by: keyof T & string;
  select: readonly (keyof J & string)[];
}

/** One statement of one entity, worked out once: its SQL as the engine takes it, and the columns it reads. */
interface RowStatement {
  sql: string;
  read: EntityMetadata['columns'];
  /** The joined entity's columns, read under the names `joined.<column>`. */
  joined?: EntityMetadata['columns'];
}

const statements = new WeakMap<EntityMetadata, Map<string, RowStatement>>();
/** The joined entity's columns come back under these names, apart from the first entity's own. */
const JOINED = 'joined.';
/** The name a count read with a row comes back under. */
const COUNTED = 'counted.n';

function columnOf(metadata: EntityMetadata, property: string) {
  const found = metadata.findColumnWithPropertyName(property);
  if (!found) throw new Error(`${metadata.name} has no column ${property}`);
  return found;
}

function statementOf<T extends ObjectLiteral, J extends ObjectLiteral = ObjectLiteral>(
  repository: Repository<T>,
  by: string[],
  { select, lock }: FindRowOptions<T>,
  { join, count }: { join?: JoinedRow<T, J>; count?: string } = {},
): RowStatement {
  const metadata = repository.metadata;
  const joinedShape = join ? `|${join.repository.metadata.tableName}.${join.by}:${join.select.join(',')}` : '';
  const shape = `${by.join(',')}|${select?.join(',') ?? '*'}|${lock ? 'lock' : ''}${joinedShape}|${count ?? ''}`;
  let ofEntity = statements.get(metadata);
  if (!ofEntity) statements.set(metadata, (ofEntity = new Map()));
  const known = ofEntity.get(shape);
  if (known) return known;
  const driver = repository.manager.connection.driver;
  const q = (name: string) => driver.escape(name);
  const read = select ? select.map((p) => columnOf(metadata, p)) : metadata.columns;
  const where = by.map((property) => `${q('t')}.${q(columnOf(metadata, property).databaseName)} = ?`).join(' AND ');
  const forUpdate = lock ? rowLock(repository.manager) : '';
  const columns = read.map((c) => `${q('t')}.${q(c.databaseName)}`);
  let from = `${q(metadata.tableName)} ${q('t')}`;
  let joined: EntityMetadata['columns'] | undefined;
  if (join) {
    const other = join.repository.metadata;
    const [primary] = other.primaryColumns;
    // Its id is always read: an empty one is how a missing row shows.
    joined = [...new Set([primary.propertyName, ...join.select])].map((p) => columnOf(other, p));
    columns.push(...joined.map((c) => `${q('j')}.${q(c.databaseName)} AS ${q(JOINED + c.databaseName)}`));
    from += ` LEFT JOIN ${q(other.tableName)} ${q('j')} ON ${q('j')}.${q(primary.databaseName)} = ${q('t')}.${q(columnOf(metadata, join.by).databaseName)}`;
  }
  if (count) columns.push(`(${count}) AS ${q(COUNTED)}`);
  const statement = {
    sql: positional(repository.manager, `SELECT ${columns.join(', ')} FROM ${from} WHERE ${where} LIMIT 1${forUpdate}`),
    read,
    joined,
  };
  ofEntity.set(shape, statement);
  return statement;
}

/** An instance of the entity from a row's columns, each through the driver's own conversion. */
function hydrate<T extends ObjectLiteral>(
  repository: Repository<T>,
  columns: EntityMetadata['columns'],
  row: Record<string, unknown>,
  prefix = '',
): T {
  const driver = repository.manager.connection.driver;
  const entity = repository.metadata.create() as T;
  for (const column of columns)
    column.setEntityValue(entity, driver.prepareHydratedValue(row[prefix + column.databaseName], column));
  return entity;
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
  const { statement, found } = await firstRow(repository, key, options);
  return found ? hydrate(repository, statement.read, found) : null;
}

/**
 * {@link findRow}, with the row of another entity it refers to read in the same statement (a LEFT JOIN on that
 * entity's id): `joined` is null when the reference is empty or finds no row. A sign-in reads its account with its
 * organisation's rules this way, one statement before the hash instead of two.
 */
export async function findRowWith<T extends ObjectLiteral, J extends ObjectLiteral>(
  repository: Repository<T>,
  key: RowKey<T>,
  join: JoinedRow<T, J>,
  options: Omit<FindRowOptions<T>, 'lock'> = {},
): Promise<{ row: T; joined: J | null } | null> {
  const { statement, found } = await firstRow(repository, key, options, { join });
  if (!found) return null;
  const [primary] = join.repository.metadata.primaryColumns;
  const joined =
    found[JOINED + primary.databaseName] == null
      ? null
      : hydrate(join.repository, statement.joined ?? [], found, JOINED);
  return { row: hydrate(repository, statement.read, found), joined };
}

/**
 * {@link findRow}, with a count read in the same statement: `count` is a statement of one `COUNT(*)` with `?`
 * placeholders, its values in `params`. For SQLite's count-then-write limits ({@link lockRowAndCount}).
 */
export async function findRowWithCount<T extends ObjectLiteral>(
  repository: Repository<T>,
  key: RowKey<T>,
  count: { sql: string; params: unknown[] },
  options: Omit<FindRowOptions<T>, 'lock'> = {},
): Promise<{ row: T; count: number } | null> {
  const { statement, found } = await firstRow(repository, key, options, { count: count.sql }, count.params);
  return found ? { row: hydrate(repository, statement.read, found), count: Number(found[COUNTED]) } : null;
}

/**
 * Runs the statement of a key's shape and answers its first row as the engine returned it. `before`: the values of
 * placeholders in the SELECT list (a count's), which come before the key's in the WHERE.
 */
async function firstRow<T extends ObjectLiteral, J extends ObjectLiteral>(
  repository: Repository<T>,
  key: RowKey<T>,
  options: FindRowOptions<T>,
  also?: { join?: JoinedRow<T, J>; count?: string },
  before: unknown[] = [],
): Promise<{ statement: RowStatement; found: Record<string, unknown> | undefined }> {
  const by = Object.keys(key).sort();
  const statement = statementOf(repository, by, options, also);
  const params = [...before, ...by.map((p) => key[p as keyof T])];
  const rows = (await repository.manager.query(statement.sql, params)) as Array<Record<string, unknown>>;
  return { statement, found: rows[0] };
}

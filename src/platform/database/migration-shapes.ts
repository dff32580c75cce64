import { QueryRunner, TableColumnOptions, TableForeignKeyOptions } from 'typeorm';

/**
 * The shapes the migrations repeat, each written once, for the database the query runner works on. A released
 * migration's result never changes: a shape here is never edited; a different one is a new export.
 */
export function portable(q: QueryRunner) {
  const postgres = q.connection.driver.options.type === 'postgres';
  const date = postgres ? 'timestamptz' : 'datetime';
  const now = postgres ? 'now()' : "datetime('now')";
  return {
    postgres,
    /** The moment column type. */
    date,
    /** The database's current moment, as a column default. */
    now,
    /** The generated integer key of a table. */
    id: {
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    } satisfies TableColumnOptions,
    /** When the row was written. */
    createdAt: { name: 'createdAt', type: date, default: now } satisfies TableColumnOptions,
  };
}

/** A column that names a row of `table` by its id; the row goes (or the column is emptied) with the one it names. */
export function foreignKey(
  column: string,
  table: string,
  onDelete: 'CASCADE' | 'SET NULL' = 'CASCADE',
): TableForeignKeyOptions {
  return { columnNames: [column], referencedTableName: table, referencedColumnNames: ['id'], onDelete };
}

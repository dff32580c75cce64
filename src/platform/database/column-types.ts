import { getMetadataArgsStorage } from 'typeorm';

/**
 * The portable column types of the entities. Decorators run at import, before the configuration says
 * which database is in use, so entities name these types and {@link useColumnTypesOf} maps them for the
 * database the data source is built for (dataSourceOptions calls it). Migrations decide per driver
 * (`q.connection.driver.options.type`), never with these constants: they would name SQLite's types.
 */
export const DATE_TYPE = 'datetime';
/** The portable binary column type (file contents). */
export const BINARY_TYPE = 'blob';

/** Each portable type as each database names it. */
const TYPES = [
  { sqlite: 'datetime', postgres: 'timestamptz' },
  { sqlite: 'blob', postgres: 'bytea' },
] as const;

/** Maps every entity column of a portable type to the name this database uses (idempotent, either way). */
export function useColumnTypesOf(database: 'sqlite' | 'postgres'): void {
  for (const column of getMetadataArgsStorage().columns) {
    const pair = TYPES.find((t) => column.options.type === t.sqlite || column.options.type === t.postgres);
    if (pair) column.options.type = pair[database];
  }
}

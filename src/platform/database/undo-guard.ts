import { QueryRunner } from 'typeorm';

/**
 * The first step of a migration's down() that drops tables (or columns) holding what people, administrators or the
 * product itself recorded: it refuses while any of them holds data, so that undoing a migration never deletes data
 * without saying so. Going back to an earlier release is then a restore of the backup taken before the upgrade
 * (docs/operating.md). Tables that only index other data, or hold values valid for minutes, are not named here.
 */
export async function refuseToDeleteData(
  q: QueryRunner,
  migration: string,
  tables: string[],
  columns: Array<[table: string, column: string]> = [],
): Promise<void> {
  const holding: string[] = [];
  for (const table of tables) {
    const rows = (await q.query(`SELECT 1 FROM "${table}" LIMIT 1`)) as unknown[];
    if (rows.length > 0) holding.push(`"${table}"`);
  }
  for (const [table, column] of columns) {
    const rows = (await q.query(`SELECT 1 FROM "${table}" WHERE "${column}" IS NOT NULL LIMIT 1`)) as unknown[];
    if (rows.length > 0) holding.push(`"${table}"."${column}"`);
  }
  if (holding.length === 0) return;
  throw new Error(
    `${migration} cannot be undone: its down() would delete the data in ${holding.join(', ')}. ` +
      'Restore the backup taken before the upgrade instead (docs/operating.md).',
  );
}

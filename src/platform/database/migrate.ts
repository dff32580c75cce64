import { DataSource } from 'typeorm';

/** Advisory-lock keys of this product on a shared PostgreSQL (any fixed numbers; one per purpose). */
export const ADVISORY_LOCKS = { MIGRATIONS: 7_401_001, BOOTSTRAP: 7_401_002, AUDIT_PURGE: 7_401_013 } as const;

/**
 * Runs pending migrations. On PostgreSQL under a session advisory lock, so instances started together
 * migrate one after the other (the later ones find nothing left to do) instead of racing on the schema.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await recordRenamedMigrations(dataSource);
    await dataSource.runMigrations();
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.MIGRATIONS]);
    try {
      await recordRenamedMigrations(dataSource);
      await dataSource.runMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.MIGRATIONS]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * Migrations whose name changed after a database had recorded them under the earlier one. Without this, a database
 * of that release would run the migration a second time under its new name and fail on the table it already has.
 */
export const RENAMED_MIGRATIONS = [
  { from: 'StoredFiles1763830000000', to: 'StoredFiles1763850000000', timestamp: 1763850000000 },
];

/** Records each renamed migration a database ran under its earlier name as run under the current one. */
async function recordRenamedMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable('migrations'))) return;
    const postgres = dataSource.options.type === 'postgres';
    for (const { from, to, timestamp } of RENAMED_MIGRATIONS) {
      await runner.query(
        postgres
          ? 'UPDATE "migrations" SET "name" = $1, "timestamp" = $2 WHERE "name" = $3'
          : 'UPDATE "migrations" SET "name" = ?, "timestamp" = ? WHERE "name" = ?',
        [to, timestamp, from],
      );
    }
  } finally {
    await runner.release();
  }
}

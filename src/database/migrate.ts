import { DataSource } from 'typeorm';

/** Advisory-lock keys of this product on a shared PostgreSQL (any fixed numbers; one per purpose). */
export const ADVISORY_LOCKS = { MIGRATIONS: 7_401_001, BOOTSTRAP: 7_401_002, AUDIT_PURGE: 7_401_013 } as const;

/**
 * Runs pending migrations. On PostgreSQL under a session advisory lock, so instances started together
 * migrate one after the other (the later ones find nothing left to do) instead of racing on the schema.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations();
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.MIGRATIONS]);
    try {
      await dataSource.runMigrations();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.MIGRATIONS]);
    }
  } finally {
    await runner.release();
  }
}

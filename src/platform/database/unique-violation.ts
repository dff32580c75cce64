import { QueryFailedError } from 'typeorm';

/** True when a write failed on a unique index: PostgreSQL's 23505, SQLite's UNIQUE constraint. */
export function isUniqueViolation(e: unknown): boolean {
  if (!(e instanceof QueryFailedError)) return false;
  const driverError = e.driverError as { code?: string; message?: string } | undefined;
  return (
    driverError?.code === '23505' ||
    (driverError?.code === 'SQLITE_CONSTRAINT' && /UNIQUE/.test(driverError.message ?? ''))
  );
}

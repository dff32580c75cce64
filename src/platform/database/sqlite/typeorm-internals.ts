import { DataSource } from 'typeorm';
import { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';
import { SqliteQueryRunner } from 'typeorm/driver/sqlite/SqliteQueryRunner';

/**
 * What the serialiser relies on inside TypeORM 0.3's SQLite driver, and the check that it is still there. The
 * serialiser is what keeps two requests' transactions apart on the one connection (and so what keeps an
 * acknowledged write), so a driver that no longer has this shape stops the server instead of running without it.
 *
 * Upstream, what would retire it: a SQLite driver that gives each query runner its own transaction state and
 * queues `BEGIN` behind an open transaction instead of nesting it as a savepoint (typeorm/typeorm#1884, #307), or
 * a public hook to supply the driver's query runner.
 */
export function typeormSqliteProblems(dataSource: DataSource): string[] {
  const driver = dataSource.driver;
  if (!(driver instanceof SqliteDriver)) return [];
  const problems: string[] = [];
  if (typeof driver.createQueryRunner !== 'function') problems.push('SqliteDriver#createQueryRunner is gone');
  if (typeof driver.disconnect !== 'function') problems.push('SqliteDriver#disconnect is gone');
  for (const method of ['query', 'startTransaction', 'commitTransaction', 'rollbackTransaction', 'release'] as const)
    if (typeof SqliteQueryRunner.prototype[method] !== 'function') problems.push(`SqliteQueryRunner#${method} is gone`);
  // The transaction state the serialiser reads and resets: protected fields, so only an instance shows them.
  const probe = new SqliteQueryRunner(driver) as unknown as {
    isTransactionActive?: unknown;
    transactionDepth?: unknown;
  };
  if (typeof probe.isTransactionActive !== 'boolean') problems.push('SqliteQueryRunner#isTransactionActive is gone');
  if (typeof probe.transactionDepth !== 'number') problems.push('SqliteQueryRunner#transactionDepth is gone');
  return problems;
}

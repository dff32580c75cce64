import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/env.validation';
import { useColumnTypesOf } from './column-types';

/**
 * The sqlite3 module without its long-stack-trace mode: TypeORM calls `verbose()` on the driver, which
 * makes sqlite3 capture a stack and util.inspect every argument of every call (a tenth of the CPU of a
 * signed-in request). Errors still carry their SQL through TypeORM's QueryFailedError.
 */
function quietSqlite3(): unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sqlite3 = require('sqlite3') as object;
  return Object.assign(Object.create(sqlite3) as object, { verbose: () => sqlite3 });
}

/** Migrations: every file in migrations/, applied in the order of the timestamp in their names. */
const MIGRATIONS_GLOB = join(__dirname, 'migrations', '*.{ts,js}');

/**
 * The one description of the database, for the app and for ormconfig.ts (the migration CLI). The app
 * registers entities through each module's TypeOrmModule.forFeature (autoLoadEntities); the CLI by glob.
 */
export function dataSourceOptions(
  config: Pick<AppConfig, 'dataDir' | 'databaseUrl'>,
  entities: DataSourceOptions['entities'] = [],
): DataSourceOptions {
  const common = { entities, migrations: [MIGRATIONS_GLOB], migrationsRun: true, synchronize: false, logging: false };
  useColumnTypesOf(config.databaseUrl ? 'postgres' : 'sqlite');
  if (config.databaseUrl) return { ...common, type: 'postgres', url: config.databaseUrl };
  return {
    ...common,
    type: 'sqlite',
    driver: quietSqlite3(),
    database: join(config.dataDir, 'app.sqlite'),
    enableWAL: true,
    busyErrorRetry: 2000,
  };
}

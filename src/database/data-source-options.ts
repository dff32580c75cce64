import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/env.validation';
import { useColumnTypesOf } from './column-types';

/** Migrations: every file in migrations/, applied in the order of the timestamp in their names. */
const MIGRATIONS_GLOB = join(__dirname, 'migrations', '*.{ts,js}');

/**
 * The one description of the database, for the app and for ormconfig.ts (the migration CLI). The app
 * registers entities through each module's TypeOrmModule.forFeature (autoLoadEntities); the CLI by glob.
 */
export function dataSourceOptions(config: Pick<AppConfig, 'dataDir' | 'databaseUrl'>, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  const common = { entities, migrations: [MIGRATIONS_GLOB], migrationsRun: true, synchronize: false, logging: false };
  useColumnTypesOf(config.databaseUrl ? 'postgres' : 'sqlite');
  if (config.databaseUrl) return { ...common, type: 'postgres', url: config.databaseUrl };
  return { ...common, type: 'sqlite', database: join(config.dataDir, 'app.sqlite'), enableWAL: true, busyErrorRetry: 2000 };
}

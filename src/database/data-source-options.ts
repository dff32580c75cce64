import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/env.validation';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** The one description of the database, used by the app and by ormconfig.ts (the migration CLI). */
export function dataSourceOptions(config: Pick<AppConfig, 'dataDir' | 'databaseUrl'>): DataSourceOptions {
  const common = { entities: ENTITIES, migrations: MIGRATIONS, migrationsRun: true, synchronize: false, logging: false } as const;
  if (config.databaseUrl) return { ...common, type: 'postgres', url: config.databaseUrl };
  return { ...common, type: 'sqlite', database: join(config.dataDir, 'app.sqlite'), enableWAL: true, busyErrorRetry: 2000 };
}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { dataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';
import { serialiseSqlite } from './sqlite/serialiser';
import { SqliteSettings } from './sqlite-settings';

/**
 * Opens the database and runs pending migrations (one instance at a time on PostgreSQL) before the app
 * serves anything. On SQLite every
 * transaction and every query outside one pass through one gate (sqlite/serialiser.ts).
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true }),
      dataSourceFactory: async (options) => {
        const dataSource = await serialiseSqlite(
          new DataSource({ ...options!, migrationsRun: false } as DataSourceOptions),
        ).initialize();
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [SqliteSettings],
})
export class DatabaseModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { dataSourceOptions } from './data-source-options';
import { serialiseSqlite } from './sqlite-serialiser';

/**
 * Opens the database and runs pending migrations before the app serves anything. On SQLite every
 * transaction and every query outside one pass through one gate (sqlite-serialiser.ts).
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true }),
      dataSourceFactory: async (options) => serialiseSqlite(new DataSource(options!)).initialize(),
    }),
  ],
})
export class DatabaseModule {}

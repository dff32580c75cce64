import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { dataSourceOptions } from './data-source-options';
import { SqliteSettings } from './sqlite-settings';

/** Opens the database and runs pending migrations before the app serves anything. */
@Module({
  imports: [TypeOrmModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true }) })],
  providers: [SqliteSettings],
})
export class DatabaseModule {}

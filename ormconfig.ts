import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/env.validation';
import { dataSourceOptions } from './src/database/data-source-options';

/** The data source the TypeORM CLI uses: `npm run migration:run`, `npx typeorm-ts-node-commonjs migration:show -d ormconfig.ts`. */
export default new DataSource({ ...dataSourceOptions(loadConfig()), migrationsRun: false });

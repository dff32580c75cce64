import 'reflect-metadata';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/platform/config/env.validation';
import { dataSourceOptions } from './src/platform/database/data-source-options';

/** The data source of the TypeORM CLI: `npm run migration:run`, `npx typeorm-ts-node-commonjs migration:show -d ormconfig.ts`. */
export default new DataSource({
  ...dataSourceOptions(loadConfig(), [join(__dirname, 'src', '**', '*.entity.ts')]),
  migrationsRun: false,
});

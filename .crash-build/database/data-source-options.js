"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.dataSourceOptions = dataSourceOptions;
const node_path_1 = require("node:path");
/** Migrations: every file in migrations/, applied in the order of the timestamp in their names. */
const MIGRATIONS_GLOB = (0, node_path_1.join)(__dirname, 'migrations', '*.{ts,js}');
/**
 * The one description of the database, for the app and for ormconfig.ts (the migration CLI). The app
 * registers entities through each module's TypeOrmModule.forFeature (autoLoadEntities); the CLI by glob.
 */
function dataSourceOptions(config, entities = []) {
    const common = { entities, migrations: [MIGRATIONS_GLOB], migrationsRun: true, synchronize: false, logging: false };
    if (config.databaseUrl)
        return { ...common, type: 'postgres', url: config.databaseUrl };
    return { ...common, type: 'sqlite', database: (0, node_path_1.join)(config.dataDir, 'app.sqlite'), enableWAL: true, busyErrorRetry: 2000 };
}
//# sourceMappingURL=data-source-options.js.map
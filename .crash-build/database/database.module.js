"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DatabaseModule = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_config_module_1 = require("../config/app-config.module");
const data_source_options_1 = require("./data-source-options");
const sqlite_serialiser_1 = require("./sqlite-serialiser");
/**
 * Opens the database and runs pending migrations before the app serves anything. On SQLite every
 * transaction and every query outside one pass through one gate (sqlite-serialiser.ts).
 */
let DatabaseModule = class DatabaseModule {
};
exports.DatabaseModule = DatabaseModule;
exports.DatabaseModule = DatabaseModule = __decorate([
    (0, common_1.Module)({
        imports: [
            typeorm_1.TypeOrmModule.forRootAsync({
                inject: [app_config_module_1.APP_CONFIG],
                useFactory: (config) => ({ ...(0, data_source_options_1.dataSourceOptions)(config), autoLoadEntities: true }),
                dataSourceFactory: async (options) => (0, sqlite_serialiser_1.serialiseSqlite)(new typeorm_2.DataSource(options)).initialize(),
            }),
        ],
    })
], DatabaseModule);
//# sourceMappingURL=database.module.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
require("reflect-metadata");
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const app_module_1 = require("./app.module");
const configure_app_1 = require("./configure-app");
const app_config_module_1 = require("./config/app-config.module");
const env_validation_1 = require("./config/env.validation");
async function main() {
    try {
        (0, env_validation_1.loadConfig)();
    }
    catch (e) {
        if (e instanceof env_validation_1.ConfigError) {
            process.stderr.write(`${e.message}\n`);
            process.exit(1);
        }
        throw e;
    }
    const level = process.env.LOG_LEVEL;
    const app = await core_1.NestFactory.create(app_module_1.AppModule, {
        logger: level === 'silent' ? false : level === 'error' ? ['error'] : ['error', 'warn', 'log'],
    });
    (0, configure_app_1.configureApp)(app);
    const config = app.get(app_config_module_1.APP_CONFIG);
    await app.listen(config.port);
    new common_1.Logger('Main').log(`Serving on ${config.publicUrl} (port ${config.port}, data in ${config.dataDir})`);
}
void main();
//# sourceMappingURL=main.js.map
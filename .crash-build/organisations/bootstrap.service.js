"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.BootstrapService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("typeorm");
const app_config_module_1 = require("../config/app-config.module");
const secrets_1 = require("../common/crypto/secrets");
const password_service_1 = require("../auth/password.service");
const user_entity_1 = require("../users/entities/user.entity");
const roles_1 = require("../shared/roles");
const organisation_entity_1 = require("./entities/organisation.entity");
/**
 * On a start with an empty database: the vendor organisation and its first E-Support account
 * (CONTRACT 1). Without BOOTSTRAP_SUPPORT_PASSWORD a password is generated, printed once, and must be
 * changed at the first sign-in.
 */
let BootstrapService = class BootstrapService {
    db;
    config;
    passwords;
    logger = new common_1.Logger('Bootstrap');
    constructor(db, config, passwords) {
        this.db = db;
        this.config = config;
        this.passwords = passwords;
    }
    async onApplicationBootstrap() {
        if ((await this.db.getRepository(organisation_entity_1.Organisation).count()) > 0)
            return;
        const generated = this.config.bootstrapSupportPassword === undefined;
        const password = this.config.bootstrapSupportPassword ?? (0, secrets_1.temporaryPassword)();
        const passwordHash = await this.passwords.hash(password);
        await this.db.transaction(async (tx) => {
            const org = await tx.getRepository(organisation_entity_1.Organisation).save(tx.getRepository(organisation_entity_1.Organisation).create({
                code: 'VENDOR',
                name: 'Vendor Support',
                isVendor: true,
                allowedUsersNumber: 1000,
                maxConcurrentUsers: 1000,
                applications: ['TAX_MANAGER', 'CA_VIEWER'],
            }));
            await tx.getRepository(user_entity_1.User).save(tx.getRepository(user_entity_1.User).create({
                organisationId: org.id,
                email: this.config.bootstrapSupportEmail,
                passwordHash,
                firstName: 'Support',
                lastName: 'Admin',
                roleId: roles_1.Role.E_SUPPORT,
                isMFAEnforced: false,
                mustChangePassword: generated,
                passwordChangedAt: new Date(),
            }));
        });
        const line = '='.repeat(72);
        const message = generated
            ? `E-Support account created: ${this.config.bootstrapSupportEmail}\nTemporary password (shown once, change it at first login): ${password}`
            : `E-Support account created: ${this.config.bootstrapSupportEmail} (password from BOOTSTRAP_SUPPORT_PASSWORD)`;
        process.stdout.write(`\n${line}\n${message}\n${line}\n\n`);
        this.logger.log(`Vendor organisation created`);
    }
};
exports.BootstrapService = BootstrapService;
exports.BootstrapService = BootstrapService = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [typeorm_1.DataSource, Object, password_service_1.PasswordService])
], BootstrapService);
//# sourceMappingURL=bootstrap.service.js.map
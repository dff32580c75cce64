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
exports.OrganisationsService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("typeorm");
const password_service_1 = require("../auth/password.service");
const app_exception_1 = require("../common/app.exception");
const secrets_1 = require("../common/crypto/secrets");
const app_config_module_1 = require("../config/app-config.module");
const mail_service_1 = require("../mail/mail.service");
const api_types_1 = require("../shared/api-types");
const limits_1 = require("../shared/limits");
const messages_1 = require("../shared/messages");
const organisation_admin_1 = require("../shared/organisation-admin");
const roles_1 = require("../shared/roles");
const user_entity_1 = require("../users/entities/user.entity");
const organisation_entity_1 = require("./entities/organisation.entity");
/**
 * New organisations with their site admin, and new E-Support accounts (spec 001 §2.12, §2.13). Both
 * accounts get a temporary password by e-mail and must choose their own at the first sign-in.
 */
let OrganisationsService = class OrganisationsService {
    db;
    config;
    passwords;
    mail;
    constructor(db, config, passwords, mail) {
        this.db = db;
        this.config = config;
        this.passwords = passwords;
        this.mail = mail;
    }
    async createSiteAdmin(dto) {
        const individual = dto.accountType === 'Individual';
        const password = (0, secrets_1.temporaryPassword)();
        const passwordHash = await this.passwords.hash(password);
        const { org, user } = await this.db.transaction(async (tx) => {
            const duplicateCode = await tx
                .getRepository(organisation_entity_1.Organisation)
                .createQueryBuilder('o')
                .where('LOWER(o.code) = LOWER(:code)', { code: dto.organizationCode })
                .getExists();
            if (duplicateCode)
                throw app_exception_1.AppException.conflict(organisation_admin_1.ORG_ADMIN_MESSAGES.DUPLICATE_CODE, 'DUPLICATE_ORGANISATION_CODE');
            await this.assertEmailFree(tx, dto.userEmail);
            const applications = [
                ...(dto.masterTaxManagerApplicationIds.includes(organisation_admin_1.APPLICATION_IDS.TAX_MANAGER) ? [api_types_1.APPLICATIONS.TAX_MANAGER] : []),
                api_types_1.APPLICATIONS.CA_VIEWER,
            ];
            const org = await tx.getRepository(organisation_entity_1.Organisation).save(tx.getRepository(organisation_entity_1.Organisation).create({
                code: dto.organizationCode,
                // An individual account has no company name: it goes by its owner's e-mail.
                name: individual ? dto.userEmail : dto.organizationName,
                accountType: individual ? 'INDIVIDUAL' : 'ORGANIZATION',
                allowedUsersNumber: dto.allowedUsersNumber,
                maxConcurrentUsers: dto.maxConcurrentUsers,
                maxPortfolios: dto.maxPortfolios,
                applications,
                isSSOEnabled: dto.isSSO,
                ssoLogoutUrl: dto.isSSO && dto.ssoLogoutUrl ? dto.ssoLogoutUrl : null,
            }));
            const user = await tx.getRepository(user_entity_1.User).save(tx.getRepository(user_entity_1.User).create({
                organisationId: org.id,
                email: dto.userEmail,
                passwordHash,
                roleId: roles_1.Role.SITE_ADMIN,
                isMFAEnforced: true,
                isSSO: dto.isSSO,
                mustChangePassword: true,
                passwordChangedAt: new Date(),
            }));
            return { org, user };
        });
        await this.mail.send({
            to: user.email,
            subject: `Your ${messages_1.PRODUCT_NAME} site admin account`,
            text: [
                `An account has been opened for ${org.name} (${org.code}) on ${messages_1.PRODUCT_NAME}, with you as its site admin.`,
                '',
                `Email: ${user.email}`,
                `Temporary password: ${password}`,
                '',
                `Sign in at ${this.config.publicUrl}/logIn and choose your own password when asked.`,
            ].join('\n'),
        });
        return { success: true, message: organisation_admin_1.ORG_ADMIN_MESSAGES.SITE_ADMIN_CREATED, organisationId: org.id, userId: user.id };
    }
    /** A new E-Support account in the caller's (the vendor's) organisation: local part + SUPPORT_EMAIL_DOMAIN. */
    async createESupport(caller, dto) {
        const email = `${dto.userName}@${this.config.supportEmailDomain}`;
        if (!limits_1.EMAIL_PATTERN.test(email) && !/^[^\s@]+@[^\s@]+$/.test(email))
            throw app_exception_1.AppException.badRequest(organisation_admin_1.ORG_ADMIN_MESSAGES.INVALID_EMAIL);
        if (email.length > limits_1.LIMITS.EMAIL_MAX)
            throw app_exception_1.AppException.badRequest(organisation_admin_1.ORG_ADMIN_MESSAGES.EMAIL_TOO_LONG);
        const password = (0, secrets_1.temporaryPassword)();
        const passwordHash = await this.passwords.hash(password);
        const user = await this.db.transaction(async (tx) => {
            await this.assertEmailFree(tx, email);
            return tx.getRepository(user_entity_1.User).save(tx.getRepository(user_entity_1.User).create({
                organisationId: caller.organisationId,
                email,
                passwordHash,
                roleId: roles_1.Role.E_SUPPORT,
                isMFAEnforced: true,
                mustChangePassword: true,
                passwordChangedAt: new Date(),
            }));
        });
        await this.mail.send({
            to: email,
            subject: `Your ${messages_1.PRODUCT_NAME} E-Support account`,
            text: [
                `An E-Support account has been created for you on ${messages_1.PRODUCT_NAME}.`,
                '',
                `Email: ${email}`,
                `Temporary password: ${password}`,
                '',
                `Sign in at ${this.config.publicUrl}/logIn and choose your own password when asked.`,
            ].join('\n'),
        });
        return { success: true, message: organisation_admin_1.ORG_ADMIN_MESSAGES.ESUPPORT_CREATED, userId: user.id, email };
    }
    async assertEmailFree(tx, email) {
        if (await tx.getRepository(user_entity_1.User).existsBy({ email }))
            throw app_exception_1.AppException.conflict(organisation_admin_1.ORG_ADMIN_MESSAGES.DUPLICATE_EMAIL, 'DUPLICATE_EMAIL');
    }
};
exports.OrganisationsService = OrganisationsService;
exports.OrganisationsService = OrganisationsService = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [typeorm_1.DataSource, Object, password_service_1.PasswordService,
        mail_service_1.MailService])
], OrganisationsService);
//# sourceMappingURL=organisations.service.js.map
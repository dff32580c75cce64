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
exports.ContactService = void 0;
const common_1 = require("@nestjs/common");
const app_exception_1 = require("../common/app.exception");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_config_module_1 = require("../config/app-config.module");
const mail_service_1 = require("../mail/mail.service");
const messages_1 = require("../shared/messages");
const shell_1 = require("../shared/shell");
const messages_2 = require("../shared/messages");
const user_entity_1 = require("../users/entities/user.entity");
/** Contact Us: the same rule as the form (spec 001 §5), then an e-mail to SUPPORT_EMAIL. */
let ContactService = class ContactService {
    mail;
    users;
    config;
    logger = new common_1.Logger('Contact');
    constructor(mail, users, config) {
        this.mail = mail;
        this.users = users;
        this.config = config;
    }
    /** `signedInUserId`: the sender's account when the request carries a valid access token. */
    async send(signedInUserId, dto) {
        const errors = (0, shell_1.validateContactMessage)(dto);
        const details = Object.entries(errors).map(([field, message]) => ({ field, message: message }));
        if (details.length)
            throw app_exception_1.AppException.badRequest(details.map((d) => d.message).join('; '), messages_1.ERROR_CODES.VALIDATION_FAILED, { errors: details });
        const email = dto.email.trim();
        const account = signedInUserId ? await this.users.findOneBy({ id: signedInUserId }) : null;
        try {
            await this.mail.send({
                to: this.config.supportEmail,
                replyTo: email,
                subject: `${messages_2.PRODUCT_NAME} contact: ${dto.subject.trim()}`,
                text: [
                    `From: ${dto.name.trim()} <${email}>`,
                    account ? `Signed-in account: ${account.email} (user ${account.id}, organisation ${account.organisationId})` : 'Sent by a visitor who was not signed in.',
                    '',
                    `Subject: ${dto.subject.trim()}`,
                    '',
                    dto.message.trim(),
                ].join('\n'),
            });
        }
        catch (e) {
            this.logger.error(`Contact message could not be e-mailed: ${e.message}`);
            throw new app_exception_1.AppException(common_1.HttpStatus.SERVICE_UNAVAILABLE, 'MAIL_FAILED', shell_1.CONTACT_MESSAGES.FAILED);
        }
        return { success: true };
    }
};
exports.ContactService = ContactService;
exports.ContactService = ContactService = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(2, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [mail_service_1.MailService,
        typeorm_2.Repository, Object])
], ContactService);
//# sourceMappingURL=contact.service.js.map
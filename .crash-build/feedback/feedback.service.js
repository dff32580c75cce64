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
exports.FeedbackService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_exception_1 = require("../common/app.exception");
const app_config_module_1 = require("../config/app-config.module");
const mail_service_1 = require("../mail/mail.service");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const messages_1 = require("../shared/messages");
const user_entity_1 = require("../users/entities/user.entity");
const user_feedback_entity_1 = require("./entities/user-feedback.entity");
/** Feedback is stored first (so nothing is lost), then e-mailed to SUPPORT_EMAIL. */
let FeedbackService = class FeedbackService {
    feedback;
    users;
    organisations;
    mail;
    config;
    logger = new common_1.Logger('Feedback');
    constructor(feedback, users, organisations, mail, config) {
        this.feedback = feedback;
        this.users = users;
        this.organisations = organisations;
        this.mail = mail;
        this.config = config;
    }
    async add(caller, dto) {
        if (dto.userId !== undefined && dto.userId !== caller.id)
            throw app_exception_1.AppException.badRequest('userId must be the signed-in user.');
        const saved = await this.feedback.save(this.feedback.create({ title: dto.title, content: dto.content, userId: caller.id, organisationId: caller.organisationId }));
        const user = await this.users.findOneBy({ id: caller.id });
        const org = await this.organisations.findOneBy({ id: caller.organisationId });
        const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || caller.email;
        try {
            await this.mail.send({
                to: this.config.supportEmail,
                replyTo: caller.email,
                subject: `${messages_1.PRODUCT_NAME} feedback: ${dto.title}`,
                text: [
                    `Feedback #${saved.id} from ${name} <${caller.email}>`,
                    `Organisation: ${org ? `${org.code} - ${org.name}` : caller.organisationId}`,
                    '',
                    `Title: ${dto.title}`,
                    '',
                    dto.content,
                ].join('\n'),
            });
        }
        catch (e) {
            // Stored already: support can still read it; the user's feedback has been received.
            this.logger.error(`Feedback #${saved.id} stored, but the e-mail to support failed: ${e.message}`);
        }
        return { success: true, id: saved.id };
    }
};
exports.FeedbackService = FeedbackService;
exports.FeedbackService = FeedbackService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(user_feedback_entity_1.UserFeedback)),
    __param(1, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(2, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __param(4, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository,
        typeorm_2.Repository,
        mail_service_1.MailService, Object])
], FeedbackService);
//# sourceMappingURL=feedback.service.js.map
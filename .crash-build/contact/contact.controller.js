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
exports.ContactController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const throttler_1 = require("@nestjs/throttler");
const access_decorators_1 = require("../common/decorators/access.decorators");
const token_service_1 = require("../auth/token.service");
const contact_service_1 = require("./contact.service");
const contact_message_dto_1 = require("./dto/contact-message.dto");
/**
 * Access: public and rate-limited (20 a minute per address): the Contact Us form is also how a visitor
 * who is not signed in (the logged-out profile menu's Give Feedback) reaches support. A valid access
 * token, when sent, names the sender's account in the e-mail.
 */
let ContactController = class ContactController {
    contact;
    tokens;
    constructor(contact, tokens) {
        this.contact = contact;
        this.tokens = tokens;
    }
    send(authorization, dto) {
        return this.contact.send(this.tokens.peekAccess(authorization)?.sub ?? null, dto);
    }
};
exports.ContactController = ContactController;
__decorate([
    (0, common_1.Post)(),
    (0, access_decorators_1.Public)(),
    (0, common_1.HttpCode)(200),
    (0, throttler_1.Throttle)({ default: { limit: 20, ttl: 60_000 } }),
    __param(0, (0, common_1.Headers)('authorization')),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, contact_message_dto_1.ContactMessageDto]),
    __metadata("design:returntype", void 0)
], ContactController.prototype, "send", null);
exports.ContactController = ContactController = __decorate([
    (0, swagger_1.ApiTags)('contact'),
    (0, common_1.Controller)('api/users/contact-email'),
    __metadata("design:paramtypes", [contact_service_1.ContactService,
        token_service_1.TokenService])
], ContactController);
//# sourceMappingURL=contact.controller.js.map
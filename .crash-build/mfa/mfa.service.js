"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MfaService = exports.QR_OPTIONS = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const node_crypto_1 = require("node:crypto");
const otplib_1 = require("otplib");
const QRCode = __importStar(require("qrcode"));
const typeorm_2 = require("typeorm");
const app_config_module_1 = require("../config/app-config.module");
const app_exception_1 = require("../common/app.exception");
const secrets_1 = require("../common/crypto/secrets");
const mail_service_1 = require("../mail/mail.service");
const sessions_service_1 = require("../sessions/sessions.service");
const user_entity_1 = require("../users/entities/user.entity");
const limits_1 = require("../shared/limits");
const messages_1 = require("../shared/messages");
/** Spec 000 §9: QR error correction level M, margin 16. */
exports.QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 16 };
/** One step either side of now (30 s each way), as authenticator apps drift. */
const EPOCH_TOLERANCE_SECONDS = 30;
/** TOTP enrolment and checks, and codes sent by e-mail. Secrets are stored encrypted; every code works once. */
let MfaService = class MfaService {
    users;
    config;
    mail;
    sessions;
    constructor(users, config, mail, sessions) {
        this.users = users;
        this.config = config;
        this.mail = mail;
        this.sessions = sessions;
    }
    /** Checks a TOTP code against the user's secret and burns its time step. */
    async verifyTotp(user, code, sealedSecret = user.mfaSecret) {
        if (!sealedSecret || !/^\d{6}$/.test(code))
            return false;
        const secret = (0, secrets_1.decrypt)(sealedSecret, this.config.encryptionKey);
        const result = await (0, otplib_1.verify)({
            secret,
            token: code,
            epochTolerance: EPOCH_TOLERANCE_SECONDS,
            ...(user.mfaLastUsedStep != null ? { afterTimeStep: user.mfaLastUsedStep } : {}),
        });
        if (!result.valid || !('timeStep' in result))
            return false;
        const step = result.timeStep;
        // Conditional update: of two requests with the same code, only one wins the step.
        const claimed = await this.users
            .createQueryBuilder()
            .update(user_entity_1.User)
            .set({ mfaLastUsedStep: step })
            .where('id = :id AND (mfaLastUsedStep IS NULL OR mfaLastUsedStep < :step)', { id: user.id, step })
            .execute();
        if (!claimed.affected)
            return false;
        user.mfaLastUsedStep = step;
        return true;
    }
    codeHash(userId, code) {
        return (0, node_crypto_1.createHmac)('sha256', this.config.encryptionKey).update(`${userId}:${code}`).digest('hex');
    }
    /** Checks (and consumes) a code sent by e-mail. */
    async verifyEmailCode(user, code) {
        if (!user.emailMfaCodeHash || !user.emailMfaCodeExpiresAt || user.emailMfaCodeExpiresAt <= new Date())
            return false;
        const expected = Buffer.from(user.emailMfaCodeHash, 'hex');
        const given = Buffer.from(this.codeHash(user.id, code), 'hex');
        if (expected.length !== given.length || !(0, node_crypto_1.timingSafeEqual)(expected, given))
            return false;
        const claimed = await this.users.update({ id: user.id, emailMfaCodeHash: user.emailMfaCodeHash }, { emailMfaCodeHash: null, emailMfaCodeExpiresAt: null });
        return !!claimed.affected;
    }
    /** A login's second factor: a TOTP code, or the code last sent by e-mail. */
    async verifyLoginCode(user, code) {
        return (await this.verifyTotp(user, code)) || (await this.verifyEmailCode(user, code));
    }
    async sendEmailCode(userId) {
        const user = await this.users.findOneBy({ id: userId });
        if (!user || user.isDisabled || user.isBlocked)
            throw app_exception_1.AppException.unauthorized('The sign-in challenge is not valid. Please log in again.');
        if (!user.isMFAEnabled)
            throw app_exception_1.AppException.badRequest('MFA is not enabled on this account.');
        const code = (0, secrets_1.randomDigits)(6);
        await this.users.update({ id: user.id }, { emailMfaCodeHash: this.codeHash(user.id, code), emailMfaCodeExpiresAt: new Date(Date.now() + limits_1.LIFETIMES.EMAIL_MFA_CODE_SECONDS * 1000) });
        await this.mail.send({
            to: user.email,
            subject: `${messages_1.PRODUCT_NAME}: your sign-in code`,
            text: `Your sign-in code is ${code}\n\nIt is valid for ${limits_1.LIFETIMES.EMAIL_MFA_CODE_SECONDS / 60} minutes and can be used once.\nIf you did not try to sign in, change your password and tell your administrator.`,
        });
        return { success: true, message: messages_1.AUTH_MESSAGES.MFA_CODE_SENT };
    }
    /** Starts (or restarts) enrolment: a new secret, kept pending until a code from it verifies. */
    async startEnrolment(userId) {
        const user = await this.users.findOneByOrFail({ id: userId });
        if (user.isMFAEnabled)
            throw app_exception_1.AppException.conflict('MFA is already enabled on this account.');
        const base32 = (0, otplib_1.generateSecret)();
        await this.users.update({ id: user.id }, { mfaPendingSecret: (0, secrets_1.encrypt)(base32, this.config.encryptionKey) });
        const otpauth_url = (0, otplib_1.generateURI)({ issuer: messages_1.PRODUCT_NAME, label: user.email, secret: base32 });
        const qrCode = await QRCode.toDataURL(otpauth_url, exports.QR_OPTIONS);
        return { secret: { base32, otpauth_url }, qrCode };
    }
    /** Verifies the first code of an enrolment and switches MFA on; the user's sessions end. */
    async completeEnrolment(userId, token) {
        const user = await this.users.findOneByOrFail({ id: userId });
        if (user.isMFAEnabled)
            throw app_exception_1.AppException.conflict('MFA is already enabled on this account.');
        if (!user.mfaPendingSecret)
            throw app_exception_1.AppException.badRequest('Start the MFA set-up first.');
        user.mfaLastUsedStep = null;
        await this.users.update({ id: user.id }, { mfaLastUsedStep: null });
        if (!(await this.verifyTotp(user, token, user.mfaPendingSecret))) {
            throw app_exception_1.AppException.badRequest('The code is not valid. Check the time on your device and enter the current code.', messages_1.ERROR_CODES.INVALID_MFA_TOKEN);
        }
        const pending = user.mfaPendingSecret;
        await this.users.manager.transaction(async (tx) => {
            await tx.getRepository(user_entity_1.User).update({ id: user.id }, { mfaSecret: pending, mfaPendingSecret: null, isMFAEnabled: true });
            await this.sessions.endAllForUsers([user.id], 'mfa-changed', undefined, tx);
        });
        return { success: true };
    }
    /** The user switches off their own MFA, proving it with a current code; their sessions end. */
    async disableOwn(userId, token) {
        const user = await this.users.findOneByOrFail({ id: userId });
        if (!user.isMFAEnabled)
            throw app_exception_1.AppException.badRequest('MFA is not enabled on this account.');
        if (!(await this.verifyTotp(user, token))) {
            throw app_exception_1.AppException.badRequest('The code is not valid. Enter the current code from your authenticator app.', messages_1.ERROR_CODES.INVALID_MFA_TOKEN);
        }
        await this.clear(user.id);
        return { success: true };
    }
    /** Removes a user's second factor and ends their sessions (also used by administrators). */
    async clear(userId) {
        await this.users.manager.transaction(async (tx) => {
            await tx.getRepository(user_entity_1.User).update({ id: userId }, { isMFAEnabled: false, mfaSecret: null, mfaPendingSecret: null, mfaLastUsedStep: null, emailMfaCodeHash: null, emailMfaCodeExpiresAt: null });
            await this.sessions.endAllForUsers([userId], 'mfa-changed', undefined, tx);
        });
    }
};
exports.MfaService = MfaService;
exports.MfaService = MfaService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(1, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [typeorm_2.Repository, Object, mail_service_1.MailService,
        sessions_service_1.SessionsService])
], MfaService);
//# sourceMappingURL=mfa.service.js.map
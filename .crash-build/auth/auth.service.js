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
exports.AuthService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const typeorm_2 = require("typeorm");
const app_config_module_1 = require("../config/app-config.module");
const app_exception_1 = require("../common/app.exception");
const secrets_1 = require("../common/crypto/secrets");
const mail_service_1 = require("../mail/mail.service");
const mfa_service_1 = require("../mfa/mfa.service");
const sessions_service_1 = require("../sessions/sessions.service");
const user_entity_1 = require("../users/entities/user.entity");
const limits_1 = require("../shared/limits");
const messages_1 = require("../shared/messages");
const password_reset_token_entity_1 = require("./entities/password-reset-token.entity");
const login_throttle_service_1 = require("./login-throttle.service");
const password_service_1 = require("./password.service");
const token_service_1 = require("./token.service");
/**
 * Sign-in as a state machine over one call (CONTRACT 3): credentials, then the second factor when the
 * account has MFA, then a forced password change when one is due; each step that needs more answers
 * 401 with a code and a short challenge token for the next.
 */
let AuthService = class AuthService {
    users;
    resetTokens;
    config;
    passwords;
    tokens;
    throttle;
    sessions;
    mfa;
    mail;
    constructor(users, resetTokens, config, passwords, tokens, throttle, sessions, mfa, mail) {
        this.users = users;
        this.resetTokens = resetTokens;
        this.config = config;
        this.passwords = passwords;
        this.tokens = tokens;
        this.throttle = throttle;
        this.sessions = sessions;
        this.mfa = mfa;
        this.mail = mail;
    }
    async login(dto, authorization, client) {
        if (!dto.acceptToS)
            throw app_exception_1.AppException.badRequest(messages_1.AUTH_MESSAGES.TERMS_NOT_ACCEPTED, messages_1.ERROR_CODES.TERMS_NOT_ACCEPTED);
        const email = dto.username.toLowerCase();
        await this.throttle.check(email, client.ip);
        const user = await this.users.findOneBy({ email });
        if (!user || !(await this.passwords.verify(user.passwordHash, dto.password))) {
            this.throttle.recordFailure(email, client.ip);
            throw app_exception_1.AppException.unauthorized(messages_1.AUTH_MESSAGES.INVALID_CREDENTIALS, messages_1.ERROR_CODES.INVALID_CREDENTIALS);
        }
        this.assertActive(user);
        if (user.isMFAEnabled) {
            if (!dto.mfaToken) {
                throw app_exception_1.AppException.unauthorized(messages_1.AUTH_MESSAGES.TOTP_REQUIRED, messages_1.ERROR_CODES.TOTP_REQUIRED, {
                    challengeToken: this.tokens.signChallenge(user.id, 'mfa'),
                });
            }
            const challengedUser = this.tokens.verifyChallenge(authorization, 'mfa');
            if (challengedUser !== user.id)
                throw app_exception_1.AppException.unauthorized('The sign-in challenge belongs to another account. Please log in again.');
            if (!(await this.mfa.verifyLoginCode(user, dto.mfaToken))) {
                this.throttle.recordFailure(email, client.ip);
                throw app_exception_1.AppException.unauthorized('The MFA token is invalid or has already been used.', messages_1.ERROR_CODES.INVALID_MFA_TOKEN);
            }
        }
        if (user.mustChangePassword) {
            throw app_exception_1.AppException.unauthorized(messages_1.AUTH_MESSAGES.PASSWORD_CHANGE_REQUIRED, messages_1.ERROR_CODES.PASSWORD_CHANGE_REQUIRED, {
                challengeToken: this.tokens.signChallenge(user.id, 'change-password'),
            });
        }
        this.throttle.recordSuccess(email);
        return this.signIn(user, client, 'password');
    }
    /** Opens a session for an account whose identity is established (password steps or SSO). */
    async signIn(user, client, method) {
        // One transaction: concurrent-users limit, session, refresh token, last login.
        const { session, refreshToken } = await this.sessions.start(user, client, method);
        return { accessToken: this.tokens.signAccess(user.id, session.id), refreshToken };
    }
    assertActive(user) {
        if (user.isDisabled || user.isBlocked) {
            throw new app_exception_1.AppException(common_1.HttpStatus.FORBIDDEN, messages_1.ERROR_CODES.ACCOUNT_DISABLED, 'Your account has been disabled. Please contact your administrator.');
        }
    }
    async refresh(raw) {
        const { session, refreshToken } = await this.sessions.rotate(raw);
        const user = await this.users.findOneBy({ id: session.userId });
        if (!user || user.isDisabled || user.isBlocked) {
            await this.sessions.end(session.id, 'disabled');
            throw app_exception_1.AppException.unauthorized('Your session has ended. Please log in again.', messages_1.ERROR_CODES.REFRESH_INVALID);
        }
        return { accessToken: this.tokens.signAccess(user.id, session.id), refreshToken };
    }
    async logout(authorization) {
        const payload = this.tokens.peekAccess(authorization);
        if (payload)
            await this.sessions.end(payload.sid, 'logout');
    }
    /** The forced change of the CHANGE_PASSWORD step; every session of the account ends. */
    async changeForcedPassword(authorization, dto, ip) {
        const userId = this.tokens.verifyChallenge(authorization, 'change-password');
        const user = await this.users.findOneBy({ id: userId });
        if (!user)
            throw app_exception_1.AppException.unauthorized();
        this.assertActive(user);
        await this.throttle.check(user.email, ip);
        if (!(await this.passwords.verify(user.passwordHash, dto.currentPassword))) {
            this.throttle.recordFailure(user.email, ip);
            throw app_exception_1.AppException.badRequest('The current password is not correct.', messages_1.ERROR_CODES.INVALID_CREDENTIALS);
        }
        await this.setPassword(user, dto.newPassword, dto.currentPassword);
        return { success: true };
    }
    /** Sets a new password (never the same as the old one) and ends every session of the account. */
    async setPassword(user, newPassword, oldPassword, exceptSessionId) {
        if (oldPassword !== undefined && oldPassword === newPassword) {
            throw app_exception_1.AppException.badRequest('The new password must be different from the current one.', messages_1.ERROR_CODES.WEAK_PASSWORD);
        }
        await this.users.update({ id: user.id }, { passwordHash: await this.passwords.hash(newPassword), mustChangePassword: false, passwordChangedAt: new Date() });
        await this.sessions.endAllForUsers([user.id], 'password-changed', exceptSessionId);
    }
    /**
     * Sends a reset link when the account exists, is active and (with MFA) the code is right. The answer
     * is the same in every case, so it never reveals whether an account exists or has MFA.
     */
    async forgotPassword(dto) {
        const answer = { success: true, message: messages_1.AUTH_MESSAGES.FORGOT_PASSWORD_SENT };
        const user = await this.users.findOneBy({ email: dto.username.toLowerCase() });
        if (!user || user.isDisabled || user.isBlocked || !user.passwordHash)
            return answer;
        if (user.isMFAEnabled && !(dto.mfaCode && (await this.mfa.verifyTotp(user, dto.mfaCode)))) {
            await this.mail.send({
                to: user.email,
                subject: `${messages_1.PRODUCT_NAME}: password reset not sent`,
                text: 'Someone asked to reset the password of your account, but your account has multi-factor authentication and ' +
                    'the request did not carry a valid code from your authenticator app, so no reset link was issued.\n\n' +
                    "If it was you, request the reset again and enter the current code in 'Enter MFA Code'.\n" +
                    'If it was not you, you need do nothing: your password is unchanged.',
            });
            return answer;
        }
        const token = (0, secrets_1.randomToken)();
        await this.resetTokens.insert({
            userId: user.id,
            tokenHash: (0, secrets_1.sha256)(token),
            expiresAt: new Date(Date.now() + limits_1.LIFETIMES.RESET_TOKEN_SECONDS * 1000),
            usedAt: null,
        });
        const link = `${this.config.publicUrl}/resetPassword?token=${encodeURIComponent(token)}`;
        await this.mail.send({
            to: user.email,
            subject: `${messages_1.PRODUCT_NAME}: reset your password`,
            text: `To choose a new password, open this link:\n\n${link}\n\n` +
                'The link works once and expires in one hour. If you did not ask for it, ignore this e-mail: your password is unchanged.',
        });
        return answer;
    }
    async resetPassword(dto) {
        const invalid = () => app_exception_1.AppException.badRequest('This password reset link is invalid, has expired or has already been used. Please request a new one.', messages_1.ERROR_CODES.RESET_TOKEN_INVALID);
        const token = await this.resetTokens.findOneBy({ tokenHash: (0, secrets_1.sha256)(dto.token) });
        if (!token || token.usedAt || token.expiresAt <= new Date())
            throw invalid();
        const user = await this.users.findOneBy({ id: token.userId });
        if (!user || user.isDisabled || user.isBlocked)
            throw invalid();
        // Claim the token first: a link used twice at once still changes the password once.
        const claimed = await this.resetTokens.update({ id: token.id, usedAt: (0, typeorm_2.IsNull)() }, { usedAt: new Date() });
        if (!claimed.affected)
            throw invalid();
        await this.resetTokens.update({ userId: user.id, usedAt: (0, typeorm_2.IsNull)() }, { usedAt: new Date() });
        await this.setPassword(user, dto.password);
        this.throttle.recordSuccess(user.email);
        return { success: true };
    }
};
exports.AuthService = AuthService;
exports.AuthService = AuthService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __param(1, (0, typeorm_1.InjectRepository)(password_reset_token_entity_1.PasswordResetToken)),
    __param(2, (0, common_1.Inject)(app_config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository, Object, password_service_1.PasswordService,
        token_service_1.TokenService,
        login_throttle_service_1.LoginThrottleService,
        sessions_service_1.SessionsService,
        mfa_service_1.MfaService,
        mail_service_1.MailService])
], AuthService);
//# sourceMappingURL=auth.service.js.map
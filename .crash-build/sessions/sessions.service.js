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
exports.SessionsService = void 0;
const common_1 = require("@nestjs/common");
const typeorm_1 = require("@nestjs/typeorm");
const node_crypto_1 = require("node:crypto");
const typeorm_2 = require("typeorm");
const locks_1 = require("../database/locks");
const app_exception_1 = require("../common/app.exception");
const secrets_1 = require("../common/crypto/secrets");
const limits_1 = require("../shared/limits");
const messages_1 = require("../shared/messages");
const refresh_token_entity_1 = require("../auth/entities/refresh-token.entity");
const organisation_admin_1 = require("../shared/organisation-admin");
const roles_1 = require("../shared/roles");
const organisation_entity_1 = require("../organisations/entities/organisation.entity");
const user_entity_1 = require("../users/entities/user.entity");
const session_entity_1 = require("./entities/session.entity");
const session_events_1 = require("./session-events");
/** Sign-in sessions and their rotating refresh tokens (CONTRACT 3). */
let SessionsService = class SessionsService {
    sessions;
    refreshTokens;
    organisations;
    events;
    constructor(sessions, refreshTokens, organisations, events) {
        this.sessions = sessions;
        this.refreshTokens = refreshTokens;
        this.organisations = organisations;
        this.events = events;
    }
    /** Online: a session not ended and refreshed within the access-token lifetime. */
    onlineSince(now = new Date()) {
        return new Date(now.getTime() - limits_1.LIFETIMES.ACCESS_TOKEN_SECONDS * 1000);
    }
    /**
     * Refuses a sign-in that would take the organisation past its maximum of concurrent users.
     * A user who is already online does not count twice. Inside `tx`, after the organisation's row lock.
     */
    async assertConcurrentLimit(tx, org, user) {
        if (org.isVendor)
            return;
        const online = await tx
            .getRepository(session_entity_1.Session)
            .createQueryBuilder('s')
            .select('COUNT(DISTINCT s.userId)', 'n')
            .where('s.organisationId = :org AND s.endedAt IS NULL AND s.lastRefreshAt > :since AND s.userId <> :user', {
            org: org.id,
            since: this.onlineSince(),
            user: user.id,
        })
            .getRawOne();
        if (Number(online?.n ?? 0) >= org.maxConcurrentUsers) {
            throw new app_exception_1.AppException(common_1.HttpStatus.FORBIDDEN, 'CONCURRENT_USERS_EXCEEDED', 'Your organisation has reached the max allowed concurrent users. Further user logins will not be allowed. Please try again later or ask your administrator to force log off a user.');
        }
    }
    /**
     * Opens a session for a signed-in user in one transaction: the concurrent-users check under the
     * organisation's lock, the session, its first refresh token and the user's last login. Parallel
     * sign-ins queue on the lock, so the limit holds.
     */
    async start(user, client, method = 'password') {
        return this.sessions.manager.transaction(async (tx) => {
            const org = await (0, locks_1.lockRow)(tx, organisation_entity_1.Organisation, user.organisationId);
            if (!org)
                throw app_exception_1.AppException.unauthorized();
            await this.assertConcurrentLimit(tx, org, user);
            const now = new Date();
            const session = await tx.getRepository(session_entity_1.Session).save(tx.getRepository(session_entity_1.Session).create({
                id: (0, node_crypto_1.randomUUID)(),
                userId: user.id,
                organisationId: user.organisationId,
                lastRefreshAt: now,
                ip: client.ip?.slice(0, 64) ?? null,
                userAgent: client.userAgent?.slice(0, 300) ?? null,
                method,
            }));
            const refreshToken = await this.issueRefreshToken(tx, session.id);
            await tx.getRepository(user_entity_1.User).update({ id: user.id }, { lastLoginAt: session.createdAt });
            return { session, refreshToken };
        });
    }
    async issueRefreshToken(tx, sessionId) {
        const raw = (0, secrets_1.randomToken)();
        await tx.getRepository(refresh_token_entity_1.RefreshToken).insert({
            sessionId,
            tokenHash: (0, secrets_1.sha256)(raw),
            expiresAt: new Date(Date.now() + limits_1.LIFETIMES.REFRESH_TOKEN_SECONDS * 1000),
            usedAt: null,
        });
        return raw;
    }
    /**
     * Exchanges a refresh token for its successor. A token presented again after its rotation is
     * reuse, and ends the whole session; within a few seconds it is a second tab racing the first,
     * which gets a new access token but no new refresh token.
     */
    async rotate(raw) {
        const invalid = () => app_exception_1.AppException.unauthorized('Your session has ended. Please log in again.', messages_1.ERROR_CODES.REFRESH_INVALID);
        if (!raw)
            throw invalid();
        const token = await this.refreshTokens.findOneBy({ tokenHash: (0, secrets_1.sha256)(raw) });
        if (!token)
            throw invalid();
        const session = await this.sessions.findOneBy({ id: token.sessionId });
        if (!session || session.endedAt)
            throw invalid();
        const now = new Date();
        if (token.expiresAt <= now)
            throw invalid();
        if (token.usedAt) {
            if (now.getTime() - token.usedAt.getTime() <= limits_1.LIFETIMES.REFRESH_REUSE_GRACE_SECONDS * 1000) {
                await this.sessions.update({ id: session.id }, { lastRefreshAt: now });
                return { session };
            }
            await this.end(session.id, 'refresh-reuse');
            throw invalid();
        }
        // Claim the token and issue its successor in one transaction: of two requests racing with it only one
        // rotates, and a crash between the two steps cannot leave the session without a usable token.
        return this.sessions.manager.transaction(async (tx) => {
            const claimed = await tx.getRepository(refresh_token_entity_1.RefreshToken).update({ id: token.id, usedAt: (0, typeorm_2.IsNull)() }, { usedAt: now });
            if (!claimed.affected)
                return { session };
            await tx.getRepository(session_entity_1.Session).update({ id: session.id }, { lastRefreshAt: now });
            session.lastRefreshAt = now;
            return { session, refreshToken: await this.issueRefreshToken(tx, session.id) };
        });
    }
    async isActive(sessionId) {
        return (await this.sessions.countBy({ id: sessionId, endedAt: (0, typeorm_2.IsNull)() })) > 0;
    }
    async end(sessionId, reason) {
        const ended = await this.sessions.manager.transaction(async (tx) => {
            const session = await tx.getRepository(session_entity_1.Session).findOneBy({ id: sessionId, endedAt: (0, typeorm_2.IsNull)() });
            if (!session)
                return null;
            await tx.getRepository(session_entity_1.Session).update({ id: sessionId, endedAt: (0, typeorm_2.IsNull)() }, { endedAt: new Date(), endReason: reason });
            return session;
        });
        if (ended)
            this.events.emitEnded({ sessionId, userId: ended.userId, reason });
    }
    /**
     * Ends every open session of these users (optionally sparing one: the caller's own). Inside the caller's
     * transaction when `tx` is given, so the change that ends them and the ending commit together.
     */
    async endAllForUsers(userIds, reason, exceptSessionId, tx) {
        if (userIds.length === 0)
            return 0;
        const work = async (m) => {
            const open = await m.getRepository(session_entity_1.Session).findBy({
                userId: (0, typeorm_2.In)(userIds),
                endedAt: (0, typeorm_2.IsNull)(),
                ...(exceptSessionId ? { id: (0, typeorm_2.Not)(exceptSessionId) } : {}),
            });
            if (open.length > 0) {
                await m.getRepository(session_entity_1.Session).update({ id: (0, typeorm_2.In)(open.map((s) => s.id)), endedAt: (0, typeorm_2.IsNull)() }, { endedAt: new Date(), endReason: reason });
            }
            return open;
        };
        const open = tx ? await work(tx) : await this.sessions.manager.transaction(work);
        // Sockets close at once; should an enclosing transaction roll back, a dropped socket merely reconnects.
        for (const s of open)
            this.events.emitEnded({ sessionId: s.id, userId: s.userId, reason });
        return open.length;
    }
    async lastLogin(userId) {
        const latest = await this.sessions.findOne({ where: { userId }, order: { createdAt: 'DESC' } });
        return latest?.createdAt ?? null;
    }
    countOnline(organisationId) {
        return this.sessions
            .createQueryBuilder('s')
            .select('COUNT(DISTINCT s.userId)', 'n')
            .where('s.organisationId = :organisationId AND s.endedAt IS NULL AND s.lastRefreshAt > :since', { organisationId, since: this.onlineSince() })
            .getRawOne()
            .then((r) => Number(r?.n ?? 0));
    }
    /**
     * The users of the caller's organisation with their live sessions (spec 001 §2.14): online while
     * they hold a session not ended and refreshed within the access-token lifetime.
     */
    async userSessions(caller) {
        const org = await this.organisations.findOneByOrFail({ id: caller.organisationId });
        const users = await this.sessions.manager.getRepository(user_entity_1.User).find({ where: { organisationId: org.id }, order: { email: 'ASC' } });
        const stats = await this.sessions
            .createQueryBuilder('s')
            .select('s.userId', 'userId')
            .addSelect('MAX(s.createdAt)', 'lastLogin')
            .addSelect('MAX(s.lastRefreshAt)', 'lastRefresh')
            .addSelect('SUM(CASE WHEN s.endedAt IS NULL AND s.lastRefreshAt > :since THEN 1 ELSE 0 END)', 'online')
            .where('s.organisationId = :org', { org: org.id, since: this.onlineSince() })
            .groupBy('s.userId')
            .getRawMany();
        const byUser = new Map(stats.map((r) => [Number(r.userId), r]));
        const iso = (v) => (v ? toDate(v).toISOString() : null);
        const userSessions = users.map((u) => {
            const r = byUser.get(u.id);
            const online = Number(r?.online ?? 0);
            return {
                id: u.id,
                email: u.email,
                roles: (0, roles_1.roleNames)(u.roles).split(', '),
                status: online > 0 ? 'online' : 'offline',
                onlineSessions: online,
                lastLoginTime: iso(r?.lastLogin),
                lastRefreshTime: iso(r?.lastRefresh),
            };
        });
        return { userSessions, maxConcurrentUsers: org.maxConcurrentUsers };
    }
    /**
     * Ends every session of these users at once (spec 001 §8 'force log off'): their next call is
     * refused and their refresh fails. Only users of the caller's organisation: any other id is a 404
     * and nothing is ended.
     */
    async forceLogoff(caller, userIds) {
        const ids = [...new Set(userIds)];
        const found = await this.sessions.manager.getRepository(user_entity_1.User).countBy({ id: (0, typeorm_2.In)(ids), organisationId: caller.organisationId });
        if (found !== ids.length)
            throw app_exception_1.AppException.notFound('User not found.');
        const sessionsEnded = await this.endAllForUsers(ids, 'force-logoff');
        return { success: true, message: organisation_admin_1.ORG_ADMIN_MESSAGES.FORCE_LOGOFF_DONE, sessionsEnded };
    }
};
exports.SessionsService = SessionsService;
exports.SessionsService = SessionsService = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, typeorm_1.InjectRepository)(session_entity_1.Session)),
    __param(1, (0, typeorm_1.InjectRepository)(refresh_token_entity_1.RefreshToken)),
    __param(2, (0, typeorm_1.InjectRepository)(organisation_entity_1.Organisation)),
    __metadata("design:paramtypes", [typeorm_2.Repository,
        typeorm_2.Repository,
        typeorm_2.Repository,
        session_events_1.SessionEvents])
], SessionsService);
/** SQLite answers aggregated dates as text in UTC ('YYYY-MM-DD HH:MM:SS.SSS'); PostgreSQL as dates. */
function toDate(v) {
    if (v instanceof Date)
        return v;
    return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`);
}
//# sourceMappingURL=sessions.service.js.map
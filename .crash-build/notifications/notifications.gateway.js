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
var NotificationsGateway_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotificationsGateway = exports.orgRoom = exports.userRoom = void 0;
const common_1 = require("@nestjs/common");
const jwt_1 = require("@nestjs/jwt");
const typeorm_1 = require("@nestjs/typeorm");
const websockets_1 = require("@nestjs/websockets");
const socket_io_1 = require("socket.io");
const typeorm_2 = require("typeorm");
const session_events_1 = require("../sessions/session-events");
const sessions_service_1 = require("../sessions/sessions.service");
const notifications_1 = require("../shared/notifications");
const user_entity_1 = require("../users/entities/user.entity");
const userRoom = (userId) => `user:${userId}`;
exports.userRoom = userRoom;
const orgRoom = (organisationId) => `org:${organisationId}`;
exports.orgRoom = orgRoom;
const sessionRoom = (sessionId) => `session:${sessionId}`;
/** The longest a timer may wait (setTimeout overflows past 2^31-1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * The notifications socket (spec 001 §7: connected with the access token as a query parameter).
 * A connection is accepted only with a valid, unexpired access token whose session is open and whose
 * account is enabled; it joins the rooms of its user and of its organisation. It is dropped when its
 * session ends (logout, force log-off, disabled account, password or MFA change) and when its token
 * expires — the client then refreshes the token and connects again. Same origin only: no CORS.
 */
let NotificationsGateway = NotificationsGateway_1 = class NotificationsGateway {
    jwt;
    sessions;
    sessionEvents;
    users;
    server;
    logger = new common_1.Logger(NotificationsGateway_1.name);
    expiryTimers = new Map();
    unsubscribe;
    constructor(jwt, sessions, sessionEvents, users) {
        this.jwt = jwt;
        this.sessions = sessions;
        this.sessionEvents = sessionEvents;
        this.users = users;
    }
    afterInit(server) {
        server.use((socket, next) => {
            this.authenticate(socket).then((identity) => {
                socket.data.identity = identity;
                next();
            }, (e) => next(e));
        });
        this.unsubscribe = this.sessionEvents.onEnded(({ sessionId }) => this.dropSession(sessionId, 'session-ended'));
    }
    onModuleDestroy() {
        this.unsubscribe?.();
        for (const timer of this.expiryTimers.values())
            clearTimeout(timer);
        this.expiryTimers.clear();
    }
    /** Checks the handshake's token; the error's message reaches the client as `connect_error`. */
    async authenticate(socket) {
        const raw = socket.handshake.query?.token ?? socket.handshake.auth?.token;
        const token = Array.isArray(raw) ? raw[0] : raw;
        if (typeof token !== 'string' || token.length === 0 || token.length > 4096)
            throw new Error(notifications_1.SOCKET_ERRORS.NO_TOKEN);
        let payload;
        try {
            payload = this.jwt.verify(token);
        }
        catch (e) {
            throw new Error(e.name === 'TokenExpiredError' ? notifications_1.SOCKET_ERRORS.JWT_EXPIRED : notifications_1.SOCKET_ERRORS.INVALID);
        }
        if (payload.typ !== 'access' || typeof payload.sid !== 'string')
            throw new Error(notifications_1.SOCKET_ERRORS.INVALID);
        const [active, user] = await Promise.all([this.sessions.isActive(payload.sid), this.users.findOneBy({ id: payload.sub })]);
        if (!active || !user || user.isDisabled || user.isBlocked)
            throw new Error(notifications_1.SOCKET_ERRORS.SESSION_ENDED);
        if (user.isMFAEnforced && !user.isMFAEnabled)
            throw new Error(notifications_1.SOCKET_ERRORS.MFA_REQUIRED);
        return { userId: user.id, organisationId: user.organisationId, sessionId: payload.sid, exp: payload.exp };
    }
    async handleConnection(socket) {
        const identity = socket.data.identity;
        if (!identity) {
            socket.disconnect(true);
            return;
        }
        await socket.join([(0, exports.userRoom)(identity.userId), (0, exports.orgRoom)(identity.organisationId), sessionRoom(identity.sessionId)]);
        // The session may have ended between the check and the join.
        if (!(await this.sessions.isActive(identity.sessionId))) {
            this.drop(socket, 'session-ended');
            return;
        }
        const ms = Math.min(Math.max(identity.exp * 1000 - Date.now(), 0), MAX_TIMER_MS);
        const timer = setTimeout(() => this.drop(socket, 'token-expired'), ms);
        timer.unref();
        this.expiryTimers.set(socket.id, timer);
    }
    handleDisconnect(socket) {
        const timer = this.expiryTimers.get(socket.id);
        if (timer)
            clearTimeout(timer);
        this.expiryTimers.delete(socket.id);
    }
    /** Delivers to one user's sockets, or to every socket of an organisation. */
    emit(target, item) {
        if (!this.server)
            return;
        const room = target.userId ? (0, exports.userRoom)(target.userId) : (0, exports.orgRoom)(target.organisationId);
        this.server.to(room).emit(notifications_1.SOCKET_EVENTS.NOTIFICATION, item);
    }
    /** The number of open notification sockets (for the benchmark and health). */
    get connectionCount() {
        return this.server?.engine?.clientsCount ?? 0;
    }
    dropSession(sessionId, reason) {
        if (!this.server)
            return;
        const room = sessionRoom(sessionId);
        this.server.to(room).emit(notifications_1.SOCKET_EVENTS.SESSION, { reason });
        this.server.in(room).disconnectSockets(true);
    }
    drop(socket, reason) {
        if (!socket.connected)
            return;
        socket.emit(notifications_1.SOCKET_EVENTS.SESSION, { reason });
        socket.disconnect(true);
        this.logger.debug(`dropped socket ${socket.id}: ${reason}`);
    }
};
exports.NotificationsGateway = NotificationsGateway;
__decorate([
    (0, websockets_1.WebSocketServer)(),
    __metadata("design:type", socket_io_1.Server)
], NotificationsGateway.prototype, "server", void 0);
exports.NotificationsGateway = NotificationsGateway = NotificationsGateway_1 = __decorate([
    (0, websockets_1.WebSocketGateway)({ path: notifications_1.SOCKET_PATH, serveClient: false, transports: ['websocket', 'polling'], pingInterval: 25_000, pingTimeout: 20_000 }),
    __param(3, (0, typeorm_1.InjectRepository)(user_entity_1.User)),
    __metadata("design:paramtypes", [jwt_1.JwtService,
        sessions_service_1.SessionsService,
        session_events_1.SessionEvents,
        typeorm_2.Repository])
], NotificationsGateway);
//# sourceMappingURL=notifications.gateway.js.map
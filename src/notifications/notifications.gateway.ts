import { Inject, Logger, OnModuleDestroy } from '@nestjs/common';
import {
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import { Server, Socket } from 'socket.io';
import { AppException } from '../common/app.exception';
import { handshakeAddress } from '../common/request-context';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { MetricsService } from '../metrics/metrics.service';
import { RedisConnection } from '../redis/redis.module';
import { SessionAuthService, SignedIn } from '../credentials/session-auth.service';
import { SessionEvents } from '../sessions/session-events';
import { SessionsService } from '../sessions/sessions.service';
import { ERROR_CODES } from '../shared/messages';
import { mfaPending } from '../shared/mfa-rules';
import { CAPABILITY_ROLES } from '../shared/roles';
import { NotificationItem, SOCKET_ERRORS, SOCKET_EVENTS, SOCKET_PATH } from '../shared/notifications';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { LocalSocketIndex } from './socket-index';
import { releaseHandshake } from './transport/release-handshake';

export interface SocketIdentity {
  userId: number;
  organisationId: number;
  sessionId: string;
  /** Access-token expiry, unix seconds. */
  exp: number;
  /** A user administrator of the organisation: told when its sessions change (the User sessions page). */
  watchesSessions: boolean;
}

export const orgRoom = (organisationId: number) => `org:${organisationId}`;
const sessionsWatchRoom = (organisationId: number) => `sessions:${organisationId}`;

/**
 * What one instance tells the others (socket.io's serverSideEmit, through the Redis adapter): a user's and a
 * session's sockets are indexed by the instance they are connected to, not in rooms.
 */
const INSTANCE_EVENTS = { USER_NOTIFICATION: 'instance:user-notification', DROP_SESSION: 'instance:drop-session' };

/** How often the sockets whose access token has expired are looked for (one timer for all sockets). */
const EXPIRY_SWEEP_MS = 1000;
/** An organisation's session changes are announced at most this often (a burst of sign-ins is one reload). */
export const SESSIONS_CHANGED_COALESCE_MS = 1000;

/**
 * The notifications socket (spec 001 §7: connected with the access token as a query parameter).
 * A connection is accepted only with a valid, unexpired access token whose session is open and whose
 * account is enabled; it joins its organisation's room and is indexed by its user and session. It is dropped when its
 * session ends (logout, force log-off, disabled account, password or MFA change) and when its token
 * expires — the client then refreshes the token and connects again. Same origin only: no CORS.
 */
@WebSocketGateway({
  path: SOCKET_PATH,
  serveClient: false,
  transports: ['websocket', 'polling'],
  perMessageDeflate: false,
  pingInterval: 25_000,
  pingTimeout: 20_000,
})
export class NotificationsGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  @WebSocketServer() server!: Server;

  private readonly logger = new Logger(NotificationsGateway.name);
  private expirySweep?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  /** Organisations with a sessions-changed announcement due (one timer each, SESSIONS_CHANGED_COALESCE_MS). */
  private readonly pendingSessionsChanged = new Map<number, NodeJS.Timeout>();
  /** This instance's sockets by session and by user. */
  private readonly bySession = new LocalSocketIndex<string, Socket>();
  private readonly byUser = new LocalSocketIndex<number, Socket>();

  constructor(
    private readonly sessions: SessionsService,
    private readonly sessionEvents: SessionEvents,
    private readonly sessionAuth: SessionAuthService,
    private readonly metrics: MetricsService,
    private readonly redis: RedisConnection,
    private readonly shutdown: ShutdownState,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  afterInit(server: Server): void {
    server.use((socket, next) => {
      this.authenticate(socket).then(
        (identity) => {
          // The identity is the socket's data (one object per connection).
          socket.data = identity;
          next();
        },
        (e: Error) => next(e),
      );
    });
    this.metrics.readOnScrape('sockets_connected', () => this.connectionCount);
    // At shutdown this instance's sockets are closed at the transport, not told "io server disconnect": the client
    // then reconnects by itself, to another instance or to this one's next start. Local only: with the Redis
    // adapter a plain disconnectSockets would reach every instance's sockets.
    this.shutdown.onDrain(() => server.local.disconnectSockets(true));
    // What the other instances tell this one (never sent by clients: serverSideEmit reaches only servers).
    const main = server.of('/');
    main.on(INSTANCE_EVENTS.USER_NOTIFICATION, (userId: number, item: NotificationItem) =>
      this.deliverToUser(userId, item),
    );
    main.on(INSTANCE_EVENTS.DROP_SESSION, (sessionId: string, reason: string) =>
      this.dropLocalSession(sessionId, reason),
    );
    const offEnded = this.sessionEvents.onEnded(({ sessionId, organisationId }) => {
      this.dropSession(sessionId, 'session-ended');
      this.sessionsChanged(organisationId);
    });
    const offStarted = this.sessionEvents.onStarted(({ organisationId }) => this.sessionsChanged(organisationId));
    // A new security policy: the organisation's sockets, on every instance, reconnect under it (each client
    // refreshes its token and connects again, and the refresh and the handshake apply the new rules).
    const offPolicy = this.sessionEvents.onPolicyChanged(({ organisationId }) =>
      server.in(orgRoom(organisationId)).disconnectSockets(true),
    );
    this.unsubscribe = () => {
      offEnded();
      offStarted();
      offPolicy();
    };
    // One sweep a second instead of a timer per socket (memory per connection).
    this.expirySweep = setInterval(() => this.dropExpired(), EXPIRY_SWEEP_MS);
    this.expirySweep.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    clearInterval(this.expirySweep);
    for (const timer of this.pendingSessionsChanged.values()) clearTimeout(timer);
    this.pendingSessionsChanged.clear();
  }

  /** Checks the handshake's token; the error's message reaches the client as `connect_error`. */
  async authenticate(socket: Socket): Promise<SocketIdentity> {
    const raw = socket.handshake.query?.token ?? (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const token = Array.isArray(raw) ? raw[0] : raw;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) throw new Error(SOCKET_ERRORS.NO_TOKEN);
    let signedIn: SignedIn;
    try {
      // Once per connection: its row is not kept for the signed-in path's repeated calls.
      const ip = handshakeAddress(socket.handshake.headers, socket.conn.remoteAddress, this.config.trustProxy);
      signedIn = await this.sessionAuth.authenticate(token, { ip }, { keep: false });
    } catch (e) {
      if (!(e instanceof AppException)) throw e;
      throw new Error(
        e.code === ERROR_CODES.JWT_EXPIRED
          ? SOCKET_ERRORS.JWT_EXPIRED
          : e.code === ERROR_CODES.SESSION_ENDED
            ? SOCKET_ERRORS.SESSION_ENDED
            : e.code === ERROR_CODES.IP_NOT_ALLOWED
              ? SOCKET_ERRORS.IP_NOT_ALLOWED
              : SOCKET_ERRORS.INVALID,
        { cause: e },
      );
    }
    const { user, exp } = signedIn;
    if (mfaPending(user)) throw new Error(SOCKET_ERRORS.MFA_REQUIRED);
    return {
      userId: user.id,
      organisationId: user.organisationId,
      sessionId: user.sessionId,
      exp,
      watchesSessions: user.roles.some((role) => CAPABILITY_ROLES.USER_ADMIN.includes(role)),
    };
  }

  async handleConnection(socket: Socket): Promise<void> {
    const identity = socket.data as Partial<SocketIdentity>;
    if (!identity.userId || !identity.organisationId || !identity.sessionId || this.shutdown.draining) {
      socket.disconnect(true);
      return;
    }
    // Indexed at once (handleDisconnect removes it, whenever the socket goes): a session ending from here on
    // finds it.
    this.bySession.add(identity.sessionId, socket);
    this.byUser.add(identity.userId, socket);
    const rooms = [orgRoom(identity.organisationId)];
    if (identity.watchesSessions) rooms.push(sessionsWatchRoom(identity.organisationId));
    await socket.join(rooms);
    // The session may have ended between the check and the join.
    if (!(await this.sessions.isActive(identity.sessionId))) {
      this.drop(socket, 'session-ended');
      return;
    }
    releaseHandshake(socket);
  }

  handleDisconnect(socket: Socket): void {
    const identity = socket.data as Partial<SocketIdentity>;
    if (identity.sessionId) this.bySession.remove(identity.sessionId, socket);
    if (identity.userId) this.byUser.remove(identity.userId, socket);
  }

  /** Drops the sockets whose access token has expired (the client refreshes it and connects again). */
  private dropExpired(): void {
    const now = Date.now() / 1000;
    for (const socket of this.server?.sockets?.sockets?.values() ?? []) {
      const { exp } = socket.data as Partial<SocketIdentity>;
      if (exp !== undefined && exp <= now) this.drop(socket, 'token-expired');
    }
  }

  /** Delivers to one user's sockets (on every instance), or to every socket of an organisation. */
  emit(target: { userId: number | null; organisationId: number }, item: NotificationItem): void {
    if (!this.server) return;
    if (target.userId) {
      this.deliverToUser(target.userId, item);
      this.toOtherInstances(INSTANCE_EVENTS.USER_NOTIFICATION, target.userId, item);
    } else this.server.to(orgRoom(target.organisationId)).emit(SOCKET_EVENTS.NOTIFICATION, item);
    this.metrics.notificationDelivered(target.userId ? 'user' : 'organisation');
  }

  private deliverToUser(userId: number, item: NotificationItem): void {
    for (const socket of this.byUser.get(userId)) socket.emit(SOCKET_EVENTS.NOTIFICATION, item);
  }

  /** With several instances (the Redis adapter), the same call on the others; alone, nothing to tell. */
  private toOtherInstances(event: string, ...args: unknown[]): void {
    if (this.redis.client) this.server.serverSideEmit(event, ...args);
  }

  /** The number of open notification sockets (for the benchmark and health). */
  get connectionCount(): number {
    return this.server?.engine?.clientsCount ?? 0;
  }

  /** Tells the organisation's user administrators that its sessions changed, once per coalescing window. */
  private sessionsChanged(organisationId: number): void {
    if (!this.server || this.pendingSessionsChanged.has(organisationId)) return;
    const timer = setTimeout(() => {
      this.pendingSessionsChanged.delete(organisationId);
      this.server?.to(sessionsWatchRoom(organisationId)).emit(SOCKET_EVENTS.SESSIONS_CHANGED);
    }, SESSIONS_CHANGED_COALESCE_MS);
    timer.unref();
    this.pendingSessionsChanged.set(organisationId, timer);
  }

  private dropSession(sessionId: string, reason: string): void {
    if (!this.server) return;
    this.dropLocalSession(sessionId, reason);
    this.toOtherInstances(INSTANCE_EVENTS.DROP_SESSION, sessionId, reason);
  }

  private dropLocalSession(sessionId: string, reason: string): void {
    for (const socket of this.bySession.get(sessionId)) this.drop(socket, reason);
  }

  private drop(socket: Socket, reason: string): void {
    if (!socket.connected) return;
    socket.emit(SOCKET_EVENTS.SESSION, { reason });
    socket.disconnect(true);
    this.logger.debug(`dropped socket ${socket.id}: ${reason}`);
  }
}

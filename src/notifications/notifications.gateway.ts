import { Logger, OnModuleDestroy } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import { Server, Socket } from 'socket.io';
import { AppException } from '../common/app.exception';
import { MetricsService } from '../metrics/metrics.service';
import { SessionAuthService, SignedIn } from '../credentials/session-auth.service';
import { SessionEvents } from '../sessions/session-events';
import { SessionsService } from '../sessions/sessions.service';
import { ERROR_CODES } from '../shared/messages';
import { mfaPending } from '../shared/mfa-rules';
import { NotificationItem, SOCKET_ERRORS, SOCKET_EVENTS, SOCKET_PATH } from '../shared/notifications';
import { releaseHandshake } from './socket-memory';

export interface SocketIdentity {
  userId: number;
  organisationId: number;
  sessionId: string;
  /** Access-token expiry, unix seconds. */
  exp: number;
}

export const userRoom = (userId: number) => `user:${userId}`;
export const orgRoom = (organisationId: number) => `org:${organisationId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** How often the sockets whose access token has expired are looked for (one timer for all sockets). */
const EXPIRY_SWEEP_MS = 1000;

/**
 * The notifications socket (spec 001 §7: connected with the access token as a query parameter).
 * A connection is accepted only with a valid, unexpired access token whose session is open and whose
 * account is enabled; it joins the rooms of its user and of its organisation. It is dropped when its
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
export class NotificationsGateway implements OnGatewayInit, OnGatewayConnection, OnModuleDestroy {
  @WebSocketServer() server!: Server;

  private readonly logger = new Logger(NotificationsGateway.name);
  private expirySweep?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(
    private readonly sessions: SessionsService,
    private readonly sessionEvents: SessionEvents,
    private readonly sessionAuth: SessionAuthService,
    private readonly metrics: MetricsService,
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
    this.unsubscribe = this.sessionEvents.onEnded(({ sessionId }) => this.dropSession(sessionId, 'session-ended'));
    // One sweep a second instead of a timer per socket (issue 16: memory per connection).
    this.expirySweep = setInterval(() => this.dropExpired(), EXPIRY_SWEEP_MS);
    this.expirySweep.unref();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    clearInterval(this.expirySweep);
  }

  /** Checks the handshake's token; the error's message reaches the client as `connect_error`. */
  async authenticate(socket: Socket): Promise<SocketIdentity> {
    const raw = socket.handshake.query?.token ?? (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const token = Array.isArray(raw) ? raw[0] : raw;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) throw new Error(SOCKET_ERRORS.NO_TOKEN);
    let signedIn: SignedIn;
    try {
      signedIn = await this.sessionAuth.authenticate(token);
    } catch (e) {
      if (!(e instanceof AppException)) throw e;
      throw new Error(
        e.code === ERROR_CODES.JWT_EXPIRED
          ? SOCKET_ERRORS.JWT_EXPIRED
          : e.code === ERROR_CODES.SESSION_ENDED
            ? SOCKET_ERRORS.SESSION_ENDED
            : SOCKET_ERRORS.INVALID,
        { cause: e },
      );
    }
    const { user, exp } = signedIn;
    if (mfaPending(user)) throw new Error(SOCKET_ERRORS.MFA_REQUIRED);
    return { userId: user.id, organisationId: user.organisationId, sessionId: user.sessionId, exp };
  }

  async handleConnection(socket: Socket): Promise<void> {
    const identity = socket.data as Partial<SocketIdentity>;
    if (!identity.userId || !identity.organisationId || !identity.sessionId) {
      socket.disconnect(true);
      return;
    }
    await socket.join([userRoom(identity.userId), orgRoom(identity.organisationId), sessionRoom(identity.sessionId)]);
    // The session may have ended between the check and the join.
    if (!(await this.sessions.isActive(identity.sessionId))) {
      this.drop(socket, 'session-ended');
      return;
    }
    releaseHandshake(socket);
  }

  /** Drops the sockets whose access token has expired (the client refreshes it and connects again). */
  private dropExpired(): void {
    const now = Date.now() / 1000;
    for (const socket of this.server?.sockets?.sockets?.values() ?? []) {
      const { exp } = socket.data as Partial<SocketIdentity>;
      if (exp !== undefined && exp <= now) this.drop(socket, 'token-expired');
    }
  }

  /** Delivers to one user's sockets, or to every socket of an organisation. */
  emit(target: { userId: number | null; organisationId: number }, item: NotificationItem): void {
    if (!this.server) return;
    const room = target.userId ? userRoom(target.userId) : orgRoom(target.organisationId);
    this.server.to(room).emit(SOCKET_EVENTS.NOTIFICATION, item);
    this.metrics.notificationDelivered(target.userId ? 'user' : 'organisation');
  }

  /** The number of open notification sockets (for the benchmark and health). */
  get connectionCount(): number {
    return this.server?.engine?.clientsCount ?? 0;
  }

  private dropSession(sessionId: string, reason: string): void {
    if (!this.server) return;
    const room = sessionRoom(sessionId);
    this.server.to(room).emit(SOCKET_EVENTS.SESSION, { reason });
    this.server.in(room).disconnectSockets(true);
  }

  private drop(socket: Socket, reason: string): void {
    if (!socket.connected) return;
    socket.emit(SOCKET_EVENTS.SESSION, { reason });
    socket.disconnect(true);
    this.logger.debug(`dropped socket ${socket.id}: ${reason}`);
  }
}

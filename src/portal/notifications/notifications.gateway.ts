import { Inject, Logger } from '@nestjs/common';
import {
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import { Server, Socket } from 'socket.io';
import { AppException } from '../../platform/web/app.exception';
import { EngineState } from '../../platform/web/engine-state';
import { unavailableEngine } from '../../platform/web/engine-unavailable';
import { clientAddressOf } from '../../platform/web/http/client-address';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { SessionAuthService, SignedIn } from '../../identity/credentials/session-auth.service';
import { SessionsService } from '../../identity/sessions';
import { ERROR_CODES } from '../../shared/messages';
import { mfaPending } from '../../shared/identity/mfa-rules';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { SOCKET_ERRORS, SOCKET_PATH } from '../../shared/portal/notifications';
import { ShutdownState } from '../../platform/shutdown/shutdown-state';
import { releaseHandshake } from './transport/release-handshake';
import { NotificationSockets, orgRoom, SocketIdentity, sessionsWatchRoom } from './notification-sockets.service';

/**
 * The notifications socket (spec 001 §7: connected with the access token as a query parameter).
 * A connection is accepted only with a valid, unexpired access token whose session is open and whose
 * account is enabled; it joins its organisation's room and is indexed by its user and session. It is dropped when its
 * session ends (logout, force log-off, disabled account, password or MFA change) and when its token
 * expires — the client then refreshes the token and connects again. Same origin only: no CORS. What reaches the
 * sockets once connected, and when they are dropped, is {@link NotificationSockets}'.
 */
@WebSocketGateway({
  path: SOCKET_PATH,
  serveClient: false,
  transports: ['websocket', 'polling'],
  perMessageDeflate: false,
  pingInterval: 25_000,
  pingTimeout: 20_000,
})
export class NotificationsGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  @WebSocketServer() server!: Server;

  private readonly logger = new Logger(NotificationsGateway.name);

  constructor(
    private readonly sessions: SessionsService,
    private readonly sessionAuth: SessionAuthService,
    private readonly sockets: NotificationSockets,
    private readonly shutdown: ShutdownState,
    private readonly engines: EngineState,
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
    // At shutdown this instance's sockets are closed at the transport, not told "io server disconnect": the client
    // then reconnects by itself, to another instance or to this one's next start. Local only: with the Redis
    // adapter a plain disconnectSockets would reach every instance's sockets.
    this.shutdown.onDrain(() => server.local.disconnectSockets(true));
    this.sockets.attach(server);
  }

  /** Checks the handshake's token; the error's message reaches the client as `connect_error`. */
  async authenticate(socket: Socket): Promise<SocketIdentity> {
    const raw = socket.handshake.query?.token ?? (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const token = Array.isArray(raw) ? raw[0] : raw;
    const { headers } = socket.handshake;
    const conn = socket.conn;
    // What the check needs is read: the upgrade request and the handshake go now, before the check waits for the
    // database (held through that wait, they outlive V8's young generation and stay as garbage in the old one).
    releaseHandshake(socket);
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) throw new Error(SOCKET_ERRORS.NO_TOKEN);
    let signedIn: SignedIn;
    const checkedFrom = Date.now();
    try {
      // The address is worked out only when the organisation has address ranges (the check reads it then).
      const trust = this.config.trustProxy;
      const origin = {
        get ip() {
          return clientAddressOf({ headers, socket: conn }, trust);
        },
      };
      // Once per connection: its row is not kept for the signed-in path's repeated calls.
      signedIn = await this.sessionAuth.authenticate(token, origin, { keep: false });
    } catch (e) {
      // The database cannot be reached: the client is told so (and tries again later), never the driver's text.
      const engine = unavailableEngine(e);
      if (engine) {
        this.engines.down(engine, e);
        throw new Error(SOCKET_ERRORS.UNAVAILABLE, { cause: e });
      }
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
      checkedFrom,
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
    this.sockets.add(socket, { userId: identity.userId, sessionId: identity.sessionId });
    const rooms = [orgRoom(identity.organisationId)];
    if (identity.watchesSessions) rooms.push(sessionsWatchRoom(identity.organisationId));
    await socket.join(rooms);
    // The session may have ended between the check and the indexing: every end since is one this instance heard
    // of (its own and the other instances'), so the database is asked again only when the handshake took longer
    // than those are kept.
    const ended =
      this.sockets.endedSince(identity.sessionId, identity.checkedFrom ?? 0) ??
      !(await this.stillActive(socket, identity.sessionId));
    if (ended) {
      this.sockets.drop(socket, 'session-ended');
      return;
    }
    // socket.io joins every socket to a room named by its id (for `to(socket.id)`, which nothing here addresses)
    // once the handshake is through: leaving it spares a room per connection.
    void socket.leave(socket.id);
  }

  /**
   * Whether the session is still active, asked again after the join. Nothing awaits handleConnection (a rejection
   * there would end the process), so no failure leaves it: while the database cannot be reached no session can end
   * either (ending one writes to it), so the handshake's check a moment ago stands; any other failure drops the socket
   * at its transport, and the client connects again by itself.
   */
  private async stillActive(socket: Socket, sessionId: string): Promise<boolean> {
    try {
      return await this.sessions.isActive(sessionId);
    } catch (e) {
      const engine = unavailableEngine(e);
      if (engine) {
        this.engines.down(engine, e);
        return true;
      }
      this.logger.error(`The session of socket ${socket.id} could not be checked: ${(e as Error).message}`);
      socket.conn.close();
      return true;
    }
  }

  handleDisconnect(socket: Socket): void {
    this.sockets.remove(socket);
  }
}

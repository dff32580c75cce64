import { Inject, Logger, OnModuleDestroy } from '@nestjs/common';
import {
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import Redis from 'ioredis';
import { Server, Socket } from 'socket.io';
import { AppException } from '../../platform/web/app.exception';
import { EngineState } from '../../platform/web/engine-state';
import { unavailableEngine } from '../../platform/web/engine-unavailable';
import { clientAddressOf } from '../../platform/web/http/client-address';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { RedisConnection } from '../../platform/redis/redis.module';
import { SessionAuthService, SignedIn } from '../../identity/credentials/session-auth.service';
import { SessionEvents, SessionsService } from '../../identity/sessions';
import { ERROR_CODES } from '../../shared/messages';
import { mfaPending } from '../../shared/identity/mfa-rules';
import { CAPABILITY_ROLES } from '../../shared/roles';
import { NotificationItem, SOCKET_ERRORS, SOCKET_EVENTS, SOCKET_PATH } from '../../shared/portal/notifications';
import { ShutdownState } from '../../platform/shutdown/shutdown-state';
import { LocalSocketIndex } from './socket-index';
import { releaseHandshake } from './transport/release-handshake';
import { watchAdapterLink } from './adapter-link';
import { DeliveredIds } from './delivered-ids';
import { EndedSessions } from './ended-sessions';

export interface SocketIdentity {
  userId: number;
  organisationId: number;
  sessionId: string;
  /** Access-token expiry, unix seconds. */
  exp: number;
  /** A user administrator of the organisation: told when its sessions change (the User sessions page). */
  watchesSessions: boolean;
  /** When the handshake's check began (ms): the sessions ended lately that the gateway keeps must reach back to it. */
  checkedFrom: number;
}

export const orgRoom = (organisationId: number) => `org:${organisationId}`;
const sessionsWatchRoom = (organisationId: number) => `sessions:${organisationId}`;

/** Whom a notification is for: one user of the organisation, or (userId null) all of it. */
export interface NotificationTarget {
  userId: number | null;
  organisationId: number;
}

/** The persisted notifications created since a time, for a replay after the instances lost each other. */
export type MissedNotifications = (
  since: Date,
) => Promise<Array<{ target: NotificationTarget; item: NotificationItem }>>;

/**
 * What one instance tells the others (socket.io's serverSideEmit, through the Redis adapter): a user's and a
 * session's sockets are indexed by the instance they are connected to, not in rooms; an organisation's
 * notification goes the same way, so that each instance delivers it to its room itself, once.
 */
const INSTANCE_EVENTS = {
  USER_NOTIFICATION: 'instance:user-notification',
  ORGANISATION_NOTIFICATION: 'instance:organisation-notification',
  DROP_SESSION: 'instance:drop-session',
};

/**
 * A replay after an outage starts this long before the outage was seen: a notification stored just before
 * may not have reached Redis (and SQLite's timestamps are whole seconds). Ids already delivered are skipped.
 */
export const REPLAY_MARGIN_MS = 3000;
/** A replay that fails (the database away too) is tried again this often, this many times. */
const REPLAY_RETRY_MS = 2000;
const REPLAY_ATTEMPTS = 15;

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
  /** Ids delivered to this instance's sockets lately: each notification reaches them once. */
  private readonly delivered = new DeliveredIds();
  /** Sessions ended lately, here or on another instance: a socket being connected for one is dropped. */
  private readonly ended = new EndedSessions();
  private missed?: MissedNotifications;
  private stopWatchingLink?: () => void;
  /** Counts the adapter's losses of Redis: a replay lets go of the delivered ids only if no loss came after. */
  private losses = 0;

  constructor(
    private readonly sessions: SessionsService,
    private readonly sessionEvents: SessionEvents,
    private readonly sessionAuth: SessionAuthService,
    private readonly metrics: MetricsService,
    private readonly redis: RedisConnection,
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
    this.metrics.readOnScrape('sockets_connected', () => this.connectionCount);
    // At shutdown this instance's sockets are closed at the transport, not told "io server disconnect": the client
    // then reconnects by itself, to another instance or to this one's next start. Local only: with the Redis
    // adapter a plain disconnectSockets would reach every instance's sockets.
    this.shutdown.onDrain(() => server.local.disconnectSockets(true));
    // What the other instances tell this one (never sent by clients: serverSideEmit reaches only servers).
    const main = server.of('/');
    main.on(INSTANCE_EVENTS.USER_NOTIFICATION, (userId: number, item: NotificationItem) =>
      this.deliverLocally({ userId, organisationId: 0 }, item),
    );
    main.on(INSTANCE_EVENTS.ORGANISATION_NOTIFICATION, (organisationId: number, item: NotificationItem) =>
      this.deliverLocally({ userId: null, organisationId }, item),
    );
    main.on(INSTANCE_EVENTS.DROP_SESSION, (sessionId: string, reason: string) =>
      this.dropLocalSession(sessionId, reason),
    );
    this.watchAdapter(main.adapter);
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
    this.stopWatchingLink?.();
    clearInterval(this.expirySweep);
    for (const timer of this.pendingSessionsChanged.values()) clearTimeout(timer);
    this.pendingSessionsChanged.clear();
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
    this.bySession.add(identity.sessionId, socket);
    this.byUser.add(identity.userId, socket);
    const rooms = [orgRoom(identity.organisationId)];
    if (identity.watchesSessions) rooms.push(sessionsWatchRoom(identity.organisationId));
    await socket.join(rooms);
    // The session may have ended between the check and the indexing: every end since is one this instance heard
    // of (its own and the other instances'), so the database is asked again only when the handshake took longer
    // than those are kept.
    const ended = this.ended.covers(identity.checkedFrom ?? 0)
      ? this.ended.has(identity.sessionId)
      : !(await this.stillActive(socket, identity.sessionId));
    if (ended) {
      this.drop(socket, 'session-ended');
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

  /** Delivers to one user's sockets, or to every socket of an organisation, on every instance. */
  emit(target: NotificationTarget, item: NotificationItem): void {
    if (!this.server) return;
    this.deliverLocally(target, item);
    if (target.userId) this.toOtherInstances(INSTANCE_EVENTS.USER_NOTIFICATION, target.userId, item);
    else this.toOtherInstances(INSTANCE_EVENTS.ORGANISATION_NOTIFICATION, target.organisationId, item);
    this.metrics.notificationDelivered(target.userId ? 'user' : 'organisation');
  }

  /** Where the persisted notifications come from for a replay (the notifications service). */
  replayFrom(missed: MissedNotifications): void {
    this.missed = missed;
  }

  /** To this instance's sockets of the target, unless they have had it already. */
  private deliverLocally(target: NotificationTarget, item: NotificationItem): boolean {
    if (!this.delivered.firstTime(item.notificationId)) return false;
    if (target.userId) {
      for (const socket of this.byUser.get(target.userId)) socket.emit(SOCKET_EVENTS.NOTIFICATION, item);
    } else this.server.local.to(orgRoom(target.organisationId)).emit(SOCKET_EVENTS.NOTIFICATION, item);
    return true;
  }

  /**
   * With the Redis adapter: while its subscriber connection is down, what the other instances publish never
   * arrives. Once it is back, the notifications stored since are delivered to this instance's sockets (those
   * they had already are skipped).
   */
  private watchAdapter(adapter: unknown): void {
    const sub = (adapter as { subClient?: unknown }).subClient;
    if (!(sub instanceof Redis)) return;
    this.stopWatchingLink = watchAdapterLink(sub, {
      lost: (at) => {
        this.losses++;
        this.delivered.hold(at - REPLAY_MARGIN_MS);
        // Sessions other instances end meanwhile are not heard of: connecting sockets ask the database.
        this.ended.deaf();
      },
      restored: (lostAt) => {
        this.ended.hearing();
        void this.replay(lostAt, this.losses);
      },
    });
  }

  private async replay(lostAt: number, loss: number): Promise<void> {
    for (let attempt = 1; this.missed && attempt <= REPLAY_ATTEMPTS; attempt++) {
      try {
        const missed = await this.missed(new Date(lostAt - REPLAY_MARGIN_MS));
        const sent = missed.filter(({ target, item }) => this.deliverLocally(target, item)).length;
        if (sent > 0)
          this.logger.log(
            `Redis is back: ${sent} notification(s) published meanwhile delivered to this instance's sockets`,
          );
        break;
      } catch (e) {
        if (attempt === REPLAY_ATTEMPTS)
          this.logger.warn(`notifications published while Redis was unreachable not replayed: ${(e as Error).message}`);
        else await new Promise((r) => setTimeout(r, REPLAY_RETRY_MS).unref());
      }
    }
    // Late copies from the other instances' queues are still recognised for the usual while.
    if (loss === this.losses) this.delivered.release();
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
    this.ended.add(sessionId);
    for (const socket of this.bySession.get(sessionId)) this.drop(socket, reason);
  }

  private drop(socket: Socket, reason: string): void {
    if (!socket.connected) return;
    socket.emit(SOCKET_EVENTS.SESSION, { reason });
    socket.disconnect(true);
    this.logger.debug(`dropped socket ${socket.id}: ${reason}`);
  }
}

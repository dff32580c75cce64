import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import Redis from 'ioredis';
import { Server, Socket } from 'socket.io';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { RedisConnection } from '../../platform/redis/redis.module';
import {
  SESSION_ENDED,
  SESSION_POLICY_CHANGED,
  SESSION_STARTED,
  SessionEnded,
  SessionPolicyChanged,
  SessionStarted,
} from '../../identity/sessions';
import { NotificationItem, SOCKET_EVENTS } from '../../shared/portal/notifications';
import { LocalSocketIndex } from './socket-index';
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

/** The rooms of an organisation's sockets, and of its sockets that watch its sessions. */
export const orgRoom = (organisationId: number) => `org:${organisationId}`;
export const sessionsWatchRoom = (organisationId: number) => `sessions:${organisationId}`;

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
 * What reaches this instance's notification sockets, on every instance: a notification to its user's sockets or its
 * organisation's room, once each (replayed from the database after the instances lost each other through Redis), a
 * sessions-changed announcement to the organisation's user administrators, and the drop of a socket whose session
 * ended (here or on another instance), whose token expired, or whose organisation's security policy changed. The
 * gateway hands it the server, and each socket it accepts.
 */
@Injectable()
export class NotificationSockets implements OnModuleDestroy {
  private server!: Server;

  private readonly logger = new Logger(NotificationSockets.name);
  private expirySweep?: NodeJS.Timeout;
  /** Whether the sessions' events reach the sockets: from `attach` until the module is destroyed. */
  private listening = false;
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
    private readonly metrics: MetricsService,
    private readonly redis: RedisConnection,
  ) {}

  /** Starts serving `server`'s sockets: what the other instances tell, the sessions' events, the expiry sweep. */
  attach(server: Server): void {
    this.server = server;
    this.metrics.readOnScrape('sockets_connected', () => this.connectionCount);
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
    this.listening = true;
    // One sweep a second instead of a timer per socket (memory per connection).
    this.expirySweep = setInterval(() => this.dropExpired(), EXPIRY_SWEEP_MS);
    this.expirySweep.unref();
  }

  @OnEvent(SESSION_ENDED)
  onSessionEnded({ sessionId, organisationId }: SessionEnded): void {
    if (!this.listening) return;
    this.dropSession(sessionId, 'session-ended');
    this.sessionsChanged(organisationId);
  }

  @OnEvent(SESSION_STARTED)
  onSessionStarted({ organisationId }: SessionStarted): void {
    if (this.listening) this.sessionsChanged(organisationId);
  }

  /**
   * A new security policy: the organisation's sockets, on every instance, reconnect under it (each client refreshes
   * its token and connects again, and the refresh and the handshake apply the new rules).
   */
  @OnEvent(SESSION_POLICY_CHANGED)
  onPolicyChanged({ organisationId }: SessionPolicyChanged): void {
    if (this.listening) this.server.in(orgRoom(organisationId)).disconnectSockets(true);
  }

  onModuleDestroy(): void {
    this.listening = false;
    this.stopWatchingLink?.();
    clearInterval(this.expirySweep);
    for (const timer of this.pendingSessionsChanged.values()) clearTimeout(timer);
    this.pendingSessionsChanged.clear();
  }

  /** Indexes an accepted socket by its session and its user (from now on a session's end finds it). */
  add(socket: Socket, identity: Pick<SocketIdentity, 'userId' | 'sessionId'>): void {
    this.bySession.add(identity.sessionId, socket);
    this.byUser.add(identity.userId, socket);
  }

  /** Unindexes a socket that went. */
  remove(socket: Socket): void {
    const identity = socket.data as Partial<SocketIdentity>;
    if (identity.sessionId) this.bySession.remove(identity.sessionId, socket);
    if (identity.userId) this.byUser.remove(identity.userId, socket);
  }

  /**
   * Whether the session ended since `checkedFrom`, as far as this instance heard (its own ends and the other
   * instances'); undefined when those kept do not reach back that far.
   */
  endedSince(sessionId: string, checkedFrom: number): boolean | undefined {
    return this.ended.covers(checkedFrom) ? this.ended.has(sessionId) : undefined;
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

  /** Tells the socket why, and disconnects it. */
  drop(socket: Socket, reason: string): void {
    if (!socket.connected) return;
    socket.emit(SOCKET_EVENTS.SESSION, { reason });
    socket.disconnect(true);
    this.logger.debug(`dropped socket ${socket.id}: ${reason}`);
  }
}

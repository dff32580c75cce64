import { Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntitySubscriberInterface, InsertEvent, RemoveEvent, UpdateEvent } from 'typeorm';
import { RedisConnection } from '../../platform/redis/redis.module';
import { User } from '../../platform/database/entities/user.entity';

/**
 * Where "users changed" is announced and heard. In one process this is a plain in-memory signal; with
 * several instances (REDIS_URL) it is also published on a Redis channel that every instance hears.
 */
export interface InvalidationChannel {
  publish(scope: string): void;
  subscribe(listener: (scope: string) => void): void;
}

class LocalChannel implements InvalidationChannel {
  private readonly listeners: Array<(scope: string) => void> = [];
  publish(scope: string): void {
    for (const l of this.listeners) l(scope);
  }
  subscribe(listener: (scope: string) => void): void {
    this.listeners.push(listener);
  }
}

/** The Redis channel of "users changed" between instances. */
export const USERS_CHANGED_CHANNEL = 'portal:users-changed';

/**
 * The local signal, and a Redis channel to and from the other instances: this instance's listeners hear its own
 * changes at once (not through Redis), and the others' as soon as Redis delivers them. Should Redis be
 * unreachable, what another instance changed shows within the cache's TTL, as without it.
 */
class RedisChannel extends LocalChannel {
  private readonly instance = randomUUID();

  constructor(private readonly redis: RedisConnection) {
    super();
    const subscriber = redis.duplicate();
    subscriber.on('message', (channel: string, message: string) => {
      const [from, scope] = message.split(' ', 2);
      if (channel === USERS_CHANGED_CHANNEL && from !== this.instance) super.publish(scope);
    });
    void subscriber.subscribe(USERS_CHANGED_CHANNEL).catch(() => undefined);
  }

  override publish(scope: string): void {
    super.publish(scope);
    this.redis.client?.publish(USERS_CHANGED_CHANNEL, `${this.instance} ${scope}`).catch(() => undefined);
  }
}

/** The columns the list's totals depend on. */
const LISTED_COLUMNS = new Set([
  'id',
  'organisationId',
  'firstName',
  'lastName',
  'email',
  'roleId',
  'isAdministrator',
  'isDisabled',
  'isBlocked',
]);

/** Every cached total is thrown away on any write to users, and in any case after this long. */
export const USER_COUNT_TTL_MS = 10_000;
const MAX_ENTRIES = 5_000;
/** Values of getLarge (a whole list's order: about 12 bytes a user) kept at once; the oldest goes first. */
export const MAX_LARGE_ENTRIES = 8;

type Entry = { value: Promise<unknown>; until: number; refreshing?: boolean };

/**
 * The user list's totals without text (an organisation and its role or access filter), the page anchors of
 * each, and a large list's order: counting 100,000 index entries on every page dominated the list's cost. A
 * write to the listed columns of `users` through TypeORM (insert, update, delete, in or out of a transaction)
 * clears the cache at once, and again when its transaction commits; with REDIS_URL every other instance's cache
 * too, as soon as Redis delivers it. A write outside TypeORM shows within the TTL.
 */
@Injectable()
export class UserCountCache implements EntitySubscriberInterface<User> {
  private readonly counts = new Map<string, Entry>();
  private readonly large = new Map<string, Entry>();
  private pendingCommit = false;
  private readonly channel: InvalidationChannel;

  constructor(db: DataSource, @Optional() redis?: RedisConnection) {
    this.channel = redis?.client ? new RedisChannel(redis) : new LocalChannel();
    db.subscribers.push(this);
    this.channel.subscribe(() => {
      this.counts.clear();
      this.large.clear();
    });
  }

  listenTo(): typeof User {
    return User;
  }

  /**
   * The cached value, computed once however many requests ask at the same moment. Past its TTL (not after
   * an invalidation, which removes it) the old value is answered while one request computes the new one,
   * so the expiry of a 100,000-row total never stalls every request at once.
   */
  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.cached(this.counts, MAX_ENTRIES, key, compute);
  }

  /** As get, for values of a size that only a few may be kept at once (a large organisation's list order). */
  getLarge<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.cached(this.large, MAX_LARGE_ENTRIES, key, compute);
  }

  /** As getLarge when a value is cached (even past its TTL, then renewed as get does); else undefined. */
  getLargeIfCached<T>(key: string, compute: () => Promise<T>): Promise<T> | undefined {
    return this.large.has(key) ? this.cached(this.large, MAX_LARGE_ENTRIES, key, compute) : undefined;
  }

  /** The value getLarge holds for `key`, however old; undefined when there is none. Computes nothing. */
  peekLarge<T>(key: string): Promise<T> | undefined {
    return this.large.get(key)?.value as Promise<T> | undefined;
  }

  private cached<T>(store: Map<string, Entry>, max: number, key: string, compute: () => Promise<T>): Promise<T> {
    const entry = store.get(key);
    if (entry && (entry.until > Date.now() || entry.refreshing)) return entry.value as Promise<T>;
    const value = compute();
    if (entry) {
      entry.refreshing = true;
      value.then(
        (v) => {
          if (store.get(key) === entry)
            store.set(key, { value: Promise.resolve(v), until: Date.now() + USER_COUNT_TTL_MS });
        },
        () => {
          if (store.get(key) === entry) store.delete(key);
        },
      );
      return entry.value as Promise<T>;
    }
    if (store.size >= max) store.delete(store.keys().next().value!);
    const fresh = { value, until: Date.now() + USER_COUNT_TTL_MS };
    store.set(key, fresh);
    value.catch(() => {
      if (store.get(key) === fresh) store.delete(key);
    });
    return value;
  }

  invalidate(): void {
    this.channel.publish('users');
  }

  private changed(): void {
    this.pendingCommit = true;
    this.invalidate();
  }

  afterInsert(_event: InsertEvent<User>): void {
    this.changed();
  }
  /** Only a change of what the list filters on counts: a sign-in's lastLoginAt or an MFA step does not. */
  afterUpdate(event: UpdateEvent<User>): void {
    const names = event.updatedColumns?.length
      ? event.updatedColumns.map((c) => c.propertyName)
      : Object.keys(event.entity ?? {});
    if (names.length === 0 || names.some((n) => LISTED_COLUMNS.has(n))) this.changed();
  }
  afterRemove(_event: RemoveEvent<User>): void {
    this.changed();
  }
  afterTransactionCommit(): void {
    if (!this.pendingCommit) return;
    this.pendingCommit = false;
    this.invalidate();
  }
}

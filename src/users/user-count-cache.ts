import { Injectable } from '@nestjs/common';
import { DataSource, EntitySubscriberInterface, InsertEvent, RemoveEvent, UpdateEvent } from 'typeorm';
import { User } from './entities/user.entity';

/**
 * Where "users changed" is announced and heard. In one process this is a plain in-memory signal; with
 * several instances a Redis pub/sub implementation can stand behind the same two methods.
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
 * The user list's totals without text (an organisation and its role or access filter), and the page
 * anchors of each: counting 100,000 index entries on every page dominated the list's cost. A write to
 * the listed columns of `users` through TypeORM (insert, update, delete, in or out of a transaction)
 * clears the cache at once, and again when its transaction commits; a write outside TypeORM (another
 * instance without a shared channel) shows within the TTL.
 */
@Injectable()
export class UserCountCache implements EntitySubscriberInterface<User> {
  private readonly counts = new Map<string, Entry>();
  private readonly large = new Map<string, Entry>();
  private pendingCommit = false;
  private readonly channel: InvalidationChannel = new LocalChannel();

  constructor(db: DataSource) {
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

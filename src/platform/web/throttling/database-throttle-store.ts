import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { placeholders, runSql } from '../../database/raw-sql';
import { ThrottleCount, ThrottleStore } from './throttle-store';

const TABLE = '"sign_in_counters"';

/**
 * The sign-in throttle's counters in the database: one row per key, shared by every instance, kept across
 * restarts and whatever Redis does (docs/decisions/sign-in-locks.md). Each change is one statement, atomic on
 * both engines (an upsert whose row PostgreSQL locks, or SQLite's single writer), so parallel failures on several
 * instances all count. Times are milliseconds since the epoch from the caller's clock, bound as parameters like every
 * other value (TypeORM's named parameters would write a number into the statement's text, a new statement each time).
 */
export class DatabaseThrottleStore implements ThrottleStore {
  /** Expired rows are deleted at most this often by each instance, on a failure's write. */
  static readonly PRUNE_EVERY_MS = 10 * 60 * 1000;
  private lastPrune = 0;
  private readonly logger = new Logger('LoginThrottle');

  constructor(private readonly db: DataSource) {}

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return runSql<T>(this.db, sql, params);
  }

  async increment(keys: readonly string[], ttlMs: number, now: number): Promise<number[]> {
    // In one order everywhere, so that two PostgreSQL transactions never wait for each other's rows in a cycle.
    const sorted = [...new Set(keys)].sort();
    const expiresAt = now + ttlMs;
    const rows = await this.query<{ key: string; count: number | string }>(
      // The leading comment makes TypeORM's SQLite runner read the RETURNING rows.
      `/* sign-in throttle */ INSERT INTO ${TABLE} ("key", "count", "expiresAt")
      VALUES ${sorted.map(() => '(?, 1, ?)').join(', ')}
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN ${TABLE}."expiresAt" <= ? THEN 1 ELSE ${TABLE}."count" + 1 END,
        "expiresAt" = ?
      RETURNING "key", "count"`,
      [...sorted.flatMap((key) => [key, expiresAt]), now, expiresAt],
    );
    this.pruneNowAndThen(now);
    const counts = new Map(rows.map((r) => [r.key, Number(r.count)]));
    return keys.map((key) => counts.get(key) ?? 0);
  }

  async get(keys: readonly string[], now: number): Promise<ThrottleCount[]> {
    const rows = await this.query<{ key: string; count: number | string; expiresAt: number | string }>(
      `SELECT "key", "count", "expiresAt" FROM ${TABLE} WHERE "key" IN (${placeholders(keys)}) AND "expiresAt" > ?`,
      [...keys, now],
    );
    const found = new Map(rows.map((r) => [r.key, { count: Number(r.count), expiresAt: Number(r.expiresAt) }]));
    return keys.map((key) => found.get(key) ?? { count: 0, expiresAt: 0 });
  }

  /** Reads before it deletes: clearing keys that hold nothing (every clean sign-in) writes nothing. */
  async clear(keys: readonly string[]): Promise<void> {
    const present = await this.query<{ key: string }>(
      `SELECT "key" FROM ${TABLE} WHERE "key" IN (${placeholders(keys)})`,
      [...keys],
    );
    if (present.length === 0) return;
    const found = present.map((r) => r.key);
    await this.query(`DELETE FROM ${TABLE} WHERE "key" IN (${placeholders(found)})`, found);
  }

  async setOnce(key: string, ttlMs: number, now: number): Promise<boolean> {
    const expiresAt = now + ttlMs;
    const rows = await this.query<{ key: string }>(
      `/* sign-in throttle */ INSERT INTO ${TABLE} ("key", "count", "expiresAt") VALUES (?, 1, ?)
      ON CONFLICT ("key") DO UPDATE SET "count" = 1, "expiresAt" = ? WHERE ${TABLE}."expiresAt" <= ?
      RETURNING "key"`,
      [key, expiresAt, expiresAt, now],
    );
    return rows.length > 0;
  }

  /** Deletes expired rows, at most once per PRUNE_EVERY_MS, without holding up the failure that triggered it. */
  private pruneNowAndThen(now: number): void {
    if (now - this.lastPrune < DatabaseThrottleStore.PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.query(`DELETE FROM ${TABLE} WHERE "expiresAt" <= ?`, [now]).catch((e: Error) =>
      this.logger.warn(`expired sign-in counters not deleted, tried again later: ${e.message}`),
    );
  }
}

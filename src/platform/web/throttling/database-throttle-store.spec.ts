import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { serialiseSqlite } from '../../database/sqlite/serialiser';
import { DatabaseThrottleStore } from './database-throttle-store';

describe('DatabaseThrottleStore on SQLite', () => {
  let dir: string;
  let db: DataSource;
  let store: DatabaseThrottleStore;
  const texts: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'throttle-'));
    db = await serialiseSqlite(new DataSource({ type: 'sqlite', database: join(dir, 'test.sqlite') })).initialize();
    await db.query(
      'CREATE TABLE "sign_in_counters" ("key" varchar(400) PRIMARY KEY NOT NULL, "count" integer NOT NULL, "expiresAt" bigint NOT NULL)',
    );
    const query = db.query.bind(db);
    jest.spyOn(db, 'query').mockImplementation((sql: string, params?: unknown[]) => {
      texts.push(sql);
      return query(sql, params);
    });
    store = new DatabaseThrottleStore(db);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (texts.length = 0));

  it('counts failures per key until they expire, then starts again from one', async () => {
    const t = 1_800_000_000_000;
    expect(await store.increment(['ip:a', 'user:a'], 60_000, t)).toEqual([1, 1]);
    expect(await store.increment(['user:a', 'ip:a'], 60_000, t + 1)).toEqual([2, 2]);
    expect(await store.get(['ip:a', 'user:a', 'user:none'], t + 2)).toEqual([
      { count: 2, expiresAt: t + 60_001 },
      { count: 2, expiresAt: t + 60_001 },
      { count: 0, expiresAt: 0 },
    ]);
    expect(await store.get(['ip:a'], t + 60_001)).toEqual([{ count: 0, expiresAt: 0 }]);
    expect(await store.increment(['ip:a'], 60_000, t + 60_001)).toEqual([1]);
  });

  it('counts every one of many failures made at once', async () => {
    const t = 1_800_000_050_000;
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment(['ip:p', 'user:p'], 60_000, t)));
    expect(counts.map(([ip]) => ip).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await store.get(['ip:p', 'user:p'], t)).toEqual([
      { count: 20, expiresAt: t + 60_000 },
      { count: 20, expiresAt: t + 60_000 },
    ]);
  });

  it('clears only the keys it is given', async () => {
    const t = 1_800_000_100_000;
    await store.increment(['ip:b', 'user:b'], 60_000, t);
    await store.clear(['user:b', 'user:never']);
    expect(await store.get(['ip:b', 'user:b'], t)).toEqual([
      { count: 1, expiresAt: t + 60_000 },
      { count: 0, expiresAt: 0 },
    ]);
  });

  it('sets a key once until it expires', async () => {
    const t = 1_800_000_200_000;
    expect(await store.setOnce('mail:c', 1_000, t)).toBe(true);
    expect(await store.setOnce('mail:c', 1_000, t + 999)).toBe(false);
    expect(await store.setOnce('mail:c', 1_000, t + 1_000)).toBe(true);
  });

  it('writes each statement the same whatever the time: the time is bound, so SQLite prepares it once', async () => {
    const run = async (t: number) => {
      texts.length = 0;
      await store.get(['ip:d', 'user:d'], t);
      await store.increment(['ip:d', 'user:d'], 60_000, t);
      await store.setOnce('mail:d', 1_000, t);
      return [...texts];
    };
    const first = await run(1_800_000_300_000);
    expect(first).toHaveLength(3);
    expect(await run(1_800_000_400_123)).toEqual(first);
  });
});

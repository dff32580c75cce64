import { DataSource, EntityManager } from 'typeorm';
import {
  caseInsensitiveLike,
  insertRow,
  lockForTransaction,
  positional,
  readDate,
  rowLock,
  storedDate,
  storedFlag,
  updatedCount,
  whileLocked,
} from './raw-sql';

/** A data source of one engine that records the statements it is given and answers `answer`. */
function fakeSource(type: 'sqlite' | 'postgres', answer: unknown = []) {
  const queries: Array<[string, unknown[] | undefined]> = [];
  const query = jest.fn(async (sql: string, params?: unknown[]) => {
    queries.push([sql, params]);
    return answer;
  });
  const runner = { query, release: jest.fn(async () => undefined) };
  const source = Object.assign(Object.create(DataSource.prototype) as DataSource, {
    options: { type },
    query,
    createQueryRunner: () => runner,
  });
  const manager = Object.assign(Object.create(EntityManager.prototype) as EntityManager, {
    connection: source,
    query,
  });
  return { source, manager, queries, runner };
}

const AT = new Date('2026-12-02T03:58:00.123Z');

describe('raw-sql: a statement written once meets either engine', () => {
  it('numbers the placeholders on PostgreSQL and leaves them on SQLite, for a data source or a manager', () => {
    const sql = 'UPDATE "t" SET "a" = ? WHERE "id" = ? AND "b" < ?';
    expect(positional(fakeSource('postgres').source, sql)).toBe('UPDATE "t" SET "a" = $1 WHERE "id" = $2 AND "b" < $3');
    expect(positional(fakeSource('postgres').manager, sql)).toBe(
      'UPDATE "t" SET "a" = $1 WHERE "id" = $2 AND "b" < $3',
    );
    expect(positional(fakeSource('sqlite').source, sql)).toBe(sql);
    expect(positional(fakeSource('sqlite').manager, sql)).toBe(sql);
  });

  it('writes dates and flags as each engine keeps them, and reads both forms of a date back', () => {
    expect(storedDate(fakeSource('postgres').source, AT)).toBe(AT);
    expect(storedDate(fakeSource('sqlite').manager, AT)).toBe('2026-12-02 03:58:00.123');
    expect(storedFlag(fakeSource('postgres').manager, true)).toBe(true);
    expect(storedFlag(fakeSource('sqlite').manager, true)).toBe(1);
    expect(storedFlag(fakeSource('sqlite').manager, false)).toBe(0);
    expect(readDate('2026-12-02 03:58:00.123')).toEqual(AT);
    expect(readDate(AT)).toBe(AT);
  });

  it('matches without case through ILIKE on PostgreSQL, LIKE on SQLite', () => {
    expect(caseInsensitiveLike(fakeSource('postgres').source)).toBe('ILIKE');
    expect(caseInsensitiveLike(fakeSource('sqlite').source)).toBe('LIKE');
  });

  it('locks a read row with FOR UPDATE on PostgreSQL, with nothing on SQLite (its transactions are exclusive)', () => {
    expect(rowLock(fakeSource('postgres').manager)).toBe(' FOR UPDATE');
    expect(rowLock(fakeSource('sqlite').manager)).toBe('');
  });

  it("reads an INSERT's id from PostgreSQL's RETURNING row or SQLite's lastID", async () => {
    const pg = fakeSource('postgres', [{ id: '42' }]);
    expect(await insertRow(pg.manager, 'INSERT INTO "t" ("a", "b") VALUES (?, ?)', [1, 2], true)).toBe(42);
    expect(pg.queries[0][0]).toBe('INSERT INTO "t" ("a", "b") VALUES ($1, $2) RETURNING id');
    const lite = fakeSource('sqlite', 7);
    expect(await insertRow(lite.manager, 'INSERT INTO "t" ("a") VALUES (?)', [1], true)).toBe(7);
    expect(await insertRow(lite.manager, 'INSERT INTO "t" ("a") VALUES (?)', [1], false)).toBe(0);
    expect(lite.queries.map(([sql]) => sql)).toEqual([
      'INSERT INTO "t" ("a") VALUES (?)',
      'INSERT INTO "t" ("a") VALUES (?)',
    ]);
  });

  it("counts an UPDATE's rows: PostgreSQL's count, SQLite's returned rows", async () => {
    expect(await updatedCount(fakeSource('postgres', [[{ id: 1 }], 3]).manager, '/* u */ UPDATE x', [])).toBe(3);
    expect(await updatedCount(fakeSource('sqlite', [{ id: 1 }, { id: 2 }]).manager, '/* u */ UPDATE x', [])).toBe(2);
  });

  it('takes advisory locks on PostgreSQL only, by number or by name', async () => {
    const pg = fakeSource('postgres');
    await lockForTransaction(pg.manager, 7);
    await lockForTransaction(pg.manager, 'keys');
    expect(pg.queries).toEqual([
      ['SELECT pg_advisory_xact_lock($1)', [7]],
      ['SELECT pg_advisory_xact_lock(hashtext($1))', ['keys']],
    ]);
    const lite = fakeSource('sqlite');
    await lockForTransaction(lite.manager, 7);
    expect(lite.queries).toEqual([]);
  });

  it('runs locked work once the lock is had, skips it when another instance holds it, and always on SQLite', async () => {
    const free = fakeSource('postgres', [{ locked: true }]);
    expect(await whileLocked(free.source, 9, async () => 'ran')).toBe('ran');
    expect(free.queries.map(([sql]) => sql)).toEqual([
      'SELECT pg_try_advisory_lock($1) AS locked',
      'SELECT pg_advisory_unlock($1)',
    ]);
    expect(free.runner.release).toHaveBeenCalled();
    const held = fakeSource('postgres', [{ locked: false }]);
    const work = jest.fn(async () => 'ran');
    expect(await whileLocked(held.source, 9, work)).toBeNull();
    expect(work).not.toHaveBeenCalled();
    expect(held.runner.release).toHaveBeenCalled();
    const lite = fakeSource('sqlite');
    expect(await whileLocked(lite.source, 9, async () => 'ran')).toBe('ran');
    expect(lite.queries).toEqual([]);
  });
});

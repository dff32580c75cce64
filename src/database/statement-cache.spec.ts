import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, Statement } from 'sqlite3';
import { cacheStatements } from './statement-cache';

/** sqlite3's callback API as TypeORM's runner calls it: (sql, parameters, handler), `this` the statement. */
function query(db: Database, method: 'all' | 'run', sql: string, params?: unknown[]) {
  return new Promise<{ rows?: unknown[]; lastID?: number; changes?: number }>((resolve, reject) =>
    (
      db[method] as (
        sql: string,
        params: unknown,
        cb: (this: Statement, err: Error | null, rows?: unknown[]) => void,
      ) => void
    )(sql, params, function (err, rows) {
      if (err) reject(err);
      else
        resolve({
          rows,
          lastID: (this as unknown as { lastID: number }).lastID,
          changes: (this as unknown as { changes: number }).changes,
        });
    }),
  );
}

const open = (file: string) =>
  new Promise<Database>((resolve, reject) => {
    const db = new Database(file, (err) => (err ? reject(err) : resolve(db)));
  });
const close = (db: Database) =>
  new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));

describe('cacheStatements (one trip to SQLite a query)', () => {
  let dir: string;
  let file: string;
  let db: Database;
  let prepares: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statement-cache-'));
    file = join(dir, 'db.sqlite');
    db = await open(file);
    await query(db, 'all', 'PRAGMA journal_mode = WAL');
    await query(db, 'run', 'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)');
    prepares = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string, ...rest: unknown[]) => {
      prepares.push(sql);
      return (prepare as (...a: unknown[]) => Statement)(sql, ...rest);
    }) as Database['prepare'];
    cacheStatements(db, 3);
  });
  afterEach(async () => {
    await close(db).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prepares a statement once and binds each call afresh: rows, lastID and changes as sqlite3 gives them', async () => {
    const insert = 'INSERT INTO t (name, n) VALUES (?, ?)';
    const a = await query(db, 'run', insert, ['a', 1]);
    const b = await query(db, 'run', insert, ['b', null]);
    expect([a.lastID, a.changes, b.lastID, b.changes]).toEqual([1, 1, 2, 1]);
    const select = 'SELECT name, n FROM t WHERE id = ?';
    expect((await query(db, 'all', select, [1])).rows).toEqual([{ name: 'a', n: 1 }]);
    expect((await query(db, 'all', select, [2])).rows).toEqual([{ name: 'b', n: null }]);
    expect((await query(db, 'run', 'UPDATE t SET n = n + 1 WHERE n IS NOT NULL', [])).changes).toBe(1);
    expect(prepares.filter((s) => s === insert)).toHaveLength(1);
    expect(prepares.filter((s) => s === select)).toHaveLength(1);
  });

  it('parallel calls of one statement each get their own result', async () => {
    const insert = 'INSERT INTO t (name, n) VALUES (?, ?)';
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => query(db, 'run', insert, [`p${i}`, i])));
    const ids = results.map((r) => r.lastID);
    expect(new Set(ids).size).toBe(40);
    const rows = await Promise.all(ids.map((id) => query(db, 'all', 'SELECT n FROM t WHERE id = ?', [id])));
    expect(rows.map((r) => (r.rows as Array<{ n: number }>)[0].n)).toEqual(results.map((_, i) => i));
  });

  it('a kept statement holds no snapshot: another connection’s commit is seen, and a full checkpoint completes', async () => {
    const count = 'SELECT COUNT(*) AS c FROM t';
    expect((await query(db, 'all', count)).rows).toEqual([{ c: 0 }]);
    const other = await open(file);
    await query(other, 'run', "INSERT INTO t (name) VALUES ('x')");
    expect((await query(db, 'all', count)).rows).toEqual([{ c: 1 }]);
    expect((await query(other, 'all', 'PRAGMA wal_checkpoint(TRUNCATE)')).rows).toEqual([
      { busy: 0, log: 0, checkpointed: 0 },
    ]);
    await close(other);
  });

  it('leaves RETURNING to sqlite3: the row is written and committed before the call answers', async () => {
    const sql = "INSERT INTO t (name) VALUES ('r') RETURNING id";
    await query(db, 'run', sql);
    await query(db, 'run', sql);
    const other = await open(file);
    expect((await query(other, 'all', 'SELECT COUNT(*) AS c FROM t')).rows).toEqual([{ c: 2 }]);
    await close(other);
  });

  it('a statement with parameter markers called without values binds none, as sqlite3 does', async () => {
    expect((await query(db, 'all', 'SELECT ? AS v', [5])).rows).toEqual([{ v: 5 }]);
    expect((await query(db, 'all', 'SELECT ? AS v', [])).rows).toEqual([{ v: null }]);
    expect((await query(db, 'all', 'SELECT ? AS v', undefined)).rows).toEqual([{ v: null }]);
  });

  it('keeps at most its size, least recently used out, and answers alike after letting one go', async () => {
    const sqls = [1, 2, 3, 4].map((i) => `SELECT ${i} AS v`);
    for (const sql of sqls) await query(db, 'all', sql);
    await query(db, 'all', sqls[3]);
    expect(prepares).toEqual(sqls);
    // The first was let go (size 3): prepared again, with the same answer.
    expect((await query(db, 'all', sqls[0])).rows).toEqual([{ v: 1 }]);
    expect(prepares).toEqual([...sqls, sqls[0]]);
  });

  it('passes an SQL error on and does not keep the statement; sees schema changes', async () => {
    await expect(query(db, 'all', 'SELECT nope FROM t')).rejects.toThrow(/no such column/);
    await expect(query(db, 'all', 'SELECT nope FROM t')).rejects.toThrow(/no such column/);
    expect(prepares.filter((s) => s === 'SELECT nope FROM t')).toHaveLength(2);
    const all = 'SELECT * FROM t';
    await query(db, 'run', "INSERT INTO t (name) VALUES ('s')");
    expect(Object.keys((await query(db, 'all', all)).rows![0] as object)).toEqual(['id', 'name', 'n']);
    await query(db, 'run', 'ALTER TABLE t ADD COLUMN extra TEXT', []);
    expect(Object.keys((await query(db, 'all', all)).rows![0] as object)).toEqual(['id', 'name', 'n', 'extra']);
  });

  it('closes with statements kept, and with a statement still being prepared (its call answered first)', async () => {
    await query(db, 'all', 'SELECT 1 AS v');
    await query(db, 'run', "INSERT INTO t (name) VALUES ('c')", []);
    const inFlight = query(db, 'all', 'SELECT name FROM t');
    await close(db);
    expect((await inFlight).rows).toEqual([{ name: 'c' }]);
  });
});

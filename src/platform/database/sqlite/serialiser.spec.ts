import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SqliteQueryRunner } from 'typeorm/driver/sqlite/SqliteQueryRunner';
import { DatabaseBusyError, serialiseSqlite, writeGeneration } from './serialiser';
import { typeormSqliteProblems } from './typeorm-internals';

@Entity('items')
class Item {
  @PrimaryGeneratedColumn() id!: number;
  @Column('varchar') label!: string;
}

/** Rows as a second connection to the file sees them: what survives, not what the first connection believes. */
function countFromSecondConnection(file: string, where: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
    db.get(`SELECT COUNT(*) AS n FROM items WHERE ${where}`, (err: Error | null, row: { n: number }) => {
      db.close();
      if (err) reject(err);
      else resolve(row.n);
    });
  });
}

describe('serialiseSqlite', () => {
  let dir: string;
  let file: string;
  let db: DataSource;

  async function open(serialised: boolean, timeoutMs?: number): Promise<DataSource> {
    const ds = new DataSource({ type: 'sqlite', database: file, entities: [Item], synchronize: true, enableWAL: true });
    if (serialised) serialiseSqlite(ds, { timeoutMs });
    return ds.initialize();
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'serialiser-'));
    file = join(dir, 'test.sqlite');
  });
  afterEach(async () => {
    if (db?.isInitialized) await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** 60 plain inserts fired while 60 transactions insert and then fail: every plain insert must survive, no failed one. */
  async function writesBesideFailingTransactions(
    ds: DataSource,
  ): Promise<{ kept: number; leaked: number; acknowledged: number }> {
    const repo = ds.getRepository(Item);
    const failing = Array.from({ length: 60 }, (_, i) =>
      ds
        .transaction(async (tx) => {
          await tx.getRepository(Item).insert({ label: `failed-${i}` });
          await new Promise((r) => setImmediate(r));
          throw new Error('refused');
        })
        .catch(() => undefined),
    );
    const plain = Array.from({ length: 60 }, (_, i) =>
      repo.insert({ label: `kept-${i}` }).then(
        () => 1,
        () => 0,
      ),
    );
    const results = await Promise.all([...plain, ...failing]);
    const acknowledged = results.filter((r) => r === 1).length;
    return {
      kept: await countFromSecondConnection(file, "label LIKE 'kept-%'"),
      leaked: await countFromSecondConnection(file, "label LIKE 'failed-%'"),
      acknowledged,
    };
  }

  it('keeps every acknowledged write made beside failing transactions, and none of theirs', async () => {
    db = await open(true);
    const { kept, leaked, acknowledged } = await writesBesideFailingTransactions(db);
    expect(acknowledged).toBe(60);
    expect(kept).toBe(60);
    expect(leaked).toBe(0);
  });

  it('reproduces the data loss without the gate (the shared query runner joins foreign transactions)', async () => {
    db = await open(false);
    const repo = db.getRepository(Item);
    let acknowledged = false;
    // Another caller's plain insert, made while a transaction is open, then acknowledged; the transaction fails.
    // Sequenced, not raced: without the gate the insert runs inside the foreign transaction every time.
    await db
      .transaction(async (tx) => {
        await tx.getRepository(Item).insert({ label: 'failed-0' });
        await repo.insert({ label: 'kept-0' });
        acknowledged = true;
        throw new Error('refused');
      })
      .catch(() => undefined);
    expect(acknowledged).toBe(true);
    // Acknowledged to the caller, rolled back with someone else's transaction.
    expect(await countFromSecondConnection(file, "label = 'kept-0'")).toBe(0);
  });

  it('makes count-then-insert inside a transaction atomic under parallel callers', async () => {
    db = await open(true);
    const limit = 3;
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          const n = await tx.getRepository(Item).count();
          await new Promise((r) => setImmediate(r));
          if (n >= limit) throw new Error('limit reached');
          await tx.getRepository(Item).insert({ label: `slot-${i}` });
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(limit);
    expect(await countFromSecondConnection(file, '1 = 1')).toBe(limit);
  });

  it('lets nested transactions of the same caller run as savepoints without waiting for themselves', async () => {
    db = await open(true);
    await db.transaction(async (tx) => {
      await tx.getRepository(Item).insert({ label: 'outer' });
      await tx
        .transaction(async (inner) => {
          await inner.getRepository(Item).insert({ label: 'inner' });
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    expect(await countFromSecondConnection(file, "label = 'outer'")).toBe(1);
    expect(await countFromSecondConnection(file, "label = 'inner'")).toBe(0);
  });

  it('opens the gate again after a failed transaction', async () => {
    db = await open(true, 1_000);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO no_such_table VALUES (1)');
      }),
    ).rejects.toThrow();
    await expect(db.getRepository(Item).insert({ label: 'after' })).resolves.toBeDefined();
    expect(await countFromSecondConnection(file, "label = 'after'")).toBe(1);
  });

  it('refuses with DatabaseBusyError, not a hang, when a transaction holds the gate past the timeout', async () => {
    db = await open(true, 200);
    let finish!: () => void;
    const held = db.transaction(() => new Promise<void>((r) => (finish = r)));
    await new Promise((r) => setTimeout(r, 20));
    await expect(db.getRepository(Item).count()).rejects.toBeInstanceOf(DatabaseBusyError);
    finish();
    await held;
    await expect(db.getRepository(Item).count()).resolves.toBe(0);
  });

  describe('write generation', () => {
    it('stands through reads and grows before any writer hears back: statements, transactions, failures', async () => {
      db = await open(true, 1_000);
      const generation = writeGeneration(db)!;
      const repo = db.getRepository(Item);
      await repo.insert({ label: 'seed' });
      const start = generation();
      await repo.find();
      await repo.count();
      await db.query('SELECT label FROM items WHERE id = ?', [1]);
      expect(generation()).toBe(start);

      const changes = [
        () => repo.insert({ label: 'plain' }),
        () => db.query("UPDATE items SET label = 'raw'"),
        () => db.query("WITH x AS (SELECT 1) DELETE FROM items WHERE label = 'none'"),
        () => db.transaction((tx) => tx.getRepository(Item).insert({ label: 'in a transaction' })),
        () => db.query('INSERT INTO no_such_table VALUES (1)').catch(() => undefined),
        () =>
          db
            .transaction(async (tx) => {
              await tx.getRepository(Item).insert({ label: 'rolled back' });
              throw new Error('refused');
            })
            .catch(() => undefined),
      ];
      for (const change of changes) {
        const before = generation();
        await change();
        expect(generation()).toBeGreaterThan(before);
      }
    });

    it('has grown by the time each of many parallel writers hears back', async () => {
      db = await open(true, 5_000);
      const generation = writeGeneration(db)!;
      const repo = db.getRepository(Item);
      const seen = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const before = generation();
          if (i % 2) await repo.insert({ label: `w${i}` });
          else await db.transaction((tx) => tx.getRepository(Item).insert({ label: `t${i}` }));
          return generation() > before;
        }),
      );
      expect(seen.every(Boolean)).toBe(true);
      expect(generation()).toBeGreaterThanOrEqual(40);
    });

    it('is not offered for a data source that is not serialised', async () => {
      db = await open(false);
      expect(writeGeneration(db)).toBeUndefined();
    });
  });
});

describe("TypeORM's SQLite driver, as the serialiser relies on it", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sqlite-shape-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const dataSource = () => new DataSource({ type: 'sqlite', database: join(dir, 'db.sqlite'), entities: [Item] });

  it('has the shape the serialiser expects (fails when an upgrade moves what it relies on)', () => {
    expect(typeormSqliteProblems(dataSource())).toEqual([]);
  });

  it('refuses to serialise, so the server does not start, when a piece is gone', () => {
    // What an upgrade that renamed a transaction step of the query runner looks like.
    Object.defineProperty(SqliteQueryRunner.prototype, 'commitTransaction', { value: undefined, configurable: true });
    try {
      expect(() => serialiseSqlite(dataSource())).toThrow(/SqliteQueryRunner#commitTransaction is gone/);
    } finally {
      delete (SqliteQueryRunner.prototype as { commitTransaction?: unknown }).commitTransaction;
    }
    expect(typeof SqliteQueryRunner.prototype.commitTransaction).toBe('function');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, DataSource, Entity, PrimaryGeneratedColumn, QueryFailedError } from 'typeorm';
import { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';
import { SqliteQueryRunner } from 'typeorm/driver/sqlite/SqliteQueryRunner';
import { serialiseSqlite } from './serialiser';

@Entity('notes')
class Note {
  @PrimaryGeneratedColumn() id!: number;
  @Column('varchar', { unique: true }) label!: string;
  @Column('integer', { default: 0 }) hits!: number;
}

describe('prepared statements of the serialised SQLite connection', () => {
  let dir: string;
  let db: DataSource;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prepared-'));
    db = serialiseSqlite(
      new DataSource({ type: 'sqlite', database: join(dir, 'test.sqlite'), entities: [Note], synchronize: true }),
    );
    await db.initialize();
  });
  afterEach(async () => {
    if (db.isInitialized) await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The same statement through TypeORM's own runner: what every caller of `query()` was written against. */
  function typeorm(sql: string, parameters: unknown[] = [], structured = false) {
    return new SqliteQueryRunner(db.driver as SqliteDriver).query(sql, parameters, structured);
  }

  /** A statement on a query runner of its own, answered raw or structured (a QueryResult). */
  async function ask(ds: DataSource, sql: string, parameters: unknown[], structured: boolean): Promise<unknown> {
    const runner = ds.createQueryRunner();
    try {
      return structured
        ? await runner.query(sql, parameters, true)
        : ((await runner.query(sql, parameters)) as unknown);
    } finally {
      await runner.release();
    }
  }

  it("answers each kind of statement as TypeORM's runner does on a twin database, raw and structured", async () => {
    const twin = await new DataSource({
      type: 'sqlite',
      database: join(dir, 'twin.sqlite'),
      entities: [Note],
      synchronize: true,
    }).initialize();
    try {
      const statements: Array<[string, string[]]> = [
        ['INSERT INTO notes (label) VALUES (?)', ['a']],
        ['INSERT INTO notes (label) VALUES (?)', ['b']],
        ['UPDATE notes SET hits = hits + 1 WHERE label = ?', ['a']],
        ['UPDATE notes SET hits = hits + 1 WHERE label = ?', ['none']],
        ['/* rows */ UPDATE notes SET hits = hits + 1 WHERE label = ? RETURNING hits', ['b']],
        ['SELECT id, label, hits FROM notes WHERE label = ?', ['a']],
        ['SELECT id FROM notes WHERE label = ?', ['none']],
        ['DELETE FROM notes WHERE label = ?', ['b']],
        ['INSERT INTO notes (label) VALUES (?) RETURNING id', ['c']],
      ];
      // Twice through: the second time every statement is one kept from the first.
      for (const pass of [1, 2])
        for (const structured of [false, true])
          for (const [sql, labels] of statements) {
            const parameters = labels.map((label) => `${pass}-${structured}-${label}`);
            const mine = await ask(db, sql, parameters, structured);
            const theirs = await ask(twin, sql, parameters, structured);
            expect({ pass, sql, structured, answer: mine }).toEqual({ pass, sql, structured, answer: theirs });
          }
    } finally {
      await twin.destroy();
    }
  });

  it('prepares a statement once and runs it again, inside transactions and outside', async () => {
    const connection = (db.driver as SqliteDriver).databaseConnection as { prepare: (sql: string) => unknown };
    const prepare = jest.spyOn(connection, 'prepare');
    const sql = 'SELECT COUNT(*) AS n FROM notes WHERE hits >= ?';
    for (let i = 0; i < 3; i++) await db.query(sql, [0]);
    await db.transaction(async (tx) => {
      await tx.query(sql, [1]);
    });
    expect(prepare.mock.calls.filter(([text]) => text === sql)).toHaveLength(1);
  });

  it('a statement kept from before answers with the new parameters', async () => {
    await db.query('INSERT INTO notes (label, hits) VALUES (?, ?), (?, ?)', ['x', 1, 'y', 2]);
    expect(await db.query('SELECT hits FROM notes WHERE label = ?', ['x'])).toEqual([{ hits: 1 }]);
    expect(await db.query('SELECT hits FROM notes WHERE label = ?', ['y'])).toEqual([{ hits: 2 }]);
    expect(await db.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 2 }]);
  });

  it("fails as TypeORM's runner fails: a QueryFailedError with SQLite's code, for a statement that cannot be prepared too", async () => {
    await db.query('INSERT INTO notes (label) VALUES (?)', ['taken']);
    for (const [sql, parameters] of [
      ['INSERT INTO notes (label) VALUES (?)', ['taken']],
      ['SELEC nothing', []],
      ['SELECT missing FROM notes', []],
    ] as Array<[string, unknown[]]>) {
      const mine = await db.query(sql, parameters).catch((e: unknown) => e);
      const theirs = await typeorm(sql, parameters).catch((e: unknown) => e);
      expect(mine).toBeInstanceOf(QueryFailedError);
      expect({ message: (mine as Error).message, code: (mine as { code?: string }).code }).toEqual({
        message: (theirs as Error).message,
        code: (theirs as { code?: string }).code,
      });
    }
    // The failed statements left nothing open: a transaction still commits.
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO notes (label) VALUES (?)', ['after']);
    });
    expect(await db.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 2 }]);
  });

  it('keeps the most recently used statements: many distinct ones still answer and the connection still closes', async () => {
    await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        db.query(`SELECT ? + ${i} AS v`, [1]).then((rows) => expect(rows).toEqual([{ v: i + 1 }])),
      ),
    );
    await db.transaction(async (tx) => {
      for (let i = 0; i < 300; i++) await tx.query(`INSERT INTO notes (label, hits) VALUES (?, ${i})`, [`n${i}`]);
    });
    expect(await db.query('SELECT COUNT(*) AS n, SUM(hits) AS total FROM notes')).toEqual([{ n: 300, total: 44850 }]);
    await db.destroy();
    expect(db.isInitialized).toBe(false);
    // And opens again, with statements of its own.
    await db.initialize();
    expect(await db.query('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 300 }]);
  });
});

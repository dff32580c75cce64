import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, CreateDateColumn, DataSource, Entity, PrimaryGeneratedColumn, Repository } from 'typeorm';
import { DATE_TYPE } from './column-types';
import { findRow, findRowWith } from './entity-rows';
import { lockRow, lockRowAndCount } from './locks';
import { serialiseSqlite } from './sqlite/serialiser';

@Entity('rows_owner')
class Owner {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'boolean', default: false })
  strict!: boolean;

  @Column({ type: 'simple-json', nullable: true })
  ranges!: string[] | null;
}

@Entity('rows_example')
class Example {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  email!: string;

  @Column({ type: 'boolean', default: false })
  flag!: boolean;

  @Column({ type: DATE_TYPE, nullable: true })
  seenAt!: Date | null;

  @Column({ type: 'simple-json', nullable: true })
  ranges!: string[] | null;

  @CreateDateColumn()
  createdAt!: Date;

  @Column({ type: 'integer', nullable: true })
  ownerId!: number | null;
}

describe('findRow: a row read with a statement of its own, hydrated as findOneBy hydrates it', () => {
  let dir: string;
  let db: DataSource;
  let rows: Repository<Example>;
  let owners: Repository<Owner>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rows-'));
    db = await serialiseSqlite(
      new DataSource({
        type: 'sqlite',
        database: join(dir, 'test.sqlite'),
        entities: [Example, Owner],
        synchronize: true,
      }),
    ).initialize();
    rows = db.getRepository(Example);
    owners = db.getRepository(Owner);
    const owner = await owners.save(owners.create({ name: 'Owner', strict: true, ranges: ['10.0.0.0/8'] }));
    await rows.save([
      rows.create({
        email: 'a@example.test',
        flag: true,
        seenAt: new Date('2026-12-02T03:58:00.123Z'),
        ranges: ['10.0.0.0/8'],
        ownerId: owner.id,
      }),
      rows.create({ email: 'b@example.test', flag: false, seenAt: null, ranges: null, ownerId: null }),
      rows.create({ email: 'c@example.test', flag: false, seenAt: null, ranges: null, ownerId: owner.id + 100 }),
    ]);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers an instance of the entity equal to findOneBy’s: flags, dates, JSON and nulls converted alike', async () => {
    for (const email of ['a@example.test', 'b@example.test']) {
      const found = await findRow(rows, { email });
      expect(found).toBeInstanceOf(Example);
      expect(found).toEqual(await rows.findOneBy({ email }));
    }
    const a = await findRow(rows, { email: 'a@example.test' });
    expect(a).toMatchObject({ flag: true, ranges: ['10.0.0.0/8'] });
    expect(a?.seenAt?.toISOString()).toBe('2026-12-02T03:58:00.123Z');
  });

  it('reads only the selected columns, keyed by several, and answers null when no row matches', async () => {
    const a = await rows.findOneByOrFail({ email: 'a@example.test' });
    const picked = await findRow(rows, { id: a.id, email: a.email }, { select: ['id', 'flag'] });
    expect(picked).toEqual(Object.assign(new Example(), { id: a.id, flag: true }));
    expect(await findRow(rows, { id: a.id, email: 'b@example.test' })).toBeNull();
    expect(await findRow(rows, { email: 'nobody@example.test' })).toBeNull();
  });

  it('takes a value as a parameter, never as SQL', async () => {
    expect(await findRow(rows, { email: "x' OR '1'='1" })).toBeNull();
  });

  it('refuses a property that is not a column', async () => {
    await expect(findRow(rows, { nope: 1 } as never)).rejects.toThrow('Example has no column nope');
  });

  it('findRowWith reads the row it refers to in the same statement: hydrated alike, null when there is none', async () => {
    const join = { repository: owners, by: 'ownerId' as const, select: ['strict', 'ranges'] as const };
    const a = await findRowWith(rows, { email: 'a@example.test' }, join);
    expect(a?.row).toEqual(await rows.findOneBy({ email: 'a@example.test' }));
    // The id is read with the columns asked for.
    const owner = await owners.findOneByOrFail({ name: 'Owner' });
    expect(a?.joined).toEqual(Object.assign(new Owner(), { id: owner.id, strict: true, ranges: ['10.0.0.0/8'] }));
    // No reference, a reference to no row, no row at all.
    for (const email of ['b@example.test', 'c@example.test']) {
      const found = await findRowWith(rows, { email }, join);
      expect(found).toEqual({ row: await rows.findOneBy({ email }), joined: null });
    }
    expect(await findRowWith(rows, { email: 'nobody@example.test' }, join)).toBeNull();
    expect(await findRowWith(rows, { email: "x' OR '1'='1" }, join)).toBeNull();
    await expect(
      findRowWith(rows, { email: 'a@example.test' }, { ...join, select: ['nope'] as never }),
    ).rejects.toThrow('Owner has no column nope');
  });

  it('lockRow reads the row inside a transaction, and refuses to run outside one', async () => {
    const a = await rows.findOneByOrFail({ email: 'a@example.test' });
    await expect(db.transaction((tx) => lockRow(tx, Example, a.id))).resolves.toEqual(a);
    expect(() => lockRow(db.manager, Example, a.id)).toThrow('lockRow needs a transaction');
  });

  it('lockRowAndCount reads the row and a count in one statement on SQLite, inside a transaction only', async () => {
    const a = await rows.findOneByOrFail({ email: 'a@example.test' });
    const count = {
      sql: 'SELECT COUNT(*) AS "n" FROM "rows_example" WHERE "flag" = ? AND "id" <> ?',
      params: [0, a.id],
    };
    let statements = 0;
    await expect(
      db.transaction(async (tx) => {
        const query = jest.spyOn(tx, 'query');
        const locked = await lockRowAndCount(tx, Example, a.id, ['id', 'flag'], count);
        statements = query.mock.calls.length;
        return locked;
      }),
    ).resolves.toEqual({ row: Object.assign(new Example(), { id: a.id, flag: true }), count: 2 });
    expect(statements).toBe(1);
    await expect(db.transaction((tx) => lockRowAndCount(tx, Example, a.id + 1000, ['id'], count))).resolves.toBeNull();
    await expect(lockRowAndCount(db.manager, Example, a.id, ['id'], count)).rejects.toThrow(
      'lockRowAndCount needs a transaction',
    );
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, CreateDateColumn, DataSource, Entity, PrimaryGeneratedColumn, Repository } from 'typeorm';
import { DATE_TYPE } from './column-types';
import { findRow } from './entity-rows';
import { lockRow } from './locks';
import { serialiseSqlite } from './sqlite/serialiser';

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
}

describe('findRow: a row read with a statement of its own, hydrated as findOneBy hydrates it', () => {
  let dir: string;
  let db: DataSource;
  let rows: Repository<Example>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rows-'));
    db = await serialiseSqlite(
      new DataSource({ type: 'sqlite', database: join(dir, 'test.sqlite'), entities: [Example], synchronize: true }),
    ).initialize();
    rows = db.getRepository(Example);
    await rows.save([
      rows.create({
        email: 'a@example.test',
        flag: true,
        seenAt: new Date('2026-12-02T03:58:00.123Z'),
        ranges: ['10.0.0.0/8'],
      }),
      rows.create({ email: 'b@example.test', flag: false, seenAt: null, ranges: null }),
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

  it('lockRow reads the row inside a transaction, and refuses to run outside one', async () => {
    const a = await rows.findOneByOrFail({ email: 'a@example.test' });
    await expect(db.transaction((tx) => lockRow(tx, Example, a.id))).resolves.toEqual(a);
    expect(() => lockRow(db.manager, Example, a.id)).toThrow('lockRow needs a transaction');
  });
});

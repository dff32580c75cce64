import { Injectable } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule, OnEvent } from '@nestjs/event-emitter';
import { Test, TestingModule } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { serialiseSqlite } from '../database/sqlite/serialiser';
import { EventName, InTransaction, publishInTransaction } from './in-transaction';

@Entity('rows')
class Row {
  @PrimaryGeneratedColumn() id!: number;
  @Column('varchar') label!: string;
}

interface Written extends InTransaction {
  label: string;
}
const WRITTEN: EventName<Written> = 'test.written';
const WRITTEN_LOOSELY: EventName<Written> = 'test.written-loosely';

/** What the handlers do, and the order they ran in. */
const plan = { firstFails: false, firstPauses: false, steps: [] as string[] };

@Injectable()
class FirstHandler {
  @OnEvent(WRITTEN, { suppressErrors: false })
  async written({ tx, label }: Written): Promise<void> {
    plan.steps.push('first:start');
    await tx.getRepository(Row).insert({ label: `${label}:first` });
    if (plan.firstPauses) await new Promise((r) => setTimeout(r, 20));
    if (plan.firstFails) throw new Error('the first handler failed');
    plan.steps.push('first:end');
  }

  /** The library's default: an error is logged and swallowed. */
  @OnEvent(WRITTEN_LOOSELY)
  async writtenLoosely(): Promise<void> {
    throw new Error('swallowed');
  }
}

@Injectable()
class SecondHandler {
  @OnEvent(WRITTEN, { suppressErrors: false })
  async written({ tx, label }: Written): Promise<void> {
    plan.steps.push('second:start');
    await tx.getRepository(Row).insert({ label: `${label}:second` });
  }
}

describe('publishInTransaction', () => {
  let dir: string;
  let db: DataSource;
  let app: TestingModule;
  let emitter: EventEmitter2;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'events-'));
    const ds = new DataSource({
      type: 'sqlite',
      database: join(dir, 'test.sqlite'),
      entities: [Row],
      synchronize: true,
    });
    db = await serialiseSqlite(ds).initialize();
    app = await Test.createTestingModule({
      imports: [EventEmitterModule.forRoot()],
      providers: [FirstHandler, SecondHandler],
    }).compile();
    app.useLogger(false);
    await app.init();
    emitter = app.get(EventEmitter2);
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    Object.assign(plan, { firstFails: false, firstPauses: false, steps: [] });
  });

  /** The writer: its own row, then the event, in one transaction; `thenFail` makes it fail after the handlers ran. */
  const write = (label: string, thenFail = false, name = WRITTEN) =>
    db.transaction(async (tx) => {
      await tx.getRepository(Row).insert({ label });
      await publishInTransaction(emitter, name, { tx, label });
      if (thenFail) throw new Error('the writer failed');
    });
  const labels = async (prefix: string) =>
    (await db.getRepository(Row).find({ order: { id: 'ASC' } }))
      .map((r) => r.label)
      .filter((l) => l.startsWith(prefix));

  it("commits what the handlers write with the writer's change", async () => {
    await write('kept');
    expect(await labels('kept')).toEqual(['kept', 'kept:first', 'kept:second']);
  });

  it("rolls back what the handlers wrote when the writer's transaction fails", async () => {
    await expect(write('undone', true)).rejects.toThrow('the writer failed');
    expect(plan.steps).toEqual(['first:start', 'first:end', 'second:start']);
    expect(await labels('undone')).toEqual([]);
  });

  it("fails the writer's change when a handler throws, and runs no handler after it", async () => {
    plan.firstFails = true;
    await expect(write('refused')).rejects.toThrow('the first handler failed');
    expect(plan.steps).toEqual(['first:start']);
    expect(await labels('refused')).toEqual([]);
  });

  it('runs the handlers one after another, each awaited, not side by side', async () => {
    plan.firstPauses = true;
    await write('ordered');
    expect(plan.steps).toEqual(['first:start', 'first:end', 'second:start']);
  });

  it('is refused outside a transaction', async () => {
    await expect(publishInTransaction(emitter, WRITTEN, { tx: db.manager, label: 'loose' })).rejects.toThrow(
      "must be published inside the writer's open transaction",
    );
    expect(plan.steps).toEqual([]);
  });

  it("needs suppressErrors: false: the library's default only logs a handler's error", async () => {
    await write('logged', false, WRITTEN_LOOSELY);
    expect(await labels('logged')).toEqual(['logged']);
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, IsNull, Not, Repository } from 'typeorm';
import { AppConfig } from '../config/env.validation';
import { OutboxMessage } from './entities/outbox-message.entity';
import { MailService, retryDelayMs } from './mail.service';

/** A MailService whose transport fails as often as told, on a throwaway SQLite database. */
class FlakyMailService extends MailService {
  failuresLeft = 0;
  delivered: string[] = [];
  protected override async deliver(message: OutboxMessage): Promise<void> {
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error('SMTP 421 try again later');
    }
    await super.deliver(message);
    this.delivered.push(message.subject);
  }
}

describe('MailService: an outbox that retries and never loses a message', () => {
  let db: DataSource;
  let repo: Repository<OutboxMessage>;
  let dataDir: string;
  const config = () => ({ dataDir, mailFrom: 'portal@example.com', logLevel: 'silent' }) as unknown as AppConfig;
  const make = () => {
    const service = new FlakyMailService(config(), repo);
    service.retryBaseMs = 20;
    return service;
  };
  const until = async (ok: () => Promise<boolean> | boolean, ms = 5_000) => {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mail-outbox-'));
    db = await new DataSource({
      type: 'sqlite',
      database: ':memory:',
      entities: [OutboxMessage],
      synchronize: true,
    }).initialize();
    repo = db.getRepository(OutboxMessage);
  });
  /** A stored message, not yet delivered, with `fields` over these. */
  const stored = (fields: Partial<OutboxMessage>) => ({
    to: 'x@example.com',
    subject: 'x',
    text: 'x',
    attempts: 0,
    nextAttemptAt: new Date(),
    claimedUntil: null,
    sentAt: null,
    lastError: null,
    replyTo: null,
    ...fields,
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores the message before send() resolves, and delivers it in the background', async () => {
    const mail = make();
    await mail.send({ to: 'a@example.com', subject: 'Hello', text: 'Temporary password: Secret-123' });
    expect(await repo.count()).toBe(1);
    await until(async () => (await repo.countBy({ sentAt: Not(IsNull()) })) === 1);
    const [row] = await repo.find();
    expect(row.sentAt).toBeInstanceOf(Date);
    // Delivered: the body (temporary passwords, reset links) no longer sits in the database.
    expect(row.text).toBe('');
    expect(readdirSync(join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    await mail.onModuleDestroy();
  });

  it('retries a failed delivery after a growing delay, recording the attempts and the error', async () => {
    const mail = make();
    mail.failuresLeft = 2;
    await mail.send({ to: 'b@example.com', subject: 'Retry me', text: 'x' });
    await until(async () => (await repo.findOneByOrFail({ subject: 'Retry me' })).attempts === 1);
    const afterFirst = await repo.findOneByOrFail({ subject: 'Retry me' });
    expect(afterFirst.sentAt).toBeNull();
    expect(afterFirst.lastError).toContain('SMTP 421');
    // Wait for the row to say so, not for the transport: the row is updated just after the hand-over.
    await until(async () => (await repo.findOneByOrFail({ subject: 'Retry me' })).sentAt !== null);
    expect(mail.delivered).toContain('Retry me');
    const done = await repo.findOneByOrFail({ subject: 'Retry me' });
    expect(done.attempts).toBe(2);
    expect(done.sentAt).toBeInstanceOf(Date);
    await mail.onModuleDestroy();
  });

  it('resumes at start the messages an earlier run left undelivered', async () => {
    // A message stored by a process that died before delivering it (its claim has run out).
    await repo.insert(
      stored({
        to: 'c@example.com',
        subject: 'Left behind',
        attempts: 1,
        nextAttemptAt: new Date(Date.now() - 1000),
        claimedUntil: new Date(Date.now() - 1),
      }),
    );
    const mail = make();
    mail.onApplicationBootstrap();
    await until(() => mail.delivered.includes('Left behind'));
    await mail.onModuleDestroy();
  });

  it('leaves alone a message another instance is delivering', async () => {
    await repo.insert(stored({ to: 'd@example.com', subject: 'Claimed', claimedUntil: new Date(Date.now() + 60_000) }));
    const mail = make();
    await mail.kick();
    expect(mail.delivered).toEqual([]);
    await mail.onModuleDestroy();
  });

  it('deletes rows delivered more than a week ago, and only those', async () => {
    const row = (subject: string, sentAt: Date | null) =>
      stored({ to: 'e@example.com', subject, nextAttemptAt: new Date(Date.now() + 60_000), sentAt });
    await repo.insert([
      row('Old', new Date(Date.now() - MailService.KEEP_SENT_MS - 1000)),
      row('Recent', new Date()),
      row('Pending', null),
    ]);
    const mail = make();
    await mail.kick();
    expect((await repo.find({ order: { id: 'ASC' } })).map((m) => m.subject)).toEqual(['Recent', 'Pending']);
    await mail.onModuleDestroy();
  });

  it('backs off 5 s, 10 s, 20 s … up to an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(30)).toBe(60 * 60 * 1000);
  });
});

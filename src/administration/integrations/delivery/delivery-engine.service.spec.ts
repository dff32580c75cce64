import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { eventually, WebhookReceiver } from '../../../../test/utils/servers/webhook-receiver';
import { createOrganisation, createUser } from '../../../../test/utils/factories';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { AUDIT_RECORDED, AuditRecorded } from '../../../platform/audit';
import { AuditService } from '../../../platform/audit/audit.service';
import { AuditEvent } from '../../../platform/audit/entities/audit-event.entity';
import { encrypt } from '../../../platform/crypto/secrets';
import { APP_CONFIG } from '../../../platform/config/app-config.module';
import { AppConfig } from '../../../platform/config/env.validation';
import { Role } from '../../../shared/roles';
import { IntegrationDelivery } from '../entities/integration-delivery.entity';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';
import { DeliveryAttempts } from './delivery-attempts.service';
import { DeliveryEngine } from './delivery-engine.service';
import { newEventId } from './integration-outbox';

describe.each(SERVICE_DATABASES)('DeliveryEngine on %s', (database) => {
  const t = serviceApp(database, { ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '2s,3s' });
  let rx: WebhookReceiver;
  beforeAll(async () => {
    rx = await new WebhookReceiver().start();
  });
  afterAll(() => rx.stop());

  const engine = () => t().app.get(DeliveryEngine);
  const deliveries = () => t().db.getRepository(IntegrationDelivery);
  let n = 0;

  /** Another instance on the same database: its own engine, as a second process would have. */
  function secondInstance(): DeliveryEngine {
    const app = t().app;
    const db = app.get(DataSource);
    return new DeliveryEngine(db.getRepository(IntegrationDelivery), app.get(DeliveryAttempts), db);
  }

  async function endpointWith(count: number, answer = 204, organisation?: Organisation) {
    const org = organisation ?? (await createOrganisation(t()));
    const path = `/engine-${n++}`;
    rx.answer(path, { status: answer });
    const config = t().app.get<AppConfig>(APP_CONFIG);
    const endpoint = await t()
      .db.getRepository(WebhookEndpoint)
      .save({
        organisationId: org.id,
        url: `${rx.url}${path}`,
        events: '["*"]',
        description: null,
        enabled: true,
        disabledReason: null,
        secretSealed: encrypt(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, config.encryptionKey),
        previousSecretSealed: null,
        previousSecretUntil: null,
        failingSince: null,
        createdBy: null,
      });
    const rows = Array.from({ length: count }, (_, i) => ({
      endpointId: endpoint.id,
      streamId: null,
      eventId: newEventId(),
      type: 'webhook.test',
      payload: JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { i } }),
      occurredAt: new Date(),
      status: 'pending' as const,
      attempts: 0,
      // Due a moment from now, so that both instances below find them at once.
      nextAttemptAt: new Date(Date.now() + 300),
    }));
    await deliveries().insert(rows);
    return { endpoint, path, org };
  }

  it('two instances working the same outbox make each attempt once', async () => {
    const { endpoint, path } = await endpointWith(30);
    const other = secondInstance();
    await new Promise((r) => setTimeout(r, 350));
    await Promise.all([engine().kick(), other.kick(), engine().kick(), other.kick()]);
    await rx.waitFor(path, 30);
    await new Promise((r) => setTimeout(r, 500));
    const ids = rx.on(path).map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(30);
    expect(ids).toHaveLength(30);
    const rows = await deliveries().findBy({ endpointId: endpoint.id });
    expect(rows.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.claimedBy === null)).toBe(true);
    await other.onModuleDestroy();
  });

  it("a live claim is left alone; an expired one (a killed instance's) is taken over", async () => {
    const { endpoint, path } = await endpointWith(2);
    const [held, expired] = await deliveries().find({ where: { endpointId: endpoint.id }, order: { id: 'ASC' } });
    await deliveries().update(
      { id: held.id },
      { claimedBy: 'elsewhere:1', claimedUntil: new Date(Date.now() + 60_000), nextAttemptAt: new Date() },
    );
    await deliveries().update(
      { id: expired.id },
      { claimedBy: 'killed:1', claimedUntil: new Date(Date.now() - 1000), nextAttemptAt: new Date() },
    );
    await engine().kick();
    await rx.waitFor(path, 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.on(path).map((r) => r.headers['webhook-id'])).toEqual([expired.eventId]);
    expect(await deliveries().findOneByOrFail({ id: held.id })).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('a failure waits the schedule before the next attempt; after the last it is failed', async () => {
    const { endpoint, path } = await endpointWith(1, 500);
    await new Promise((r) => setTimeout(r, 350));
    const before = Date.now();
    await engine().kick();
    const [first] = await deliveries().findBy({ endpointId: endpoint.id });
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    const wait = first.nextAttemptAt!.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(1900);
    expect(wait).toBeLessThan(3000);
    await deliveries().update({ id: first.id }, { nextAttemptAt: new Date() });
    await engine().kick();
    const second = await deliveries().findOneByOrFail({ id: first.id });
    expect(second).toMatchObject({ status: 'pending', attempts: 2 });
    expect(second.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(2500);
    await deliveries().update({ id: first.id }, { nextAttemptAt: new Date() });
    await engine().kick();
    expect(await deliveries().findOneByOrFail({ id: first.id })).toMatchObject({
      status: 'failed',
      attempts: 3,
      nextAttemptAt: null,
    });
    expect(rx.on(path)).toHaveLength(3);
  });

  it('in parallel: an organisation takes at most 4 webhook slots, an endpoint 2; another organisation goes at once', async () => {
    const slow = { status: 204, delayMs: 1500 };
    const first = await endpointWith(1);
    const a = [first, ...(await Promise.all(Array.from({ length: 5 }, () => endpointWith(1, 204, first.org))))];
    const b = await endpointWith(1);
    const c = await endpointWith(5);
    for (const e of [...a, c]) rx.answer(e.path, slow);
    await new Promise((r) => setTimeout(r, 350));
    await engine().kick();
    // Every delivery made once, in the end.
    const paths = [...a, b, c].map((e) => e.path);
    expect(paths.map((p) => rx.on(p).length)).toEqual([1, 1, 1, 1, 1, 1, 1, 5]);
    const start = Math.min(...paths.flatMap((p) => rx.on(p).map((r) => r.at)));
    // Requests that came while the first ones were still waiting for their answers (1.5 s).
    const early = (ps: string[]) => ps.flatMap((p) => rx.on(p)).filter((r) => r.at < start + 1000).length;
    expect(early(a.map((e) => e.path))).toBe(4);
    expect(early([c.path])).toBe(2);
    expect(early([b.path])).toBe(1);
  }, 30_000);

  it('a receiver that keeps timing out takes at most two slots, then is left alone; one probe reopens it', async () => {
    const { endpoint, path } = await endpointWith(4);
    // Two attempts hang to the answer limit; every later request is answered at once.
    rx.answer(path, { hang: true }, { hang: true }, { status: 204 });
    engine().circuitBaseMs = 1500;
    await new Promise((r) => setTimeout(r, 350));
    void engine().kick();
    await rx.waitFor(path, 2);
    // Its other two deliveries are due, but the endpoint's two attempts under way are all it may have.
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.on(path)).toHaveLength(2);
    // Both time out, 10 s after each was sent (on a loaded machine a while after its claim): two timeouts in a row
    // back the endpoint off, its due deliveries waiting uncounted.
    const timedOut = await eventually(
      () => deliveries().find({ where: { endpointId: endpoint.id }, order: { id: 'ASC' } }),
      (rows) => rows.filter((d) => d.attempts === 1).length === 2,
      30_000,
    );
    const backedOffAt = Date.now();
    expect(timedOut.filter((d) => d.lastError?.startsWith('TIMEOUT'))).toHaveLength(2);
    expect(timedOut.filter((d) => d.attempts === 0 && d.status === 'pending')).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.on(path)).toHaveLength(2);
    // After the back-off one probe goes alone; it is answered, so the rest follow (the retried ones on their schedule).
    const [, , probe] = await rx.waitFor(path, 3, 10_000);
    expect(probe.at - backedOffAt).toBeGreaterThanOrEqual(1000);
    await rx.waitFor(path, 6, 20_000);
    const rows = await eventually(
      () => deliveries().findBy({ endpointId: endpoint.id }),
      (ds) => ds.every((d) => d.status === 'succeeded'),
    );
    expect(rows.map((d) => d.attempts).sort()).toEqual([1, 1, 2, 2]);
    engine().circuitBaseMs = 30_000;
  }, 90_000);

  it('hands the handlers of recorded audit events the event with the id it was stored under', async () => {
    const org = await createOrganisation(t());
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    const audit = t().app.get(AuditService);
    const seen: number[] = [];
    const handler = ({ record, item }: AuditRecorded) => {
      if (record.summary === 'hooked') seen.push(item.id);
    };
    const emitter = t().app.get(EventEmitter2);
    emitter.on(AUDIT_RECORDED, handler);
    try {
      await audit.manager.transaction((tx) =>
        audit.record(tx, { type: 'LOGO_SAVED', actor: admin, summary: 'hooked' }),
      );
    } finally {
      emitter.off(AUDIT_RECORDED, handler);
    }
    const stored = await t()
      .db.getRepository(AuditEvent)
      .findOneByOrFail({ summary: 'hooked', organisationId: org.id });
    expect(seen).toEqual([stored.id]);
  });

  // Last: it stops this app's engine.
  it('at shutdown an attempt under way stops, and its delivery is released uncounted for the next start', async () => {
    const { endpoint, path } = await endpointWith(1);
    rx.answer(path, { hang: true });
    await deliveries().update({ endpointId: endpoint.id }, { nextAttemptAt: new Date() });
    void engine().kick();
    await rx.waitFor(path, 1);
    const started = Date.now();
    await engine().onModuleDestroy();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await deliveries().findOneByOrFail({ endpointId: endpoint.id })).toMatchObject({
      status: 'pending',
      attempts: 0,
      claimedBy: null,
      claimedUntil: null,
    });
  });
});

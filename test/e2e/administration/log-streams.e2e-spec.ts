import request from 'supertest';
import { In } from 'typeorm';
import { AuditService } from '../../../src/platform/audit/audit.service';
import { IntegrationDelivery } from '../../../src/administration/integrations/entities/integration-delivery.entity';
import { LogStream } from '../../../src/administration/integrations/entities/log-stream.entity';
import { AUDIT_EVENT_TYPES } from '../../../src/shared/audit';
import { INTEGRATION_MESSAGES } from '../../../src/shared/administration/integrations';
import { encrypt } from '../../../src/platform/crypto/secrets';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createUser, login } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { ageSession } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';
import { eventually, WebhookReceiver } from '../../utils/servers/webhook-receiver';

interface StreamItem {
  id: number;
  type: string;
  url: string;
  organisationId: number | null;
  createdAt: string;
  lastDeliveredAt: string | null;
  lastError: string | null;
}

/** Audit log streams (docs/integrations.md): Splunk HEC, Datadog and plain HTTP receivers of the audit trail. */
describe('Audit log streams: /api/log-streams', () => {
  let t: TestApp;
  let m: RoleMatrix;
  let rx: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
    m = await createRoleMatrix(t);
    rx = await new WebhookReceiver().start();
  });
  // Each test starts under the limit of streams: what earlier tests added is cleared.
  afterEach(async () => {
    const ids = (await t.db.getRepository(LogStream).find({ select: ['id'] })).map((s) => s.id);
    if (ids.length === 0) return;
    await t.db.getRepository(IntegrationDelivery).delete({ streamId: In(ids) });
    await t.db.getRepository(LogStream).delete({ id: In(ids) });
  });
  afterAll(async () => {
    await rx.stop();
    await t.close();
  });

  const http = () => request(t.http);
  const admin = () => m.byRole.SITE_ADMIN.session.auth;
  let n = 0;
  const TOKEN = 'receiver-token-0123456789';
  const stream = async (type: string, auth = admin(), query = '') => {
    const path = `/stream-${n++}`;
    const res = await http()
      .post(`/api/log-streams${query}`)
      .set(auth)
      .send({ type, url: `${rx.url}${path}`, token: TOKEN })
      .expect(201);
    return { path, ...(res.body as StreamItem) };
  };
  const listed = async (id: number, auth = admin(), query = '') =>
    ((await http().get(`/api/log-streams${query}`).set(auth).expect(200)).body as StreamItem[]).find(
      (s) => s.id === id,
    );
  /** An audited change in `org`: a user's role changed by its site admin. */
  const auditSomething = async (auth = admin(), org = m.org) => {
    const user = await createUser(t, org, { roleId: Role.VIEWER });
    await http()
      .put('/api/users/updateRole')
      .set(auth)
      .send({ userId: user.id, newUserRoleIds: [Role.ANALYST] })
      .expect(200);
    return user;
  };

  it('refuses every route without a signed-in user (401)', async () => {
    await http().get('/api/log-streams').expect(401);
    await http().post('/api/log-streams').send({ type: 'http', url: 'https://x.example', token: 't' }).expect(401);
    await http().delete('/api/log-streams/1').expect(401);
    await http().post('/api/log-streams/1/test').expect(401);
  });

  it('every call: the site admin, or E-Support; every other role 403; another organisation 404', async () => {
    const q = `?organisationId=${m.org.id}`;
    expect(
      await statusesFor(m, (a) =>
        http()
          .post(`/api/log-streams${q}`)
          .set(a.session.auth)
          .send({ type: 'http', url: `${rx.url}/roles`, token: TOKEN }),
      ),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 201));
    expect(await statusesFor(m, (a) => http().get(`/api/log-streams${q}`).set(a.session.auth))).toEqual(
      expected(['E_SUPPORT', 'SITE_ADMIN'], 200),
    );
    const s = await stream('http');
    expect(await statusesFor(m, (a) => http().post(`/api/log-streams/${s.id}/test`).set(a.session.auth))).toEqual(
      expected(['E_SUPPORT', 'SITE_ADMIN'], 200),
    );
    expect(
      await statusesFor(m, async (a) => {
        const fresh = await stream('http');
        return http().delete(`/api/log-streams/${fresh.id}`).set(a.session.auth);
      }),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
    const other = m.otherOrgAdmin.session.auth;
    expectErrorBody(await http().delete(`/api/log-streams/${s.id}`).set(other), 404);
    expectErrorBody(await http().post(`/api/log-streams/${s.id}/test`).set(other), 404);
    expectErrorBody(await http().get(`/api/log-streams${q}`).set(other), 404);
    expect(await listed(s.id, other)).toBeUndefined();
    expect(await t.db.getRepository(LogStream).findOneBy({ id: s.id })).not.toBeNull();
  });

  it('bad input is a 400 with the error body; adding and removing need a recent sign-in', async () => {
    for (const body of [
      { type: 'syslog', url: `${rx.url}/x`, token: TOKEN },
      { type: 'http', url: 'not a url', token: TOKEN },
      { type: 'http', url: `${rx.url}/x`, token: '' },
      { type: 'http', url: `${rx.url}/x` },
      { type: 'http', url: `${rx.url}/x`, token: 't'.repeat(501) },
      { type: 'http', url: `${rx.url}/x`, token: TOKEN, organisationId: 3 },
    ])
      expectErrorBody(await http().post('/api/log-streams').set(admin()).send(body), 400);
    const actor = await createUser(t, m.org, { roleId: Role.SITE_ADMIN });
    const s = await login(t, actor.email);
    const made = await stream('http', s.auth);
    await ageSession(t, s, 24 * 60);
    for (const res of [
      await http()
        .post('/api/log-streams')
        .set(s.auth)
        .send({ type: 'http', url: `${rx.url}/y`, token: TOKEN }),
      await http().delete(`/api/log-streams/${made.id}`).set(s.auth),
    ]) {
      expectErrorBody(res, 403);
      expect(res.body.code).toBe('STEP_UP_REQUIRED');
    }
  });

  it('a token with a line break is refused (400), and one stored before is never echoed', async () => {
    const secret = 'leaky-token-0123456789';
    for (const token of [`${secret}\r\nX-Injected: 1`, `${secret}\nX`, `Bearer ${secret}`, `${secret}\u0000`]) {
      const res = await http()
        .post('/api/log-streams')
        .set(admin())
        .send({ type: 'http', url: `${rx.url}/crlf`, token });
      expectErrorBody(res, 400);
      expect(res.body.message).toBe(INTEGRATION_MESSAGES.STREAM_TOKEN_CHARACTERS);
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    expect(await t.db.getRepository(LogStream).countBy({ url: `${rx.url}/crlf` })).toBe(0);
    // A pasted token's surrounding white space is not part of it.
    const pasted = await http()
      .post('/api/log-streams')
      .set(admin())
      .send({ type: 'http', url: `${rx.url}/pasted-${n++}`, token: ` ${TOKEN}\n` })
      .expect(201);
    await http().post(`/api/log-streams/${pasted.body.id}/test`).set(admin()).expect(200);
    const [sent] = await rx.waitFor(new URL(pasted.body.url).pathname, 1);
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);

    // A stream stored with such a token before it was refused: neither the test's answer nor lastError quotes it.
    for (const type of ['http', 'splunk-hec', 'datadog'] as const) {
      const path = `/old-crlf-${n++}`;
      const row = await t.db.getRepository(LogStream).save({
        organisationId: m.org.id,
        type,
        url: `${rx.url}${path}`,
        tokenSealed: encrypt(`${secret}\r\nX-Injected: 1`, t.config.encryptionKey),
        createdBy: null,
        lastDeliveredAt: null,
        lastError: null,
      });
      const test = await http().post(`/api/log-streams/${row.id}/test`).set(admin()).expect(200);
      expect(test.body).toMatchObject({
        success: false,
        statusCode: null,
        error: expect.stringContaining('BAD_HEADER'),
      });
      expect(JSON.stringify(test.body)).not.toContain(secret);
      await auditSomething();
      const failing = await eventually(
        () => listed(row.id),
        (i) => !!i?.lastError,
      );
      expect(failing!.lastError).toContain('BAD_HEADER');
      expect(failing!.lastError).not.toContain(secret);
      const stored = await t.db.getRepository(IntegrationDelivery).findBy({ streamId: row.id });
      expect(stored.length).toBeGreaterThan(0);
      for (const d of stored) expect(d.lastError ?? '').not.toContain(secret);
      expect(rx.on(path)).toHaveLength(0);
    }
  });

  it('the token is stored encrypted and never returned', async () => {
    const s = await stream('splunk-hec');
    expect(s).toEqual({
      id: s.id,
      path: s.path,
      type: 'splunk-hec',
      url: `${rx.url}${s.path}`,
      organisationId: m.org.id,
      createdAt: expect.any(String),
      lastDeliveredAt: null,
      lastError: null,
    });
    expect(JSON.stringify(await http().get('/api/log-streams').set(admin()))).not.toContain(TOKEN);
    const row = await t.db.getRepository(LogStream).findOneByOrFail({ id: s.id });
    expect(row.tokenSealed).not.toContain(TOKEN);
  });

  it('http: Bearer token, one event a line (application/x-ndjson), as GET /api/audit-events lists it', async () => {
    const s = await stream('http');
    const user = await auditSomething();
    const [r] = await rx.waitFor(s.path, 1);
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers['content-type']).toBe('application/x-ndjson');
    const lines = r.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const listedEvents = (
      await http().get('/api/audit-events').set(admin()).query({ targetId: user.id, pageSize: 25 }).expect(200)
    ).body.items as Array<Record<string, unknown>>;
    const roleChange = listedEvents.find((e) => e.type === 'ROLE_CHANGED')!;
    expect(lines).toContainEqual(roleChange);
    const item = await eventually(
      () => listed(s.id),
      (i) => !!i?.lastDeliveredAt,
    );
    expect(item!.lastError).toBeNull();
  });

  it('splunk-hec: Authorization Splunk, {time, sourcetype, event} per event', async () => {
    const s = await stream('splunk-hec');
    await auditSomething();
    const [r] = await rx.waitFor(s.path, 1);
    expect(r.headers.authorization).toBe(`Splunk ${TOKEN}`);
    const objects = r.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { time: number; sourcetype: string; event: { occurredAt: string; type: string } });
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) {
      expect(o.sourcetype).toBe('tax-portal:audit');
      expect(o.time).toBe(Date.parse(o.event.occurredAt) / 1000);
    }
    expect(objects.map((o) => o.event.type)).toContain('ROLE_CHANGED');
  });

  it('datadog: DD-API-KEY, a JSON array of {ddsource, service, message, …the event}', async () => {
    const s = await stream('datadog');
    await auditSomething();
    const [r] = await rx.waitFor(s.path, 1);
    expect(r.headers['dd-api-key']).toBe(TOKEN);
    const logs = JSON.parse(r.body) as Array<Record<string, unknown>>;
    const role = logs.find((l) => l.type === 'ROLE_CHANGED')!;
    expect(role).toMatchObject({
      ddsource: 'tax-portal',
      service: 'tax-portal',
      message: AUDIT_EVENT_TYPES.ROLE_CHANGED,
      organisationId: m.org.id,
      id: expect.any(Number),
      occurredAt: expect.any(String),
    });
  });

  it('only its own organisation; an E-Support stream without organisationId hears every organisation', async () => {
    const own = await stream('http');
    const everyone = await stream('http', m.byRole.E_SUPPORT.session.auth);
    expect(everyone.organisationId).toBeNull();
    expect(await listed(everyone.id, m.byRole.E_SUPPORT.session.auth)).toBeDefined();
    expect(await listed(everyone.id)).toBeUndefined();
    expectErrorBody(await http().delete(`/api/log-streams/${everyone.id}`).set(admin()), 404);
    const otherUser = await auditSomething(m.otherOrgAdmin.session.auth, m.otherOrg);
    await auditSomething();
    const lines = async (path: string) =>
      rx
        .on(path)
        .flatMap((r) => r.body.trim().split('\n'))
        .map((l) => JSON.parse(l) as { organisationId: number | null; targetId: number | null });
    await eventually(
      () => lines(everyone.path),
      (ls) => ls.some((l) => l.targetId === otherUser.id) && ls.some((l) => l.organisationId === m.org.id),
    );
    await rx.waitFor(own.path, 1);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await lines(own.path)).every((l) => l.organisationId === m.org.id)).toBe(true);
  });

  it('batches of at most 100, each event once, within 10 s', async () => {
    const s = await stream('http');
    const started = Date.now();
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser(t, m.org, { roleId: Role.VIEWER })));
    // 12 role changes, each with its audit event, in parallel; and 150 events written straight into the trail.
    const results = await Promise.all(
      users.map((u) =>
        http()
          .put('/api/users/updateRole')
          .set(admin())
          .send({ userId: u.id, newUserRoleIds: [Role.ANALYST] }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(users.map(() => 200));
    const audit = t.app.get(AuditService);
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 150; i++)
        await audit.record(tx, { type: 'LOGO_SAVED', actor: m.byRole.SITE_ADMIN.user, summary: `Logo ${i}` });
    });
    const ids = async () =>
      rx
        .on(s.path)
        .flatMap((r) => r.body.trim().split('\n'))
        .map((l) => JSON.parse(l) as { id: number; type: string });
    const all = await eventually(ids, (es) => es.filter((e) => e.type === 'LOGO_SAVED').length >= 150, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 1500));
    const final = await ids();
    expect(new Set(final.map((e) => e.id)).size).toBe(final.length);
    expect(final.filter((e) => e.type === 'ROLE_CHANGED')).toHaveLength(12);
    for (const r of rx.on(s.path)) expect(r.body.trim().split('\n').length).toBeLessThanOrEqual(100);
    expect(all.length).toBeGreaterThanOrEqual(162);
  });

  it('a failing receiver: lastError shown, retried, then delivered; test answers how the receiver took it', async () => {
    const path = `/flaky-stream-${n++}`;
    rx.answer(path, { status: 503, body: 'busy' }, { status: 200 });
    const s = (
      await http()
        .post('/api/log-streams')
        .set(admin())
        .send({ type: 'http', url: `${rx.url}${path}`, token: TOKEN })
        .expect(201)
    ).body as StreamItem;
    await auditSomething();
    const failing = await eventually(
      () => listed(s.id),
      (i) => !!i?.lastError,
    );
    expect(failing!.lastError).toBe('HTTP 503: busy');
    await rx.waitFor(path, 2);
    const recovered = await eventually(
      () => listed(s.id),
      (i) => !!i?.lastDeliveredAt && i.lastError === null,
    );
    expect(recovered).toBeDefined();
    expect(rx.on(path)[1].body).toBe(rx.on(path)[0].body);

    const test = await http().post(`/api/log-streams/${s.id}/test`).set(admin()).expect(200);
    expect(test.body).toEqual({ success: true, statusCode: 200, error: null });
    rx.answer(path, { status: 401, body: 'bad token' });
    const refused = await http().post(`/api/log-streams/${s.id}/test`).set(admin()).expect(200);
    expect(refused.body).toEqual({ success: false, statusCode: 401, error: 'HTTP 401: bad token' });
  });
});

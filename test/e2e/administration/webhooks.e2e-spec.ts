import request from 'supertest';
import { In } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { AuditService } from '../../../src/platform/audit/audit.service';
import { decrypt } from '../../../src/platform/crypto/secrets';
import { IntegrationDelivery } from '../../../src/administration/integrations/entities/integration-delivery.entity';
import { WebhookEndpoint } from '../../../src/administration/integrations/entities/webhook-endpoint.entity';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { SessionLifetimeService } from '../../../src/identity/sessions/session-lifetime.service';
import { Role } from '../../../src/shared/roles';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { lastMailTo } from '../../utils/outbox';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { provisioningToken, scimClient, scimUser } from '../../utils/identity-providers/scim';
import { ageSession } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';
import { eventually, ReceivedRequest, WebhookReceiver } from '../../utils/servers/webhook-receiver';

/** Signed webhooks (docs/integrations.md): endpoints, Standard Webhooks signatures, the outbox and its retries. */
describe('Webhooks: /api/webhooks', () => {
  let t: TestApp;
  let m: RoleMatrix;
  let rx: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
    m = await createRoleMatrix(t);
    rx = await new WebhookReceiver().start();
  });
  // Each test starts under the organisation's endpoint limit: what earlier tests added is cleared.
  afterEach(async () => {
    const ids = (await t.db.getRepository(WebhookEndpoint).find({ select: ['id'] })).map((e) => e.id);
    if (ids.length === 0) return;
    await t.db.getRepository(IntegrationDelivery).delete({ endpointId: In(ids) });
    await t.db.getRepository(WebhookEndpoint).delete({ id: In(ids) });
  });
  afterAll(async () => {
    await rx.stop();
    await t.close();
  });

  const http = () => request(t.http);
  const admin = () => m.byRole.SITE_ADMIN.session.auth;
  let n = 0;
  /** A fresh receiver path, and an endpoint on it. */
  const endpoint = async (events: string[] = ['*'], auth = admin(), query = '') => {
    const path = `/hook-${n++}`;
    const res = await http()
      .post(`/api/webhooks${query}`)
      .set(auth)
      .send({ url: `${rx.url}${path}`, events, description: `Endpoint ${n}` })
      .expect(201);
    return { path, ...(res.body as { id: number; secret: string; url: string; events: string[]; enabled: boolean }) };
  };
  const deliveries = async (id: number) =>
    (await http().get(`/api/webhooks/${id}/deliveries`).set(admin()).expect(200)).body as Array<{
      id: number;
      eventId: string;
      type: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      nextAttemptAt: string | null;
    }>;
  const verify = (secret: string, r: ReceivedRequest) =>
    new Webhook(secret).verify(r.body, {
      'webhook-id': r.headers['webhook-id'] as string,
      'webhook-timestamp': r.headers['webhook-timestamp'] as string,
      'webhook-signature': r.headers['webhook-signature'] as string,
    }) as { type: string; timestamp: string; data: Record<string, unknown> };
  const verifies = (secret: string, r: ReceivedRequest) => {
    try {
      verify(secret, r);
      return true;
    } catch {
      return false;
    }
  };
  const addUser = async (email: string) =>
    (await http().post('/api/users/add').set(admin()).send({ userEmail: email }).expect(201)).body as { id: number };

  it('refuses every route without a signed-in user (401)', async () => {
    await http().get('/api/webhooks').expect(401);
    await http()
      .post('/api/webhooks')
      .send({ url: 'https://example.com', events: ['*'] })
      .expect(401);
    await http().put('/api/webhooks/1').send({}).expect(401);
    await http().delete('/api/webhooks/1').expect(401);
    await http().post('/api/webhooks/1/rotate-secret').expect(401);
    await http().post('/api/webhooks/1/test').expect(401);
    await http().get('/api/webhooks/1/deliveries').expect(401);
    await http().post('/api/webhooks/1/deliveries/1/retry').expect(401);
  });

  it('every call: the site admin, or E-Support naming the organisation; every other role 403', async () => {
    const q = `?organisationId=${m.org.id}`;
    expect(
      await statusesFor(m, (a) =>
        http()
          .post(`/api/webhooks${q}`)
          .set(a.session.auth)
          .send({ url: `${rx.url}/roles`, events: ['user.created'] }),
      ),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 201));
    expect(await statusesFor(m, (a) => http().get(`/api/webhooks${q}`).set(a.session.auth))).toEqual(
      expected(['E_SUPPORT', 'SITE_ADMIN'], 200),
    );
    const e = await endpoint(['user.created']);
    const calls: Array<(auth: Record<string, string>) => request.Test> = [
      (auth) => http().put(`/api/webhooks/${e.id}`).set(auth).send({ description: 'x' }),
      (auth) => http().post(`/api/webhooks/${e.id}/rotate-secret`).set(auth),
      (auth) => http().post(`/api/webhooks/${e.id}/test`).set(auth),
      (auth) => http().get(`/api/webhooks/${e.id}/deliveries`).set(auth),
    ];
    for (const call of calls) {
      const statuses = await statusesFor(m, (a) => call(a.session.auth));
      for (const [role, status] of Object.entries(statuses))
        expect([role, status >= 200 && status < 300]).toEqual([role, role === 'E_SUPPORT' || role === 'SITE_ADMIN']);
    }
    expect(
      await statusesFor(m, async (a) => {
        const fresh = await endpoint(['user.created']);
        return http().delete(`/api/webhooks/${fresh.id}`).set(a.session.auth);
      }),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
  });

  it("another organisation's endpoints, deliveries and organisation are a 404, and nothing changes", async () => {
    const e = await endpoint(['user.created']);
    const other = m.otherOrgAdmin.session.auth;
    expectErrorBody(await http().put(`/api/webhooks/${e.id}`).set(other).send({ enabled: false }), 404);
    expectErrorBody(await http().delete(`/api/webhooks/${e.id}`).set(other), 404);
    expectErrorBody(await http().post(`/api/webhooks/${e.id}/rotate-secret`).set(other), 404);
    expectErrorBody(await http().post(`/api/webhooks/${e.id}/test`).set(other), 404);
    expectErrorBody(await http().get(`/api/webhooks/${e.id}/deliveries`).set(other), 404);
    expectErrorBody(await http().post(`/api/webhooks/${e.id}/deliveries/1/retry`).set(other), 404);
    expectErrorBody(await http().get(`/api/webhooks?organisationId=${m.org.id}`).set(other), 404);
    expectErrorBody(
      await http()
        .post(`/api/webhooks?organisationId=${m.org.id}`)
        .set(other)
        .send({ url: `${rx.url}/x`, events: ['*'] }),
      404,
    );
    const list = (await http().get('/api/webhooks').set(other).expect(200)).body as Array<{ id: number }>;
    expect(list.map((i) => i.id)).not.toContain(e.id);
    expect(await t.db.getRepository(WebhookEndpoint).findOneBy({ id: e.id })).toMatchObject({ enabled: true });
  });

  it('bad input is a 400 with the error body', async () => {
    const bad = [
      { url: 'not a url', events: ['*'] },
      { url: 'ftp://example.com/hook', events: ['*'] },
      { url: 'https://user:pass@example.com/hook', events: ['*'] },
      { url: 'https://example.com/hook', events: [] },
      { url: 'https://example.com/hook', events: ['user.exploded'] },
      { url: 'https://example.com/hook', events: 'user.created' },
      { url: 'https://example.com/hook' },
      { events: ['*'] },
      { url: `https://example.com/${'a'.repeat(2100)}`, events: ['*'] },
      { url: 'https://example.com/hook', events: ['*'], description: 'd'.repeat(201) },
      { url: 'https://example.com/hook', events: ['*'], secret: 'mine' },
    ];
    for (const body of bad) expectErrorBody(await http().post('/api/webhooks').set(admin()).send(body), 400);
    const e = await endpoint();
    expectErrorBody(await http().put(`/api/webhooks/${e.id}`).set(admin()).send({ enabled: 'yes' }), 400);
    expectErrorBody(
      await http()
        .put(`/api/webhooks/${e.id}`)
        .set(admin())
        .send({ events: ['nope'] }),
      400,
    );
    expectErrorBody(await http().put('/api/webhooks/abc').set(admin()).send({}), 400);
  });

  it('creating, changing, removing and rotating need a recent sign-in (step-up), and are audited', async () => {
    const actor = await createUser(t, m.org, { roleId: Role.SITE_ADMIN });
    const s = await login(t, actor.email);
    const e = await endpoint(['*'], s.auth);
    await ageSession(t, s, 24 * 60);
    for (const res of [
      await http()
        .post('/api/webhooks')
        .set(s.auth)
        .send({ url: `${rx.url}/x`, events: ['*'] }),
      await http().put(`/api/webhooks/${e.id}`).set(s.auth).send({ description: 'later' }),
      await http().post(`/api/webhooks/${e.id}/rotate-secret`).set(s.auth),
      await http().delete(`/api/webhooks/${e.id}`).set(s.auth),
    ]) {
      expectErrorBody(res, 403);
      expect(res.body.code).toBe('STEP_UP_REQUIRED');
    }
    // Not sensitive: the test event and the delivery log.
    await http().post(`/api/webhooks/${e.id}/test`).set(s.auth).expect(202);
    await http().get(`/api/webhooks/${e.id}/deliveries`).set(s.auth).expect(200);
    const types = (await t.db.getRepository(AuditEvent).findBy({ actorId: actor.id })).map((a) => a.type);
    expect(types).toContain('WEBHOOK_CREATED');
  });

  it('the secret is whsec_ and 32 random bytes, shown once, stored encrypted, never listed', async () => {
    const e = await endpoint(['user.created']);
    expect(e.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(e.secret.slice(6), 'base64')).toHaveLength(32);
    const list = (await http().get('/api/webhooks').set(admin()).expect(200)).body as Array<Record<string, unknown>>;
    const item = list.find((i) => i.id === e.id)!;
    expect(item).toEqual({
      id: e.id,
      url: `${rx.url}${e.path}`,
      events: ['user.created'],
      description: expect.any(String),
      enabled: true,
      organisationId: m.org.id,
      createdAt: expect.any(String),
      disabledReason: null,
    });
    const row = await t.db.getRepository(WebhookEndpoint).findOneByOrFail({ id: e.id });
    expect(row.secretSealed).not.toContain(e.secret.slice(6, 20));
    const audit = await t.db.getRepository(AuditEvent).findBy({ type: 'WEBHOOK_CREATED' });
    expect(JSON.stringify(audit)).not.toContain(e.secret.slice(6, 20));
    // A key in the receiver's query string stays out of the audit trail (the list still shows the whole URL).
    const keyed = await http()
      .post('/api/webhooks')
      .set(admin())
      .send({ url: `${rx.url}/keyed?key=query-secret-123`, events: ['*'] })
      .expect(201);
    expect(keyed.body.url).toBe(`${rx.url}/keyed?key=query-secret-123`);
    await http()
      .put(`/api/webhooks/${keyed.body.id}`)
      .set(admin())
      .send({ url: `${rx.url}/keyed?key=query-secret-456` })
      .expect(200);
    const trail = await t.db.getRepository(AuditEvent).findBy({ type: In(['WEBHOOK_CREATED', 'WEBHOOK_CHANGED']) });
    expect(trail.map((a) => a.summary)).toContain(`Webhook endpoint ${rx.url}/keyed added`);
    expect(JSON.stringify(trail)).not.toMatch(/query-secret/);
  });

  it('a user created on the page arrives once, signed (Standard Webhooks), with the user fields', async () => {
    const e = await endpoint(['user.created']);
    const email = `hooked-${Date.now()}@example.com`;
    const { id } = await addUser(email);
    const [r] = await rx.waitFor(e.path);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const body = verify(e.secret, r);
    expect(body).toEqual({
      type: 'user.created',
      timestamp: expect.any(String),
      data: {
        organisationId: m.org.id,
        actor: { type: 'user', id: m.byRole.SITE_ADMIN.user.id },
        id,
        email,
        firstName: expect.any(String),
        lastName: expect.any(String),
        roles: expect.any(Array),
        active: true,
      },
    });
    // A wrong secret does not verify.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, r)).toThrow();
    await eventually(
      () => deliveries(e.id),
      (d) => d[0]?.status === 'succeeded',
    );
    const [d] = await deliveries(e.id);
    expect(d).toMatchObject({
      type: 'user.created',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
      eventId: r.headers['webhook-id'],
    });
    // Once: nothing more arrives.
    await new Promise((r2) => setTimeout(r2, 1500));
    expect(rx.on(e.path)).toHaveLength(1);
  });

  it('only subscribed events, only its own organisation; SCIM and access changes arrive once each', async () => {
    const e = await endpoint(['user.created', 'user.deactivated']);
    const others = await endpoint(['*'], m.otherOrgAdmin.session.auth);
    const { id } = await addUser(`access-${Date.now()}@example.com`);
    await http().put('/api/users/disableUser').set(admin()).send({ userId: id, isDisabled: true }).expect(200);
    const scim = scimClient(t, (await provisioningToken(t, m.org, 'Directory', admin())).token);
    const scimEmail = `scim-${Date.now()}@example.com`;
    expect((await scim.post('/Users', scimUser(scimEmail))).status).toBe(201);
    const got = await rx.waitFor(e.path, 3);
    await new Promise((r) => setTimeout(r, 1500));
    const bodies = rx.on(e.path).map((r) => verify(e.secret, r));
    expect(bodies.map((b) => [b.type, b.data.email ?? null])).toEqual(
      expect.arrayContaining([
        ['user.created', expect.stringContaining('access-')],
        ['user.deactivated', expect.stringContaining('access-')],
        ['user.created', scimEmail],
      ]),
    );
    expect(got).toHaveLength(3);
    expect(bodies.find((b) => b.data.email === scimEmail)!.data.actor).toEqual({
      type: 'scim',
      id: expect.any(Number),
    });
    // The other organisation's endpoint heard none of it.
    expect(rx.on(others.path)).toHaveLength(0);
  });

  it('sign-ins, failed sign-ins and log-offs arrive as session and sign_in events', async () => {
    const e = await endpoint(['session.started', 'session.ended', 'sign_in.failed']);
    const user = await createUser(t, m.org, { roleId: Role.VIEWER });
    await http()
      .post('/auth/login')
      .send({ username: user.email, password: 'Wrong-Password-1', acceptToS: true })
      .expect(401);
    const s = await login(t, user.email);
    await http().post('/auth/logout').set(s.auth);
    const got = await rx.waitFor(e.path, 3);
    const bodies = got.map((r) => verify(e.secret, r));
    expect(bodies.map((b) => b.type).sort()).toEqual(['session.ended', 'session.started', 'sign_in.failed']);
    for (const b of bodies)
      expect(b.data).toMatchObject({ organisationId: m.org.id, userId: user.id, email: user.email });
  });

  it('a session the security policy ends arrives as session.ended from the system, once, to its organisation alone', async () => {
    const org = await createOrganisation(t);
    const user = await createUser(t, org, { roleId: Role.VIEWER });
    await login(t, user.email);
    await t.db.getRepository(Organisation).update({ id: org.id }, { sessionIdleMinutes: 5 });
    const e = await endpoint(['session.ended'], m.byRole.E_SUPPORT.session.auth, `?organisationId=${org.id}`);
    const others = await endpoint(['session.ended']);
    const lifetime = t.app.get(SessionLifetimeService);
    // Two instances' sweeps at once: the session ends once, and is told once.
    const at = Date.now() + 6 * 60_000;
    const swept = await Promise.all([lifetime.sweep(at), lifetime.sweep(at)]);
    expect(swept.reduce((a, b) => a + b, 0)).toBe(1);
    const [r] = await rx.waitFor(e.path);
    expect(verify(e.secret, r)).toEqual({
      type: 'session.ended',
      timestamp: expect.any(String),
      data: {
        organisationId: org.id,
        actor: { type: 'system', id: null },
        userId: user.id,
        email: user.email,
        summary: expect.stringContaining('security policy'),
      },
    });
    await new Promise((r2) => setTimeout(r2, 1500));
    expect(rx.on(e.path)).toHaveLength(1);
    expect(rx.on(others.path)).toHaveLength(0);
  });

  it('parallel changes: one delivery each, delivered once', async () => {
    const e = await endpoint(['user.created']);
    const emails = Array.from({ length: 6 }, (_, i) => `parallel-${i}-${Date.now()}@example.com`);
    const results = await Promise.all(
      emails.map((email) => http().post('/api/users/add').set(admin()).send({ userEmail: email })),
    );
    expect(results.map((r) => r.status)).toEqual(emails.map(() => 201));
    await rx.waitFor(e.path, emails.length);
    await new Promise((r) => setTimeout(r, 1500));
    const received = rx.on(e.path).map((r) => verify(e.secret, r).data.email);
    expect(received.sort()).toEqual([...emails].sort());
    expect(await t.db.getRepository(IntegrationDelivery).countBy({ endpointId: e.id })).toBe(emails.length);
  });

  it('at most 20 endpoints per organisation, held under parallel additions; parallel rotations leave one secret', async () => {
    const results = await Promise.all(
      Array.from({ length: 26 }, (_, i) =>
        http()
          .post('/api/webhooks')
          .set(admin())
          .send({ url: `${rx.url}/limit-${i}`, events: ['webhook.test'] }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    for (const r of results.filter((x) => x.status !== 201)) {
      expectErrorBody(r, 409);
      expect(r.body.message).toContain('at most 20');
    }
    expect(await t.db.getRepository(WebhookEndpoint).countBy({ organisationId: m.org.id })).toBe(20);
    // The other organisation's count is its own.
    await http()
      .post('/api/webhooks')
      .set(m.otherOrgAdmin.session.auth)
      .send({ url: `${rx.url}/other`, events: ['*'] })
      .expect(201);

    const id = (results.find((r) => r.status === 201)!.body as { id: number }).id;
    const path = `/limit-${results.findIndex((r) => r.body.id === id)}`;
    const rotations = await Promise.all(
      Array.from({ length: 4 }, () => http().post(`/api/webhooks/${id}/rotate-secret`).set(admin())),
    );
    const secrets = rotations.filter((r) => r.status === 200).map((r) => r.body.secret as string);
    expect(secrets.length).toBeGreaterThan(0);
    for (const r of rotations.filter((x) => x.status !== 200)) expectErrorBody(r, 409);
    await http().post(`/api/webhooks/${id}/test`).set(admin()).expect(202);
    const [got] = await rx.waitFor(path, 1);
    // Signed by the secret now stored (one of those handed out) and the one before it.
    expect((got.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    const row = await t.db.getRepository(WebhookEndpoint).findOneByOrFail({ id });
    const current = decrypt(row.secretSealed, t.config.encryptionKey);
    expect(secrets).toContain(current);
    expect(verifies(current, got)).toBe(true);
  });

  it('the delivery is written with the change: a rolled-back change leaves none', async () => {
    const e = await endpoint(['session.started']);
    const audit = t.app.get(AuditService);
    const user = await createUser(t, m.org, { roleId: Role.VIEWER });
    const event = { type: 'SIGN_IN_SUCCEEDED' as const, actor: user, target: user, summary: 'Signed in' };
    await expect(
      t.db.transaction(async (tx) => {
        await audit.record(tx, event);
        expect(await tx.getRepository(IntegrationDelivery).countBy({ endpointId: e.id })).toBe(1);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await t.db.getRepository(IntegrationDelivery).countBy({ endpointId: e.id })).toBe(0);
    await t.db.transaction((tx) => audit.record(tx, event));
    expect(await t.db.getRepository(IntegrationDelivery).countBy({ endpointId: e.id })).toBe(1);
    await rx.waitFor(e.path, 1);
  });

  it('a receiver that fails, then succeeds: retried on the schedule with the same webhook-id', async () => {
    const path = `/flaky-${n++}`;
    rx.answer(path, { status: 500, body: '<b>down</b> for maintenance' }, { status: 200 });
    const e = (
      await http()
        .post('/api/webhooks')
        .set(admin())
        .send({ url: `${rx.url}${path}`, events: ['*'] })
        .expect(201)
    ).body as { id: number; secret: string };
    await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
    const [first] = await rx.waitFor(path, 1);
    const failed = await eventually(
      () => deliveries(e.id),
      (d) => d[0]?.attempts === 1,
    );
    expect(failed[0]).toMatchObject({ status: 'pending', lastStatusCode: 500, nextAttemptAt: expect.any(String) });
    expect(failed[0].lastError).toBe('HTTP 500: &#60;b&#62;down&#60;/b&#62; for maintenance');
    const [, second] = await rx.waitFor(path, 2);
    expect(second.at - first.at).toBeGreaterThanOrEqual(900);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verify(e.secret, second).type).toBe('webhook.test');
    const done = await eventually(
      () => deliveries(e.id),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(done[0]).toMatchObject({ attempts: 2, lastStatusCode: 200, lastError: null });
  });

  it('a redirect is not followed and fails; after the last attempt the delivery is failed; retry sends again', async () => {
    const target = `/redirect-target-${n}`;
    const path = `/redirect-${n++}`;
    rx.answer(path, { status: 302, headers: { location: `${rx.url}${target}` } });
    const e = (
      await http()
        .post('/api/webhooks')
        .set(admin())
        .send({ url: `${rx.url}${path}`, events: ['*'] })
        .expect(201)
    ).body as { id: number };
    await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
    const [d] = await eventually(
      () => deliveries(e.id),
      (ds) => ds[0]?.status === 'failed',
    );
    expect(d).toMatchObject({ attempts: 3, lastStatusCode: 302, nextAttemptAt: null });
    expect(d.lastError).toContain('redirects are not followed');
    expect(rx.on(path)).toHaveLength(3);
    expect(rx.on(target)).toHaveLength(0);
    rx.answer(path, { status: 200 });
    const retried = await http().post(`/api/webhooks/${e.id}/deliveries/${d.id}/retry`).set(admin()).expect(202);
    expect(retried.body).toMatchObject({ id: d.id, status: 'pending' });
    await rx.waitFor(path, 4);
    await eventually(
      () => deliveries(e.id),
      (ds) => ds[0]?.status === 'succeeded',
    );
    expectErrorBody(await http().post(`/api/webhooks/${e.id}/deliveries/999999/retry`).set(admin()), 404);
  });

  it('a 2xx answer of 2 MB is one succeeded delivery, never sent again; one that never comes fails', async () => {
    const bigPath = `/big-${n++}`;
    const big = rx.answer(bigPath, { oversized: true });
    const slow = rx.answer(`/slow-${n++}`, { hang: true });
    const ids: number[] = [];
    for (const url of [big, slow]) {
      const e = (
        await http()
          .post('/api/webhooks')
          .set(admin())
          .send({ url, events: ['*'] })
          .expect(201)
      ).body as {
        id: number;
      };
      await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
      ids.push(e.id);
    }
    const [bigDelivery] = await eventually(
      () => deliveries(ids[0]),
      (d) => d[0]?.attempts >= 1,
    );
    expect(bigDelivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200, lastError: null });
    // Past the first retry's wait (1 s): still the one request.
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.on(bigPath)).toHaveLength(1);
    expect((await deliveries(ids[0]))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    const [slowDelivery] = await eventually(
      () => deliveries(ids[1]),
      (d) => d[0]?.attempts >= 1,
      20_000,
    );
    expect(slowDelivery.lastError).toContain('TIMEOUT');
    expect(slowDelivery.lastStatusCode).toBeNull();
    // Stop the hanging endpoint's retries.
    await http().delete(`/api/webhooks/${ids[1]}`).set(admin()).expect(200);
  }, 40_000);

  it('rotation: both secrets sign for 24 hours, each verifies; after that the new one alone', async () => {
    const e = await endpoint(['webhook.test']);
    const rotated = (await http().post(`/api/webhooks/${e.id}/rotate-secret`).set(admin()).expect(200)).body as {
      secret: string;
      previousSecretValidUntil: string;
    };
    expect(rotated.secret).not.toBe(e.secret);
    const until = Date.parse(rotated.previousSecretValidUntil) - Date.now();
    expect(until).toBeGreaterThan(23.9 * 3_600_000);
    expect(until).toBeLessThanOrEqual(24 * 3_600_000);
    await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
    const [r] = await rx.waitFor(e.path, 1);
    expect((r.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, r).type).toBe('webhook.test');
    expect(verify(e.secret, r).type).toBe('webhook.test');
    await t.db
      .getRepository(WebhookEndpoint)
      .update({ id: e.id }, { previousSecretUntil: new Date(Date.now() - 1000) });
    await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
    const [, later] = await rx.waitFor(e.path, 2);
    expect((later.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verify(rotated.secret, later).type).toBe('webhook.test');
    expect(() => verify(e.secret, later)).toThrow();
    const audit = await t.db.getRepository(AuditEvent).findBy({ type: 'WEBHOOK_SECRET_ROTATED' });
    expect(audit.length).toBeGreaterThan(0);
  });

  it('PUT changes only what it names; a disabled endpoint receives nothing', async () => {
    const e = await endpoint(['user.created']);
    const changed = await http().put(`/api/webhooks/${e.id}`).set(admin()).send({ enabled: false }).expect(200);
    expect(changed.body).toMatchObject({ id: e.id, url: e.url, events: ['user.created'], enabled: false });
    await addUser(`disabled-${Date.now()}@example.com`);
    await new Promise((r) => setTimeout(r, 1200));
    expect(rx.on(e.path)).toHaveLength(0);
    await http()
      .put(`/api/webhooks/${e.id}`)
      .set(admin())
      .send({ enabled: true, events: ['user.updated'] })
      .expect(200);
    const stored = await t.db.getRepository(WebhookEndpoint).findOneByOrFail({ id: e.id });
    expect(JSON.parse(stored.events)).toEqual(['user.updated']);
  });

  it('an endpoint failing for 5 days is disabled and its site admins are e-mailed, once', async () => {
    const path = `/dead-${n++}`;
    rx.answer(path, { status: 503 });
    const e = (
      await http()
        .post('/api/webhooks')
        .set(admin())
        .send({ url: `${rx.url}${path}`, events: ['*'] })
        .expect(201)
    ).body as { id: number };
    await t.db
      .getRepository(WebhookEndpoint)
      .update({ id: e.id }, { failingSince: new Date(Date.now() - 5 * 86_400_000 - 60_000) });
    await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
    await http().post(`/api/webhooks/${e.id}/test`).set(admin()).expect(202);
    const row = await eventually(
      () => t.db.getRepository(WebhookEndpoint).findOneByOrFail({ id: e.id }),
      (r) => !r.enabled,
    );
    expect(row.disabledReason).toContain('5 days');
    const mail = await eventually(
      () => lastMailTo(t.dataDir, m.byRole.SITE_ADMIN.user.email),
      (msg) => !!msg && msg.subject.includes('webhook endpoint'),
    );
    expect(mail!.text).toContain(`${rx.url}${path}`);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'WEBHOOK_DISABLED' })).toBe(1);
    const listed = (await http().get('/api/webhooks').set(admin()).expect(200)).body as Array<{
      id: number;
      enabled: boolean;
    }>;
    expect(listed.find((i) => i.id === e.id)!.enabled).toBe(false);
  });
});

describe('Webhooks without ALLOW_PRIVATE_NETWORKS', () => {
  it('refuses private addresses unless ALLOW_PRIVATE_NETWORKS is set', async () => {
    // An app of its own (after the other's close: passport's strategies are process-wide).
    const strict = await createTestApp({});
    try {
      const org = await createUser(strict, (await createRoleMatrix(strict)).org, { roleId: Role.SITE_ADMIN });
      const auth = (await login(strict, org.email)).auth;
      for (const url of [
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://[::1]/',
        'https://10.0.0.8/h',
        'https://localhost/h',
      ])
        expectErrorBody(
          await request(strict.http)
            .post('/api/webhooks')
            .set(auth)
            .send({ url, events: ['*'] }),
          400,
        );
      await request(strict.http)
        .post('/api/webhooks')
        .set(auth)
        .send({ url: 'https://hooks.example.com/in', events: ['*'] })
        .expect(201);
    } finally {
      await strict.close();
    }
  });
});

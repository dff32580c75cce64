import request from 'supertest';
import { In } from 'typeorm';
import { IntegrationDelivery } from '../../../src/administration/integrations/entities/integration-delivery.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';
import { eventually, WebhookReceiver } from '../../utils/servers/webhook-receiver';

/**
 * The delivery engine shares its slots fairly (docs/integrations.md): an organisation whose receivers never answer
 * holds back no other organisation's webhooks or log streams, which still arrive within the 10 s of log streams.
 */
describe('Deliveries: one organisation cannot hold back another', () => {
  let t: TestApp;
  let rx: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true' });
    rx = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await rx.stop();
    await t.close();
  });

  const http = () => request(t.http);
  const siteAdmin = async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    return { org, session: await login(t, admin.email) };
  };
  const addUser = (s: LoggedIn, email: string) =>
    http().post('/api/users/add').set(s.auth).send({ userEmail: email }).expect(201);

  it("twenty endpoints that never answer: another organisation's webhook and log stream arrive within 10 s", async () => {
    const a = await siteAdmin();
    const b = await siteAdmin();
    const aEndpoints: number[] = [];
    for (let i = 0; i < 20; i++) {
      const url = rx.answer(`/hang-${i}`, { hang: true });
      const res = await http()
        .post('/api/webhooks')
        .set(a.session.auth)
        .send({ url, events: ['user.created'] })
        .expect(201);
      aEndpoints.push(res.body.id);
    }
    await http()
      .post('/api/webhooks')
      .set(b.session.auth)
      .send({ url: rx.answer('/b-hook', { status: 204 }), events: ['user.created'] })
      .expect(201);
    await http()
      .post('/api/log-streams')
      .set(b.session.auth)
      .send({ type: 'http', url: rx.answer('/b-stream', { status: 204 }), token: 'receiver-token-0123456789' })
      .expect(201);

    // Three events of A: sixty deliveries to receivers that hang until the 10 s answer limit.
    for (let i = 0; i < 3; i++) await addUser(a.session, `fair-a-${i}-${Date.now()}@example.com`);
    await rx.waitFor('/hang-0', 1);
    const started = Date.now();
    await addUser(b.session, `fair-b-${Date.now()}@example.com`);
    const [hook] = await rx.waitFor('/b-hook', 1, 20_000);
    const stream = await eventually(
      async () => rx.on('/b-stream').find((r) => r.body.includes('"type":"USER_CREATED"')),
      (r) => r !== undefined,
      20_000,
    );
    expect(JSON.parse(hook.body)).toMatchObject({ type: 'user.created', data: { organisationId: b.org.id } });
    expect(hook.at - started).toBeLessThan(10_000);
    expect(stream!.at - started).toBeLessThan(10_000);
    // A's deliveries are still pending (none lost), attempted a few at a time. B's own row may still be between its
    // receipt and its status update, so only A's are counted.
    const aHangs = rx.requests.filter((r) => r.path.startsWith('/hang-')).length;
    expect(aHangs).toBeGreaterThan(0);
    expect(aHangs).toBeLessThanOrEqual(8);
    const pending = await t.db.getRepository(IntegrationDelivery).countBy({
      status: 'pending',
      type: 'user.created',
      endpointId: In(aEndpoints),
    });
    expect(pending).toBe(60);
  }, 60_000);
});

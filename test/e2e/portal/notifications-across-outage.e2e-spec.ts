import { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { NotificationItem, SOCKET_EVENTS } from '../../../src/shared/portal/notifications';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { PrivateRedis, startPrivateRedis } from '../../utils/servers/private-redis';
import { createInstanceBeside, createTestApp, TestApp } from '../../utils/test-app';

const KEY = 'test-service-api-key-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two instances on one database and one Redis (the test's own). While Redis is down the instances cannot tell
 * each other of a notification; once it is back, every socket the notification addresses gets it, on either
 * instance, within seconds, and once.
 */
describe('notifications published while the instances cannot reach each other', () => {
  let redis: PrivateRedis;
  let a: TestApp;
  let b: TestApp;
  const sockets: Socket[] = [];

  const listen = async (t: TestApp) => {
    await t.app.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  };
  let urlA: string;
  let urlB: string;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    a = await createTestApp({ REDIS_URL: redis.url });
    b = await createInstanceBeside(a, { REDIS_URL: redis.url });
    urlA = await listen(a);
    urlB = await listen(b);
  });
  afterAll(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await b?.app.close();
    await a?.close();
    await redis?.stop();
  });

  /** A socket on one instance that counts every notification it receives, copies included. */
  async function socketOn(url: string, token: string) {
    const socket = io(url, { path: '/socket.io', query: { token }, transports: ['websocket'], forceNew: true });
    sockets.push(socket);
    const received: number[] = [];
    socket.on(SOCKET_EVENTS.NOTIFICATION, (n: NotificationItem) => received.push(n.notificationId));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return received;
  }
  const publish = async (on: TestApp, body: object): Promise<number> => {
    const res = await request(on.http).post('/api/notifications').set('X-Api-Key', KEY).send(body).expect(201);
    return res.body.notificationId as number;
  };
  async function until(check: () => boolean, ms: number) {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await sleep(25);
    }
  }
  const content = (message: string) => ({ type: 'OTHER', content: { message } });

  it("delivers what each instance published during the outage to the other one's sockets once Redis is back, once each", async () => {
    const org = await createOrganisation(a);
    const ann = await createUser(a, org);
    const bob = await createUser(a, org);
    const annOnA = await socketOn(urlA, (await login(a, ann.email)).accessToken);
    const bobOnB = await socketOn(urlB, (await login(b, bob.email)).accessToken);

    // Redis up: a notification crosses at once.
    const before = await publish(b, { organisationId: org.id, ...content('before') });
    await until(() => annOnA.includes(before) && bobOnB.includes(before), 3000);

    await redis.kill();
    const forAnnFromB = await publish(b, { userId: ann.id, ...content('for Ann, through B') });
    const forAllFromB = await publish(b, { organisationId: org.id, ...content('for all, through B') });
    const forAllFromA = await publish(a, { organisationId: org.id, ...content('for all, through A') });
    const forBobFromA = await publish(a, { userId: bob.id, ...content('for Bob, through A') });
    // Each instance's own sockets have theirs at once.
    await until(() => annOnA.includes(forAllFromA) && bobOnB.includes(forAllFromB), 3000);
    await sleep(500);
    expect(annOnA).not.toContain(forAnnFromB);
    expect(bobOnB).not.toContain(forBobFromA);

    await redis.start();
    const back = Date.now();
    await until(
      () =>
        [forAnnFromB, forAllFromB, forAllFromA].every((id) => annOnA.includes(id)) &&
        [forBobFromA, forAllFromB, forAllFromA].every((id) => bobOnB.includes(id)),
      10_000,
    );
    expect(Date.now() - back).toBeLessThan(5000);
    // After Redis is back, live delivery again; then nothing arrives twice.
    const after = await publish(a, { organisationId: org.id, ...content('after') });
    await until(() => annOnA.includes(after) && bobOnB.includes(after), 3000);
    await sleep(1000);
    expect(annOnA).toEqual([before, forAllFromA, ...[forAnnFromB, forAllFromB].sort((x, y) => x - y), after]);
    expect(bobOnB).toEqual([before, forAllFromB, ...[forAllFromA, forBobFromA].sort((x, y) => x - y), after]);
  }, 60_000);
});

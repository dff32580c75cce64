import request from 'supertest';
import { MetricsService } from '../../../src/platform/metrics/metrics.service';
import { createOrganisation, createUser, login, PASSWORD } from '../../utils/factories';
import { Role } from '../../../src/shared/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /api/metrics (Prometheus)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // TRUST_PROXY lets a test pose as a remote caller through X-Forwarded-For.
    t = await createTestApp({ METRICS_TOKEN, TRUST_PROXY: 'true' });
  });
  afterAll(() => t.close());

  const scrape = () => request(t.http).get('/api/metrics').expect(200);
  const value = (text: string, series: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${series} `))
        ?.split(' ')[1] ?? NaN,
    );

  it('answers a caller on loopback in the Prometheus text format', async () => {
    const res = await scrape();
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'auth_logins_total',
      'auth_lockouts_total',
      'sessions_active',
      'sockets_connected',
      'notification_deliveries_total',
      'mail_messages_total',
      'db_queue_wait_seconds',
      'process_cpu_seconds_total',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `);
    }
  });

  it('refuses a remote caller without the token, and answers one with it', async () => {
    const remote = () => request(t.http).get('/api/metrics').set('X-Forwarded-For', '203.0.113.9');
    expect((await remote().expect(403)).body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    await remote().set('Authorization', 'Bearer wrong-token-0123456789').expect(403);
    await remote().set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
  });

  it('counts requests by route pattern and status, sign-ins by outcome, lockouts and open sessions', async () => {
    const user = await createUser(t, await createOrganisation(t));
    await request(t.http).get('/api/health').expect(200);
    await request(t.http)
      .post('/auth/login')
      .send({ username: user.email, password: PASSWORD, acceptToS: true })
      .expect(200);
    for (let i = 0; i < 5; i++)
      await request(t.http)
        .post('/auth/login')
        .send({ username: user.email, password: 'Wrong-Pass-1', acceptToS: true });
    await request(t.http).get('/api/userLoginActivities/12345').expect(401);

    const text = (await scrape()).text;
    expect(value(text, 'http_requests_total{method="GET",route="/api/health",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/auth\/login",status="200"\}/,
    );
    expect(value(text, 'auth_logins_total{outcome="success"}')).toBe(1);
    expect(value(text, 'auth_logins_total{outcome="invalid_credentials"}')).toBeGreaterThanOrEqual(4);
    // Five failures of one account from one address lock that pair (docs/decisions/sign-in.md, Throttling).
    expect(value(text, 'auth_lockouts_total{scope="pair"}')).toBe(1);
    expect(value(text, 'sessions_active')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'http_requests_total{method="GET",route="/api/userLoginActivities/:userId",status="401"}')).toBe(
      1,
    );
    // No label carries the id of the path (a figure such as a GC duration may hold the digits by chance).
    expect(text).not.toMatch(/="[^"]*12345[^"]*"/);
  });

  it('exposes the database wait hook', async () => {
    t.app.get(MetricsService).observeDbWait(0.002);
    expect(value((await scrape()).text, 'db_queue_wait_seconds_count')).toBeGreaterThanOrEqual(1);
  });
});

describe('on every answer: its request id (X-Request-Id) and the security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers every request with its id: the caller's when it looks like one, a new one otherwise", async () => {
    const given = await request(t.http).get('/api/health').set('X-Request-Id', 'trace-42').expect(200);
    expect(given.headers['x-request-id']).toBe('trace-42');
    // Refused requests too (the guard answers before any controller), and a malformed id is replaced.
    const refused = await request(t.http).get('/api/users/current').set('X-Request-Id', 'not an id').expect(401);
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await request(t.http).get('/api/health').expect(200);
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(other.headers['x-request-id']).not.toBe(refused.headers['x-request-id']);
  });

  it('answers account data with Cache-Control: no-store (the profile, the user list, the status, a refresh)', async () => {
    const org = await createOrganisation(t);
    const user = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const { auth, cookie } = await login(t, user.email);
    const answers: Array<[string, request.Response]> = [
      ['current', await request(t.http).get('/api/users/current').set(auth).expect(200)],
      ['list', await request(t.http).get('/api/users').set(auth).expect(200)],
      ['status', await request(t.http).get('/auth/status').set(auth).expect(200)],
      ['refresh', await request(t.http).post('/refresh').set('Cookie', cookie).expect(200)],
    ];
    for (const [name, res] of answers) expect([name, res.headers['cache-control']]).toEqual([name, 'no-store']);
  });

  it('sends the security headers (helmet, worked out once) on every answer: a success, a refusal by the guard, an unknown path, a malformed body', async () => {
    const answers = [
      await request(t.http).get('/api/health').expect(200),
      await request(t.http).get('/api/users/current').expect(401),
      await request(t.http).get('/api/no-such-route').expect(404),
      await request(t.http).post('/auth/login').set('Content-Type', 'application/json').send('{').expect(400),
    ];
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      // Only this origin and PUBLIC_URL's websocket (http://portal.test in the tests), never any host.
      expect(res.headers['content-security-policy']).toMatch(/connect-src 'self' ws:\/\/portal\.test(;|$)/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('health: liveness and readiness', () => {
  let t: TestApp;
  afterEach(() => t?.close());

  it('live, ready and the combined check answer 200 when the database answers (no Redis, no SMTP configured)', async () => {
    t = await createTestApp();
    expect((await request(t.http).get('/api/health/live').expect(200)).body).toMatchObject({ status: 'ok' });
    expect((await request(t.http).get('/api/health/ready').expect(200)).body).toMatchObject({
      status: 'ok',
      checks: { database: 'ok', redis: 'skipped', mail: 'skipped' },
    });
    expect((await request(t.http).get('/api/health').expect(200)).body).toMatchObject({ status: 'ok' });
  });

  it('ready answers 503 and names the failing dependency while live stays 200', async () => {
    // Port 9 on loopback: nothing listens there, the connection is refused at once.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9', REDIS_URL: 'redis://127.0.0.1:9' });
    const res = await request(t.http).get('/api/health/ready').expect(503);
    expect(res.body).toMatchObject({
      success: false,
      code: 'NOT_READY',
      checks: { database: 'ok', redis: expect.stringMatching(/^failed: /), mail: expect.stringMatching(/^failed: /) },
    });
    await request(t.http).get('/api/health/live').expect(200);
  });
});

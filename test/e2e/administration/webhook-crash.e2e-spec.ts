import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { buildServer, BuiltServer, startServer, stopServer } from '../../utils/servers/built-server.js';
import { WebhookReceiver } from '../../utils/servers/webhook-receiver';

const SUPPORT_EMAIL = 'hooks-crash@vendor.test';
const SUPPORT_PASSWORD = 'Crash-Hooks-Pass-1';

/** A loopback port nobody listens on (yet): connections to it are refused. */
function unusedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Nothing is lost: deliveries pending when the built server is killed with SIGKILL (its receiver down meanwhile)
 * are delivered after the restart, each exactly once.
 */
describe('Webhook deliveries across kill -9', () => {
  let dataDir: string;
  let mainJs: string;
  let server: BuiltServer | undefined;
  const rx = new WebhookReceiver();
  beforeAll(() => {
    mainJs = buildServer();
    dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-hooks-crash-'));
  }, 300_000);
  afterAll(async () => {
    if (server) await stopServer(server, 'SIGKILL');
    await rx.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = () =>
    startServer(mainJs, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      BOOTSTRAP_SUPPORT_EMAIL: SUPPORT_EMAIL,
      BOOTSTRAP_SUPPORT_PASSWORD: SUPPORT_PASSWORD,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE: Array(10).fill('1s').join(','),
    });
  const signIn = async (base: string) => {
    const res = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: SUPPORT_EMAIL, password: SUPPORT_PASSWORD, acceptToS: true }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { accessToken: string }).accessToken;
  };

  it('delivers after the restart what was pending at the kill, once each', async () => {
    const port = await unusedPort();
    server = await start();
    const token = await signIn(server.base);
    const created = await fetch(`${server.base}/api/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['session.started'] }),
    });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };
    // Five sign-ins, five session.started events; the receiver is down, so each attempt is refused.
    for (let i = 0; i < 5; i++) await signIn(server.base);
    await new Promise((r) => setTimeout(r, 1500));
    await stopServer(server, 'SIGKILL');
    server = undefined;

    await rx.start(port);
    server = await start();
    // The first sign-in above (the webhook's creator) came before the endpoint: 5 events, one delivery each.
    const received = await rx.waitFor('/hook', 5, 60_000);
    await new Promise((r) => setTimeout(r, 2500));
    const ids = rx.on('/hook').map((r) => r.headers['webhook-id'] as string);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    for (const r of received) {
      const body = new Webhook(secret).verify(r.body, {
        'webhook-id': r.headers['webhook-id'] as string,
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      }) as { type: string };
      expect(body.type).toBe('session.started');
    }
  }, 180_000);
});

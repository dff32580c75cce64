import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../../utils/servers/built-server.js';
import {
  request,
  shutdownRounds,
  signIn,
  start,
  SUPPORT_EMAIL,
  SUPPORT_PASSWORD,
} from '../../utils/servers/shutdown-harness.js';

/**
 * SIGTERM, as `docker stop` sends it, to the BUILT server with sign-ins and writes in flight: every request it
 * accepted is answered, readiness says 503 from the first moment, the process exits 0, and every acknowledged
 * write is there after the restart.
 */
describe('Graceful shutdown', () => {
  let mainJs: string;
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tax-portal-shutdown-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(() => {
    mainJs = buildServer();
  }, 120_000);
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('answers every sign-in and write in flight across three SIGTERM rounds, keeps every acknowledged write, exits 0', async () => {
    // A grace period no loaded machine runs out of: this test is about what happens within it.
    const results = await shutdownRounds({
      mainJs,
      dataDir: dataDir(),
      rounds: 3,
      signIns: 40,
      writes: 40,
      env: { SHUTDOWN_GRACE_SECONDS: '120' },
    });
    for (const r of results) {
      // Not vacuous: requests were still running when readiness was asked, after the shutdown had begun.
      expect(r.unansweredAtSignal).toBeGreaterThan(0);
      expect({ round: r.round, statuses: r.statuses }).toEqual({ round: r.round, statuses: { 200: 40, 201: 40 } });
      expect(r.missing).toEqual([]);
      expect(r.readiness).toBe(503);
      expect(r.readinessConnection).toBe('close');
      expect(r.exit).toEqual({ code: 0, signal: null });
    }
  }, 600_000);

  it('after SHUTDOWN_GRACE_SECONDS closes what is still running and exits 0, keeping every acknowledged write', async () => {
    const results = await shutdownRounds({
      mainJs,
      dataDir: dataDir(),
      rounds: 1,
      signIns: 60,
      writes: 20,
      env: { SHUTDOWN_GRACE_SECONDS: '0' },
    });
    const [r] = results;
    expect(r.exit).toEqual({ code: 0, signal: null });
    expect(r.missing).toEqual([]);
    // Within the grace period (none) and the margin the modules have to close.
    expect(r.stopMs).toBeLessThan(10_000);
  }, 300_000);

  it('a second signal exits at once', async () => {
    const server = await start(mainJs, dataDir(), { SHUTDOWN_GRACE_SECONDS: '120' });
    const token = await signIn(server.base);
    expect(token).toBeTruthy();
    const inFlight = Array.from({ length: 60 }, () =>
      request(server.base, 'POST', '/auth/login', {
        body: { username: SUPPORT_EMAIL, password: SUPPORT_PASSWORD, acceptToS: true },
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      server.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    server.child.kill('SIGTERM');
    const until = Date.now() + 10_000;
    while (!/shutting down/.test(server.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 143, signal: null });
    await Promise.all(inFlight);
  }, 120_000);
});

import { Logger } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';
import { EngineState } from '../../../src/platform/web/engine-state';
import { AVAILABILITY_MESSAGES } from '../../../src/shared/messages';
import { SOCKET_ERRORS } from '../../../src/shared/portal/notifications';
import { Role } from '../../../src/shared/roles';
import { UsersService } from '../../../src/identity/users/users.service';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The database goes away under a running application and comes back: on PostgreSQL every connection of the app's
 * own database is ended and new ones are refused (ALLOW_CONNECTIONS false), as an operator's failover or a network
 * cut does; on SQLite the one connection is closed under the app, and reopened.
 */
async function cutDatabase(t: TestApp): Promise<() => Promise<void>> {
  if (t.config.databaseUrl) {
    const name = new URL(t.config.databaseUrl).pathname.slice(1);
    const { Client } = await import('pg');
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    return async () => {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    };
  }
  const driver = t.db.driver as SqliteDriver & { createDatabaseConnection(): Promise<unknown> };
  // The driver's own close (the statements the app keeps prepared are finalized first, as on shutdown).
  await driver.disconnect();
  return async () => {
    driver.databaseConnection = await driver.createDatabaseConnection();
  };
}

/** The texts the application's EngineState logged at warn. */
function engineWarnings(t: TestApp): string[] {
  const logger = (t.app.get(EngineState) as unknown as { logger: Logger }).logger;
  const lines: string[] = [];
  jest.spyOn(logger, 'warn').mockImplementation((...args: unknown[]) => void lines.push(String(args[0])));
  return lines;
}

/** A notification socket with the session's token: resolves once connected, or with the refusal's message. */
function openSocket(baseUrl: string, session: LoggedIn): Promise<{ socket: Socket; refused?: string }> {
  const socket = io(baseUrl, {
    path: '/socket.io',
    query: { token: session.accessToken },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket }));
    socket.once('connect_error', (e: Error) => resolve({ socket, refused: e.message }));
  });
}

async function until(condition: () => boolean, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - started;
}

describe('an unreachable database answers 503 SERVICE_UNAVAILABLE, is logged once, and recovers', () => {
  let t: TestApp;
  let admin: LoggedIn;
  let adminEmail: string;
  let baseUrl: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const org = await createOrganisation(t);
    const user = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    adminEmail = user.email;
    admin = await login(t, user.email);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await t.close();
  });

  it('every call that needs the database during the cut gets 503 + Retry-After; one warning each way; then 200s', async () => {
    // Reads, sign-ins (a write) and readiness, in parallel; nothing answers 500.
    const warnings = engineWarnings(t);
    const engines = t.app.get(EngineState);
    await request(t.http).get('/api/users').set(admin.auth).expect(200);
    const before = await openSocket(baseUrl, admin);
    sockets.push(before.socket);
    expect(before.refused).toBeUndefined();
    const fresh = await login(t, adminEmail);

    const restore = await cutDatabase(t);
    let restored = false;
    try {
      const calls = [
        ...Array.from({ length: 20 }, () => request(t.http).get('/api/users').set(admin.auth)),
        ...Array.from({ length: 10 }, () =>
          request(t.http).post('/auth/login').send({ username: adminEmail, password: 'Passw0rd!x', acceptToS: true }),
        ),
      ];
      // The caller's own profile may be answered from what this instance already read (SQLite's signed-in lookup
      // is reused while nothing was written), or refused alike: never a 500.
      const profiles = Array.from({ length: 10 }, () => request(t.http).get('/api/users/current').set(admin.auth));
      const [answers, profileAnswers] = await Promise.all([Promise.all(calls), Promise.all(profiles)]);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 503));
      for (const a of profileAnswers) expect([200, 503]).toContain(a.status);
      for (const a of answers) {
        expect(a.headers['retry-after']).toBe('2');
        expect(a.body).toEqual({
          success: false,
          statusCode: 503,
          code: 'SERVICE_UNAVAILABLE',
          message: AVAILABILITY_MESSAGES.SERVICE_UNAVAILABLE,
        });
      }
      // A socket opened now is told the service is briefly unavailable (its client tries again later), never the
      // driver's text; the one already open stays open; the process is still here.
      const during = await openSocket(baseUrl, fresh);
      sockets.push(during.socket);
      expect(during.refused).toBe(SOCKET_ERRORS.UNAVAILABLE);
      expect(before.socket.connected).toBe(true);
      const ready = await request(t.http).get('/api/health/ready').expect(503);
      expect(ready.body).toMatchObject({ code: 'NOT_READY', checks: { database: expect.stringMatching(/^failed: /) } });
      const metrics = await request(t.http).get('/api/metrics').expect(200);
      expect(metrics.text).toMatch(/^engine_up\{engine="database"\} 0$/m);
      expect(engines.isUp('database')).toBe(false);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^database unreachable: /);

      await restore();
      restored = true;
      // The probe finds the database again within a second or so, with no request needed.
      await until(() => engines.isUp('database'), 3000);
    } finally {
      if (!restored) await restore();
    }
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^database reachable again after \d+\.\d s \(\d+ calls affected; cause was: /);
    await request(t.http).get('/api/users').set(admin.auth).expect(200);
    await request(t.http).get('/api/health/ready').expect(200);
    expect((await request(t.http).get('/api/metrics').expect(200)).text).toMatch(/^engine_up\{engine="database"\} 1$/m);
    expect(before.socket.connected).toBe(true);
    const after = await openSocket(baseUrl, fresh);
    sockets.push(after.socket);
    expect(after.refused).toBeUndefined();
    // A sign-in works again and a fresh session reads.
    const again = await login(t, adminEmail);
    await request(t.http).get('/api/users/current').set(again.auth).expect(200);
  });

  it('a bug, or a query refused for another reason, is still a 500 INTERNAL_ERROR without Retry-After', async () => {
    await until(() => t.app.get(EngineState).isUp('database'), 3000);
    const users = t.app.get(UsersService);
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      severity: 'ERROR',
    });
    for (const failure of [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      new QueryFailedError('INSERT', [], duplicate),
    ]) {
      const broken = jest.spyOn(users, 'list').mockRejectedValueOnce(failure);
      try {
        const res = await request(t.http).get('/api/users').set(admin.auth).expect(500);
        expect(res.body).toMatchObject({ success: false, statusCode: 500, code: 'INTERNAL_ERROR' });
        expect(res.headers['retry-after']).toBeUndefined();
      } finally {
        broken.mockRestore();
      }
    }
    expect(t.app.get(EngineState).isUp('database')).toBe(true);
  });
});

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis of this test's own (never the machine's shared one), without persistence; resolves once it listens. */
async function privateRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    redis.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/Ready to accept connections/i.test(out)) resolve();
    });
    redis.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return redis;
}

async function stop(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

describe('Redis going away costs no request and is logged once each way', () => {
  let t: TestApp;
  let port: number;
  let redis: ChildProcess;
  let admin: LoggedIn;
  let adminEmail: string;
  beforeAll(async () => {
    port = await freePort();
    redis = await privateRedis(port);
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
    const org = await createOrganisation(t);
    const user = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    adminEmail = user.email;
    admin = await login(t, user.email);
  });
  afterAll(async () => {
    await t?.close();
    await stop(redis);
  });

  it('the rate limiter and the sign-in throttle count in memory meanwhile, with one warning for the outage', async () => {
    const warnings = engineWarnings(t);
    const engines = t.app.get(EngineState);
    await stop(redis);
    await until(() => !engines.isUp('redis'), 3000);
    // Signed-in reads (the rate limiter counts each) and failed sign-ins (the sign-in throttle counts each).
    const reads = await Promise.all(
      Array.from({ length: 20 }, () => request(t.http).get('/api/users').set(admin.auth)),
    );
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    const wrong = await Promise.all(
      Array.from({ length: 3 }, () =>
        request(t.http).post('/auth/login').send({ username: adminEmail, password: 'Wrong-Pass-1', acceptToS: true }),
      ),
    );
    expect(wrong.map((r) => r.status)).toEqual([401, 401, 401]);
    const ready = await request(t.http).get('/api/health/ready').expect(503);
    expect(ready.body.checks).toMatchObject({ database: 'ok', redis: expect.stringMatching(/^failed: /) });
    expect((await request(t.http).get('/api/metrics').expect(200)).text).toMatch(/^engine_up\{engine="redis"\} 0$/m);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^redis unreachable: /);

    redis = await privateRedis(port);
    const tookMs = await until(() => engines.isUp('redis'), 3000);
    expect(tookMs).toBeLessThan(3000);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^redis reachable again after \d+\.\d s/);
    await request(t.http).get('/api/health/ready').expect(200);
    expect((await request(t.http).get('/api/metrics').expect(200)).text).toMatch(/^engine_up\{engine="redis"\} 1$/m);
    await request(t.http).get('/api/users').set(admin.auth).expect(200);
  });
});

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import * as sqlite3 from 'sqlite3';
import { readArchive, writeArchive } from '../../../src/platform/backup/tar';
import { BuiltServer, buildServer, startServer, stopServer } from '../../utils/servers/built-server.js';
import { SoftAuthenticator } from '../../utils/identity-providers/soft-authenticator';

/**
 * Online backup and restore of the BUILT server through its own commands (`node main.js backup|restore`, what
 * `npm run backup|restore` and the image run): a backup taken while 20 clients write, restored into a new
 * DATA_DIR, holds every write acknowledged before it began, and the account's password, TOTP, passkey and
 * session all work on the restored server. Damaged, newer and misplaced archives are refused.
 */
const ORIGIN = 'http://portal.test';
const EMAIL = 'backup@vendor.test';
const PASSWORD = 'Backup-Test-Pass-1';

interface Json {
  status: number;
  body: Record<string, unknown>;
  cookie?: string;
}

async function call(
  server: BuiltServer,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; cookie?: string } = {},
): Promise<Json> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('refreshToken='))
    ?.split(';')[0];
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, cookie };
}

/** `node main.js <args>` with this DATA_DIR: its exit code and output. */
function command(mainJs: string, dataDir: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [mainJs, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: '', ENCRYPTION_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

function titlesIn(dataDir: string): Promise<Set<string>> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(dataDir, 'app.sqlite'), sqlite3.OPEN_READONLY);
    db.all('SELECT title FROM announcements', [], (err, rows: Array<{ title: string }>) => {
      db.close();
      if (err) reject(err);
      else resolve(new Set(rows.map((r) => r.title)));
    });
  });
}

const step = (epochSeconds: number) => Math.floor(epochSeconds / 30);

describe('Backup and restore', () => {
  let mainJs: string;
  let work: string;
  let source: string;
  let server: BuiltServer | undefined;
  let archive: string;
  let acknowledgedBefore: string[];
  let secret: string;
  let lastStep: number;
  let session: { token: string; cookie: string };
  let key: SoftAuthenticator;

  const start = (dataDir: string, env: Record<string, string> = {}) =>
    startServer(mainJs, {
      DATA_DIR: dataDir,
      PUBLIC_URL: ORIGIN,
      RATE_LIMIT_SCALE: '1000',
      BOOTSTRAP_SUPPORT_EMAIL: EMAIL,
      BOOTSTRAP_SUPPORT_PASSWORD: PASSWORD,
      ...env,
    });

  /** Password, then TOTP with a code of a time step not used yet. */
  async function signInWithTotp(on: BuiltServer): Promise<Json> {
    const first = await call(on, 'POST', '/auth/login', {
      body: { username: EMAIL, password: PASSWORD, acceptToS: true },
    });
    expect(first.body.code).toBe('TOTP_REQUIRED');
    // The server takes each step once and accepts one step either side of now: the next step not yet used, waited
    // for when it is more than one step ahead (two sign-ins within one 30 s window used now and now + 30).
    const target = Math.max(step(Date.now() / 1000), lastStep + 1);
    const wait = (target - 1) * 30 * 1000 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait + 200));
    lastStep = target;
    return call(on, 'POST', '/auth/login', {
      token: first.body.challengeToken as string,
      body: {
        username: EMAIL,
        password: PASSWORD,
        acceptToS: true,
        mfaToken: await generate({ secret, epoch: target * 30 + 1 }),
      },
    });
  }

  beforeAll(async () => {
    mainJs = buildServer();
    work = mkdtempSync(join(tmpdir(), 'tax-portal-backup-'));
    source = join(work, 'source');
    archive = join(work, 'backup.tar.gz');
    server = await start(source);

    // An account with a passkey, TOTP and an open session.
    const signIn = await call(server, 'POST', '/auth/login', {
      body: { username: EMAIL, password: PASSWORD, acceptToS: true },
    });
    // Status and body compared together, so that a refusal shows its body (toMatchObject would print the status only).
    expect({ status: signIn.status, body: signIn.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ accessToken: expect.any(String) }),
    });
    const token = signIn.body.accessToken as string;
    key = new SoftAuthenticator(ORIGIN);
    const options = await call(server, 'POST', '/mfa/passkeys/registration-options', { token });
    expect({ status: options.status, body: options.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ challenge: expect.any(String) }),
    });
    const registered = await call(server, 'POST', '/mfa/passkeys', {
      token,
      body: { name: 'Laptop', response: key.register(options.body as never).response },
    });
    expect(registered.status).toBe(200);
    const enable = await call(server, 'POST', '/mfa/enable', { token });
    secret = (enable.body.secret as { base32: string }).base32;
    const now = Date.now() / 1000;
    lastStep = step(now);
    expect(
      (await call(server, 'POST', '/mfa/verify', { token, body: { token: await generate({ secret, epoch: now }) } }))
        .status,
    ).toBe(200);
    const signedIn = await signInWithTotp(server);
    expect(signedIn.status).toBe(200);
    session = { token: signedIn.body.accessToken as string, cookie: signedIn.cookie! };

    // 20 clients write while the backup runs.
    const acknowledged: Array<{ title: string; at: number }> = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const title = `backup-${w}-${i}`;
        const res = await call(server!, 'POST', '/api/announcements', {
          token: session.token,
          body: { title, content: 'Acknowledged before the backup began: in the backup.' },
        }).catch(() => undefined);
        if (res?.status === 201) acknowledged.push({ title, at: Date.now() });
      }
    };
    const writers = Array.from({ length: 20 }, (_, w) => writer(w));
    while (acknowledged.length < 100) await new Promise((r) => setTimeout(r, 20));
    // Acknowledged before the backup began: these, counted now (one acknowledged in the same millisecond would not
    // show as earlier by its time).
    const acknowledgedFirst = acknowledged.length;
    const began = Date.now();
    const backup = await command(mainJs, source, 'backup', archive);
    const written = acknowledged.length;
    await new Promise((r) => setTimeout(r, 300));
    writing = false;
    await Promise.all(writers);
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.output).toMatch(/holds the keys in clear/);
    acknowledgedBefore = acknowledged.slice(0, acknowledgedFirst).map((a) => a.title);
    // Not vacuous: writes were acknowledged while the backup ran, and after it.
    expect(acknowledged.length).toBeGreaterThan(written - 1);
    expect(acknowledged.some((a) => a.at >= began)).toBe(true);
  }, 300_000);

  afterAll(async () => {
    if (server) await stopServer(server, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('restored into a new DATA_DIR, keeps every acknowledged write, the password, TOTP, passkey and session', async () => {
    const target = join(work, 'restored');
    const restored = await command(mainJs, target, 'restore', archive);
    expect(restored).toMatchObject({ code: 0 });
    expect(readdirSync(target).sort()).toEqual(['app.sqlite', 'encryption-key', 'jwt-secret']);

    const titles = await titlesIn(target);
    expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(100);
    expect(acknowledgedBefore.filter((t) => !titles.has(t))).toEqual([]);

    await stopServer(server!, 'SIGKILL');
    server = await start(target);
    // The session opened before the backup: its access token and its refresh cookie.
    expect((await call(server, 'GET', '/api/users/current', { token: session.token })).status).toBe(200);
    expect((await call(server, 'POST', '/refresh', { cookie: session.cookie })).status).toBe(200);
    // Password and TOTP (the secret decrypts with the restored key).
    expect((await signInWithTotp(server)).status).toBe(200);
    // The passkey, password-less.
    const options = await call(server, 'POST', '/auth/passkey/options');
    const passkey = await call(server, 'POST', '/auth/login', {
      body: { acceptToS: true, passkey: key.assert(options.body as never) },
    });
    expect(passkey.status).toBe(200);
  }, 120_000);

  it('refuses a DATA_DIR that is not empty', async () => {
    const res = await command(mainJs, source, 'restore', archive);
    expect(res.code).toBe(1);
    expect(res.output).toMatch(/not empty/);
  }, 120_000);

  /** A copy of the archive with its manifest and files changed by `change`. */
  async function altered(name: string, change: (files: Map<string, Buffer>) => void): Promise<string> {
    const { inMemory } = await readArchive(archive, () => undefined);
    change(inMemory);
    const file = join(work, name);
    await writeArchive(
      file,
      [...inMemory].map(([entry, data]) => ({ name: entry, data, size: data.length })),
    );
    return file;
  }
  const manifestOf = (files: Map<string, Buffer>) =>
    JSON.parse(files.get('manifest.json')!.toString()) as Record<string, unknown>;

  it('refuses an archive from a newer schema, a damaged one, and a database failing integrity_check; writes nothing', async () => {
    const newer = await altered('newer.tar.gz', (files) => {
      const m = manifestOf(files);
      m.migrations = [...(m.migrations as string[]), 'FromTheFuture9999999999999'];
      m.schemaVersion = 'FromTheFuture9999999999999';
      files.set('manifest.json', Buffer.from(JSON.stringify(m)));
    });
    const damaged = await altered('damaged.tar.gz', (files) => {
      const db = files.get('app.sqlite')!;
      db[db.length - 100] ^= 0xff;
    });
    const corrupt = await altered('corrupt.tar.gz', (files) => {
      const db = Buffer.from(files.get('app.sqlite')!);
      // A page in the middle overwritten, and the manifest's checksum made to match: only integrity_check sees it.
      db.fill(0x55, 4096 * 3, 4096 * 4);
      files.set('app.sqlite', db);
      const m = manifestOf(files);
      const sha = createHash('sha256').update(db).digest('hex');
      m.files = (m.files as Array<{ name: string; sha256: string }>).map((f) =>
        f.name === 'app.sqlite' ? { ...f, sha256: sha } : f,
      );
      files.set('manifest.json', Buffer.from(JSON.stringify(m)));
    });
    for (const [file, message] of [
      [newer, /newer than this release/],
      [damaged, /does not match its checksum/],
      [corrupt, /integrity_check/],
    ] as const) {
      const dir = join(work, `refused-${Math.random().toString(36).slice(2)}`);
      const res = await command(mainJs, dir, 'restore', file);
      expect({ code: res.code, output: res.output }).toEqual({ code: 1, output: expect.stringMatching(message) });
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    }
  }, 240_000);

  it('takes scheduled backups into BACKUP_DIR and keeps the newest BACKUP_KEEP', async () => {
    const dir = join(work, 'scheduled');
    mkdirSync(dir);
    writeFileSync(join(dir, 'unrelated.txt'), 'kept');
    await stopServer(server!, 'SIGKILL');
    server = await start(join(work, 'restored'), {
      BACKUP_DIR: dir,
      BACKUP_INTERVAL_HOURS: '0.0005',
      BACKUP_KEEP: '2',
      LOG_LEVEL: 'info',
    });
    const until = Date.now() + 60_000;
    while (Date.now() < until && server.output().split('Backup written').length <= 3)
      await new Promise((r) => setTimeout(r, 100));
    await stopServer(server, 'SIGKILL');
    const files = readdirSync(dir).sort();
    expect(files.filter((f) => f.endsWith('.tar.gz'))).toHaveLength(2);
    expect(files).toContain('unrelated.txt');
    const restored = await command(mainJs, join(work, 'from-schedule'), 'restore', join(dir, files[0]));
    expect(restored.code).toBe(0);
  }, 120_000);
});

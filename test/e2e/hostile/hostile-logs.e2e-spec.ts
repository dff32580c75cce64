import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import request from 'supertest';
import { secretPathRedactor } from '../../../src/platform/web/http/secret-paths';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, PASSWORD } from '../../utils/factories';
import { lastMailTo, linkIn, readOutbox } from '../../utils/outbox';
import { createTestApp, LogCapture, TestApp } from '../../utils/test-app';
import { eventually, WebhookReceiver } from '../../utils/servers/webhook-receiver';

const NEW_PASSWORD = 'Quite-New-Horse-7';
const RESET_PASSWORD = 'Reset-Horse-Pass-8';

/**
 * Whoever reads the logs learns no secret (docs/security.md, "Secrets in logs"): a run at LOG_LEVEL=debug creates
 * and uses every kind of token the product hands out or takes (an invitation, a password reset, an e-mailed code, an
 * MFA challenge, access and refresh tokens, an API key, a webhook secret and its rotation, a provisioning token, a
 * log stream's token, a logo upload link, an SSO test's result key, a socket's handshake), through the routes that
 * carry them in the path and the query too, and no line of the log contains any of them. Runs on SQLite and
 * PostgreSQL.
 */
describe('hostile logs: no secret in any log line', () => {
  let t: TestApp;
  let rx: WebhookReceiver;
  const logs = new LogCapture();
  const secrets = new Map<string, string>();
  const keep = (what: string, value: string | undefined | null) => {
    expect(typeof value).toBe('string');
    expect(value!.length).toBeGreaterThanOrEqual(6);
    secrets.set(what, value!);
    return value!;
  };

  beforeAll(async () => {
    rx = await new WebhookReceiver().start();
    t = await createTestApp(
      { LOG_LEVEL: 'debug', ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s' },
      undefined,
      undefined,
      logs,
    );
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await rx.stop();
    await t.close();
  });

  it('every path parameter named like a secret is one the request log blanks (a new route cannot forget it)', async () => {
    const doc = (await request(t.http).get('/api/docs-json').expect(200)).body as { paths: Record<string, object> };
    const redact = secretPathRedactor(t.app);
    const named = Object.keys(doc.paths).filter((p) => /\{[^}]*(token|key|code|secret|ticket|state)[^}]*\}/i.test(p));
    expect(named.length).toBeGreaterThanOrEqual(3);
    for (const path of named) {
      const secret = randomBytes(16).toString('hex');
      const written = redact(path.replace(/\{([^}]+)\}/g, (_m, name: string) => (/^id$/.test(name) ? '1' : secret)));
      expect({ path, written }).toEqual({ path, written: expect.not.stringContaining(secret) });
    }
  });

  it('creates and uses every kind of token; none of them appears in the log', async () => {
    const http = () => request(t.http);
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const signedIn = await login(t, admin.email);
    keep('access token', signedIn.accessToken);
    keep('refresh token', /refreshToken=([^;]+)/.exec(signedIn.cookie)?.[1]);
    const auth = signedIn.auth;
    keep('password', PASSWORD);
    await http().post('/auth/login').send({ username: admin.email, password: 'Wrong-Horse-0', acceptToS: true });

    // An invitation: read by its link (also a path that only begins like it), accepted.
    const invitee = `invitee.${randomBytes(3).toString('hex')}@logs.test`;
    await http().post('/api/invitations').set(auth).send({ email: invitee, roleId: Role.ANALYST }).expect(201);
    const invitation = keep(
      'invitation',
      new URL(linkIn(await lastMailTo(t.dataDir, invitee))!).searchParams.get('token'),
    );
    await http().get(`/api/invitations/by-token/${invitation}`).expect(200);
    await http().get(`/API/Invitations/by-token/${invitation}/`).expect(200);
    await http().get(`/api/invitations/by-token/${invitation}/more`).expect(404);
    await http().get(`/invite?token=${invitation}`);
    keep('new password', NEW_PASSWORD);
    await http()
      .post('/api/invitations/accept')
      .send({ token: invitation, firstName: 'Ada', lastName: 'Lovelace', password: NEW_PASSWORD, acceptToS: true })
      .expect(200);

    // A password reset link, used.
    const member = await createUser(t, org, { roleId: Role.ANALYST });
    await http().post('/auth/forgot-password').send({ username: member.email }).expect(200);
    const reset = keep(
      'reset token',
      new URL(linkIn(await lastMailTo(t.dataDir, member.email))!).searchParams.get('token'),
    );
    await http().get(`/resetPassword?token=${encodeURIComponent(reset)}`);
    keep('reset password', RESET_PASSWORD);
    await http().post('/auth/reset-password').send({ token: reset, password: RESET_PASSWORD }).expect(200);

    // An MFA challenge and an e-mailed code.
    const withMfa = await createUser(t, org, { roleId: Role.ANALYST, totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    const challenge = await http()
      .post('/auth/login')
      .send({ username: withMfa.email, password: PASSWORD, acceptToS: true })
      .expect(401);
    const bearer = `Bearer ${keep('challenge token', challenge.body.challengeToken)}`;
    await http().post('/mfa/email-mfa').set('Authorization', bearer).expect(200);
    const code = keep('e-mailed code', /\b(\d{6})\b/.exec((await lastMailTo(t.dataDir, withMfa.email))!.text)?.[1]);
    await http()
      .post('/auth/login')
      .set('Authorization', bearer)
      .send({ username: withMfa.email, password: PASSWORD, acceptToS: true, mfaToken: code })
      .expect(200);

    // An API key, used and used wrongly.
    const key = keep(
      'API key',
      (
        await http()
          .post('/api/api-keys')
          .set(auth)
          .send({ name: 'Logs', scopes: ['users:read'] })
          .expect(201)
      ).body.key,
    );
    await http().get('/api/users').set('Authorization', `Bearer ${key}`);
    await http()
      .get('/api/users')
      .set('Authorization', `Bearer ${key.slice(0, -2)}xx`)
      .expect(401);

    // A webhook's secret, rotated; a log stream's token; deliveries to both.
    const hook = (
      await http()
        .post('/api/webhooks')
        .set(auth)
        .send({ url: `${rx.url}/hook`, events: ['*'] })
        .expect(201)
    ).body as { id: number; secret: string };
    keep('webhook secret', hook.secret);
    keep(
      'rotated webhook secret',
      (await http().post(`/api/webhooks/${hook.id}/rotate-secret`).set(auth).expect(200)).body.secret,
    );
    const streamToken = keep('log stream token', `stream-${randomBytes(12).toString('hex')}`);
    const stream = await http()
      .post('/api/log-streams')
      .set(auth)
      .send({ type: 'http', url: `${rx.url}/stream`, token: streamToken })
      .expect(201);
    await http().post(`/api/log-streams/${stream.body.id}/test`).set(auth);

    // A provisioning token, used.
    const scim = keep(
      'SCIM token',
      (await http().post('/api/scim-tokens').set(auth).send({ name: 'Logs' }).expect(201)).body.token,
    );
    await http().get('/scim/v2/Users').set('Authorization', `Bearer ${scim}`).expect(200);

    // A logo upload link and an SSO test's result key, in their paths.
    const upload = await http()
      .post('/api/logo/get-upload-url')
      .set(auth)
      .send({ fileName: 'logo.png', fileSize: 10, mimeType: 'image/png' })
      .expect(200);
    const uploadToken = keep('logo upload token', upload.body.uploadUrl.split('/').pop());
    await http().put(`/api/logo/upload/${uploadToken}`).set('Content-Type', 'image/png').send(Buffer.from('not a png'));
    const resultKey = keep('SSO test result key', randomBytes(24).toString('base64url'));
    await http().get(`/api/sso-connections/1/test-results/${resultKey}`).set(auth);

    // The notification socket's handshake carries the access token in its query.
    const { port } = t.http.address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, {
      path: '/socket.io',
      query: { token: signedIn.accessToken },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.disconnect();

    // Everything sent and delivered, so that its lines are in.
    await readOutbox(t.dataDir);
    await eventually(
      async () => rx.requests.length,
      (n) => n >= 2,
    );

    const lines = logs.lines;
    const found = [...secrets].flatMap(([what, value]) => {
      const pattern = new RegExp(`(?<![A-Za-z0-9])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`);
      const also = encodeURIComponent(value) !== value ? encodeURIComponent(value) : null;
      return lines
        .filter((l) => pattern.test(l) || (also !== null && l.includes(also)))
        .map((l) => `${what}: ${l.trim().slice(0, 300)}`);
    });
    expect(found).toEqual([]);
    // The log was written: the request lines, with the secret path parameters blanked.
    expect(lines.some((l) => l.includes('GET /api/invitations/by-token/[redacted] 200'))).toBe(true);
    expect(lines.some((l) => l.includes('GET /api/invitations/by-token/[redacted]/more 404'))).toBe(true);
    expect(lines.some((l) => /PUT \/api\/logo\/upload\/\[redacted\] 4\d\d/.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('"level":"warn"'))).toBe(true);
  });
});

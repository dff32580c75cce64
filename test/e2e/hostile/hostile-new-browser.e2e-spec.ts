import request from 'supertest';
import { AuditService } from '../../../src/platform/audit/audit.service';
import { MySignIn } from '../../../src/shared/administration/insights';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { createOrganisation, createUser, PASSWORD } from '../../utils/factories';
import { readOutbox } from '../../utils/outbox';
import { createTestApp, TestApp } from '../../utils/test-app';

const NEW_BROWSER = 'sign-in from a new browser';

/**
 * Sidestepping the new-browser e-mail (docs/product-rules.md §10): a sign-in the router takes but the browser cookie
 * did not see (another spelling of the path), and a sign-in that names no browser at all, each from an account that
 * has used a browser before. Every such sign-in is a new browser and its owner is told; the account's first sign-in
 * is not news. Runs on SQLite and PostgreSQL.
 */
describe('hostile sign-ins: the new-browser e-mail cannot be sidestepped', () => {
  let t: TestApp;
  let org: Organisation;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t);
  });
  afterAll(() => t.close());

  /** A sign-in at `path`, with the browser cookie given (none: a browser never seen); the cookie the answer sets. */
  async function signIn(path: string, email: string, browser?: string) {
    const req = request(t.http).post(path).send({ username: email, password: PASSWORD, acceptToS: true });
    if (browser) req.set('Cookie', `browser_id=${browser}`);
    const res = await req;
    expect(res.status).toBe(200);
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('browser_id='));
    return { accessToken: res.body.accessToken as string, browser: set?.split(';')[0].slice('browser_id='.length) };
  }
  const mailsTo = async (email: string) =>
    (await readOutbox(t.dataDir)).filter((m) => m.to.includes(email) && m.subject.includes(NEW_BROWSER));
  const newDeviceMarks = async (accessToken: string) =>
    (
      (await request(t.http).get('/api/me/sign-ins').set('Authorization', `Bearer ${accessToken}`).expect(200))
        .body as MySignIn[]
    )
      .filter((s) => s.outcome === 'succeeded')
      .map((s) => s.newDevice)
      .reverse();

  it.each(['/Auth/Login', '/AUTH/LOGIN/', '/auth/login/', '/auth/Login'])(
    'a new browser signing in at %s gets its cookie and its owner the e-mail',
    async (path) => {
      const me = await createUser(t, org);
      const first = await signIn('/auth/login', me.email);
      expect(first.browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const elsewhere = await signIn(path, me.email);
      expect(elsewhere.browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(elsewhere.browser).not.toBe(first.browser);
      expect(await mailsTo(me.email)).toHaveLength(1);
      // The browser used before, at the same spelling, is known.
      const again = await signIn(path, me.email, first.browser);
      expect(await newDeviceMarks(again.accessToken)).toEqual([false, true, false]);
    },
  );

  it('a sign-in that names no browser is a new one, except as the account’s first', async () => {
    const audit = t.app.get(AuditService);
    const signedIn = (user: User) =>
      audit.record(t.db.manager, {
        type: 'SIGN_IN_SUCCEEDED',
        actor: { id: user.id, email: user.email, organisationId: org.id },
        target: { id: user.id, email: user.email, organisationId: org.id },
        client: { ip: '198.51.100.7', userAgent: 'curl/8.5.0', browser: null },
        summary: 'Signed in',
        signIn: { method: 'password' },
      });
    const known = await createUser(t, org);
    const session = await signIn('/auth/login', known.email);
    await signedIn(known);
    expect(await mailsTo(known.email)).toHaveLength(1);
    expect(await newDeviceMarks(session.accessToken)).toEqual([false, true]);

    const fresh = await createUser(t, org);
    await signedIn(fresh);
    expect(await mailsTo(fresh.email)).toHaveLength(0);
  });
});

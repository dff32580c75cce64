import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { siteAdminPayload } from '../../utils/org-admin';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * What a second connection to the database sees: what is really stored, not what the app's own connection
 * believes. A second sqlite3 handle on the file, or a new PostgreSQL client. `?` placeholders either way.
 */
async function fromSecondConnection(
  t: TestApp,
  sql: string,
  params: unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  if (t.config.databaseUrl) {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    } finally {
      await client.end();
    }
  }
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(join(t.dataDir, 'app.sqlite'), sqlite3.OPEN_READONLY);
    db.all(sql, params, (err: Error | null, rows: Array<Record<string, unknown>>) => {
      db.close();
      if (err) reject(err);
      else resolve(rows);
    });
  });
}

/**
 * Integrity under parallel requests: writes acknowledged beside failing transactions are stored,
 * and count-then-write limits hold when the requests race.
 */
describe('Integrity under parallel requests', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const support = () => m.byRole.E_SUPPORT.session.auth;

  it('stores every acknowledged write made while other requests’ transactions fail (read back from a second connection)', async () => {
    const tag = `parallel-${Date.now()}`;
    // Each creation fails inside its transaction: the organisation code exists already.
    const siteAdmin = (i: number) =>
      siteAdminPayload({ userEmail: `dup-${tag}-${i}@example.com`, organizationCode: m.org.code });
    const calls: Array<Promise<request.Response>> = [];
    for (let i = 0; i < 150; i++) {
      calls.push(
        request(t.http)
          .post('/api/announcements')
          .set(support())
          .send({ title: `${tag} ${i}`, content: 'Stored?' }),
      );
      calls.push(request(t.http).post('/auth/site-admin').set(support()).send(siteAdmin(i)));
    }
    const responses = await Promise.all(calls);
    const announcements = responses.filter((_, i) => i % 2 === 0);
    const refused = responses.filter((_, i) => i % 2 === 1);
    expect(announcements.map((r) => r.status)).toEqual(Array(150).fill(201));
    expect(refused.map((r) => r.status)).toEqual(Array(150).fill(409));

    const stored = await fromSecondConnection(t, 'SELECT COUNT(*) AS n FROM announcements WHERE title LIKE ?', [
      `${tag} %`,
    ]);
    expect(Number(stored[0].n)).toBe(150);
    const leaked = await fromSecondConnection(t, 'SELECT COUNT(*) AS n FROM users WHERE email LIKE ?', [
      `dup-${tag}-%`,
    ]);
    expect(Number(leaked[0].n)).toBe(0);
  }, 180_000); // 150 site-admin creations hash a temporary password each: slow on 2 cores, not stuck.

  it('20 parallel creations with one active-user slot left: exactly one succeeds', async () => {
    const org = await createOrganisation(t, { allowedUsersNumber: 4 });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    await createUser(t, org);
    await createUser(t, org);
    const session = await login(t, admin.email);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(t.http)
          .post('/api/users/add')
          .set(session.auth)
          .send({ userEmail: `slot-${Date.now()}-${i}@example.com`, userRoleIds: [Role.VIEWER] }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of responses.filter((x) => x.status === 409))
      expect(r.body).toMatchObject({ success: false, statusCode: 409, code: 'ACTIVE_USERS_LIMIT' });
    const active = await fromSecondConnection(
      t,
      'SELECT COUNT(*) AS n FROM users WHERE "organisationId" = ? AND "isDisabled" = false AND "isBlocked" = false',
      [org.id],
    );
    expect(Number(active[0].n)).toBe(4);
  });

  it('re-enabling 10 users at once with one slot left enables exactly one', async () => {
    const org = await createOrganisation(t, { allowedUsersNumber: 2 });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const disabled = await Promise.all(Array.from({ length: 10 }, () => createUser(t, org, { isDisabled: true })));
    const session = await login(t, admin.email);
    const responses = await Promise.all(
      disabled.map((u) =>
        request(t.http).put('/api/users/disableUser').set(session.auth).send({ userId: u.id, isDisabled: false }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await t.db.getRepository(User).countBy({ organisationId: org.id, isDisabled: false })).toBe(2);
  });

  it('10 parallel sign-ins with one concurrent-user place left: exactly one session opens', async () => {
    const org = await createOrganisation(t, { maxConcurrentUsers: 2 });
    const online = await createUser(t, org);
    await login(t, online.email);
    const others = await Promise.all(Array.from({ length: 10 }, () => createUser(t, org)));
    const responses = await Promise.all(
      others.map((u) =>
        request(t.http).post('/auth/login').send({ username: u.email, password: 'Correct-Horse-9', acceptToS: true }),
      ),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = responses.filter((r) => r.status === 403);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.body.code).toBe('CONCURRENT_USERS_EXCEEDED');
    const open = await t.db
      .getRepository(Session)
      .createQueryBuilder('s')
      .where('s.organisationId = :org AND s.endedAt IS NULL', { org: org.id })
      .getCount();
    expect(open).toBe(2);
  });

  it('a refused creation changes nothing: the organisation row and its users are as before', async () => {
    const org = await createOrganisation(t, { allowedUsersNumber: 1 });
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const session = await login(t, admin.email);
    const before = await t.db.getRepository(Organisation).findOneByOrFail({ id: org.id });
    await request(t.http)
      .post('/api/users/add')
      .set(session.auth)
      .send({ userEmail: `full-${Date.now()}@example.com` })
      .expect(409);
    expect(await t.db.getRepository(Organisation).findOneByOrFail({ id: org.id })).toEqual(before);
    expect(await t.db.getRepository(User).countBy({ organisationId: org.id })).toBe(1);
  });
});

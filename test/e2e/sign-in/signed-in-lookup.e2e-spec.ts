import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * A signed-in call answers from what the database holds when it is made, even while other calls of the same
 * session run beside the change (on SQLite the session's row is kept between calls while nothing is written).
 * Each change below is made while calls are in flight, and the call made after it is acknowledged must see it.
 */
describe('The signed-in lookup under parallel calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const current = (s: LoggedIn) => request(t.http).get('/api/users/current').set(s.auth);
  /** 24 calls of the session in flight while `change` runs; then the very next call. */
  async function besideCalls(s: LoggedIn, change: () => Promise<unknown>): Promise<request.Response> {
    const inFlight = Array.from({ length: 24 }, () => current(s));
    await change();
    const next = await current(s);
    const answered = await Promise.all(inFlight);
    expect(answered.every((r) => r.status === 200 || r.status === 401)).toBe(true);
    return next;
  }

  it('shows a renamed account, a changed role and a renamed organisation on the very next call', async () => {
    const org = await createOrganisation(t);
    const user = await createUser(t, org, { firstName: 'Before' });
    const s = await login(t, user.email);
    await current(s).expect(200);
    for (let round = 0; round < 5; round++) {
      const next = await besideCalls(s, () =>
        t.db.getRepository(User).update({ id: user.id }, { firstName: `Round ${round}` }),
      );
      expect(next.status).toBe(200);
      expect(next.body.firstName).toBe(`Round ${round}`);
    }
    const promoted = await besideCalls(s, () =>
      t.db.transaction((tx) => tx.getRepository(User).update({ id: user.id }, { roleId: Role.SITE_ADMIN })),
    );
    expect(promoted.body.roles.map((r: { roleId: number }) => r.roleId)).toEqual([Role.SITE_ADMIN]);
    const renamed = await besideCalls(s, () =>
      t.db.getRepository(Organisation).update({ id: org.id }, { name: 'Renamed Organisation' }),
    );
    expect(renamed.body.masterAccountName).toBe('Renamed Organisation');
  });

  it('refuses the very next call after a disabled account, an ended session or a logout', async () => {
    const org = await createOrganisation(t);
    const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
    const adminS = await login(t, admin.email);
    const disabled = await createUser(t, org);
    const ended = await createUser(t, org);
    const loggedOut = await createUser(t, org);

    const d = await login(t, disabled.email);
    await current(d).expect(200);
    const afterDisable = await besideCalls(d, () =>
      t.db.getRepository(User).update({ id: disabled.id }, { isDisabled: true }),
    );
    expect(afterDisable.status).toBe(401);

    const e = await login(t, ended.email);
    await current(e).expect(200);
    const afterEnd = await besideCalls(e, () =>
      t.db.getRepository(Session).update({ userId: ended.id }, { endedAt: new Date() }),
    );
    expect(afterEnd.status).toBe(401);

    const o = await login(t, loggedOut.email);
    await current(o).expect(200);
    const afterLogout = await besideCalls(o, () => request(t.http).post('/auth/logout').set(o.auth).expect(200));
    expect(afterLogout.status).toBe(401);
    expect(afterLogout.body.code).toBe('SESSION_ENDED');

    // Other sessions go on being answered.
    await current(adminS).expect(200);
  });

  it('sees a write made to the SQLite file by another connection (an operator at a sqlite3 shell) within seconds', async () => {
    if (t.db.options.type !== 'sqlite') return; // PostgreSQL is asked on every call
    const org = await createOrganisation(t);
    const user = await createUser(t, org);
    const s = await login(t, user.email);
    await current(s).expect(200);
    await current(s).expect(200);
    const outside = new sqlite3.Database(join(t.dataDir, 'app.sqlite'));
    outside.configure('busyTimeout', 5000);
    await new Promise<void>((resolve, reject) =>
      outside.run(`UPDATE sessions SET "endedAt" = datetime('now') WHERE "userId" = ?`, [user.id], (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    await new Promise((resolve) => outside.close(resolve));
    // Only reads from here on: nothing this process writes can have told it.
    let status = 200;
    const until = Date.now() + 10_000;
    while (status === 200 && Date.now() < until) {
      status = (await current(s)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(401);
  });
});

import { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { SignInHistory } from '../../../src/portal/my-security/entities/sign-in-history.entity';
import { IntegrationDelivery } from '../../../src/administration/integrations/entities/integration-delivery.entity';
import { OidcClient } from '../../../src/identity/oidc-provider/entities/oidc-client.entity';
import { OidcConsent } from '../../../src/identity/oidc-provider/entities/oidc-consent.entity';
import { OidcRecord } from '../../../src/identity/oidc-provider/entities/oidc-record.entity';
import { RetentionService } from '../../../src/administration/privacy/retention.service';
import { MyDataExport } from '../../../src/shared/administration/privacy';
import { Role } from '../../../src/shared/roles';
import { NOT_PERSONAL_TABLES, PERSONAL_TABLES } from '../../../src/identity/users/lifecycle/personal-data';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, LoggedIn, login } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { ageSession } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

const DAY = 86_400_000;
let n = 0;
const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

/** The code of an error answer, with its status. */
const refusal = (res: request.Response) => ({ status: res.status, code: res.body.code as string });

describe('Privacy: my data, erasure, retention', () => {
  let t: TestApp;
  let m: RoleMatrix;
  const http = () => request(t.http);

  beforeAll(async () => {
    t = await createTestApp({ ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1h' });
    // Listening, so that a socket can connect.
    await t.app.listen(0, '127.0.0.1');
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const orgs = () => t.db.getRepository(Organisation);
  const users = () => t.db.getRepository(User);
  const allowSelfDeletion = (org: Organisation, on = true) => orgs().update({ id: org.id }, { selfDeletion: on });

  /** A member of `org` signed in, with distinctive names and address. */
  async function person(org: Organisation, fields: Partial<User> = {}): Promise<{ user: User; session: LoggedIn }> {
    const id = unique();
    const user = await createUser(t, org, {
      email: `zq-${id}@example.com`,
      firstName: `Zelda${id}`,
      lastName: `Quixote${id}`,
      roleId: Role.VIEWER,
      ...fields,
    });
    return { user, session: await login(t, user.email) };
  }

  /** An application of the organisation that `user` consented to, and a refresh token it holds for them. */
  async function consented(user: User, org: Organisation): Promise<OidcClient> {
    const app = await t.db.getRepository(OidcClient).save(
      t.db.getRepository(OidcClient).create({
        clientId: `app_${unique()}`,
        organisationId: org.id,
        name: 'HR system',
        type: 'public',
        redirectUris: ['https://hr.example.com/cb'],
        postLogoutRedirectUris: [],
        createdBy: m.byRole.SITE_ADMIN.user.email,
      }),
    );
    await t.db.getRepository(OidcConsent).insert({
      userId: user.id,
      clientId: app.clientId,
      scopes: 'openid email',
      grantedAt: new Date(),
    });
    await t.db.getRepository(OidcRecord).insert({
      model: 'RefreshToken',
      id: `rt-${unique()}`,
      payload: JSON.stringify({ accountId: String(user.id), email: user.email }),
      clientId: app.clientId,
      accountId: String(user.id),
    });
    return app;
  }

  describe('GET /api/me/data-export', () => {
    it('every role downloads its own data as one JSON attachment; signed out 401', async () => {
      await http().get('/api/me/data-export').expect(401);
      const statuses = await statusesFor(m, (a) => http().get('/api/me/data-export').set(a.session.auth));
      expect(statuses).toEqual(expected(Object.keys(m.byRole), 200));
      const res = await http().get('/api/me/data-export').set(m.byRole.VIEWER.session.auth).buffer(true).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d\d-\d\d\.json"$/);
      const doc = JSON.parse(res.text) as MyDataExport;
      expect(doc.profile.email).toBe(m.byRole.VIEWER.user.email);
      expect(doc.organisation.id).toBe(m.org.id);
      expect(doc.roles).toEqual(['VIEWER']);
    });

    it('holds everything kept about the caller and nothing of anyone else', async () => {
      const me = await person(m.org);
      const admin = m.byRole.SITE_ADMIN;
      await http()
        .post('/api/userFeedback/add')
        .set(me.session.auth)
        .send({ title: 'Export feedback', content: 'Mine' })
        .expect(200);
      await http()
        .post('/api/users/contact-email')
        .set(me.session.auth)
        .send({ name: 'Me', email: me.user.email, subject: 'Export contact', message: 'Hello there' })
        .expect((r) => expect(r.status).toBeLessThan(300));
      await http()
        .put('/api/users/updateRole')
        .set(admin.session.auth)
        .send({ userId: me.user.id, newUserRoleIds: [Role.STANDARD_ADMIN] })
        .expect(200);
      await t.db.query(
        t.db.options.type === 'postgres'
          ? 'INSERT INTO "passkeys" ("userId", "credentialId", "publicKey", "counter", "transports", "name", "deviceType", "backedUp") VALUES ($1, $2, $3, 0, \'[]\', \'My key\', \'singleDevice\', false)'
          : 'INSERT INTO "passkeys" ("userId", "credentialId", "publicKey", "counter", "transports", "name", "deviceType", "backedUp") VALUES (?, ?, ?, 0, \'[]\', \'My key\', \'singleDevice\', 0)',
        [me.user.id, `cred-${unique()}`, 'pk'],
      );
      const app = await consented(me.user, m.org);

      const res = await http().get('/api/me/data-export').set(me.session.auth).buffer(true).expect(200);
      const doc = JSON.parse(res.text) as MyDataExport;
      expect(doc.schemaVersion).toBe(1);
      expect(doc.profile).toMatchObject({ id: me.user.id, firstName: me.user.firstName, lastName: me.user.lastName });
      expect(doc.sessions.length).toBeGreaterThanOrEqual(1);
      expect(doc.signInHistory.map((s) => s.outcome)).toContain('succeeded');
      expect(doc.feedback).toEqual([{ title: 'Export feedback', text: 'Mine' }]);
      expect(doc.contactMessages.map((c) => c.subject).join()).toContain('Export contact');
      expect(doc.passkeys).toEqual([{ name: 'My key', createdAt: expect.any(String), lastUsedAt: null }]);
      expect(doc.applications).toEqual([
        {
          clientId: app.clientId,
          name: 'HR system',
          scopes: ['openid', 'email'],
          grantedAt: expect.any(String),
          lastUsedAt: null,
        },
      ]);
      expect(doc.auditEventsAboutMe.map((e) => e.type)).toContain('ROLE_CHANGED');
      expect(doc.auditEventsByMe.every((e) => e.actorId === me.user.id)).toBe(true);
      expect(doc.auditEventsAboutMe.every((e) => e.targetId === me.user.id && e.actorId !== me.user.id)).toBe(true);
      expect(res.text).not.toContain(admin.user.email.replace(/@.*/, '') + '@never');
      // The download itself is on the trail.
      expect(await t.db.getRepository(AuditEvent).countBy({ type: 'MY_DATA_EXPORTED', actorId: me.user.id })).toBe(1);
    });

    it('is sensitive: an old sign-in must confirm it is them; an API key is refused', async () => {
      const me = await person(m.org);
      await ageSession(t, me.session, 120);
      expect(refusal(await http().get('/api/me/data-export').set(me.session.auth))).toEqual({
        status: 403,
        code: 'STEP_UP_REQUIRED',
      });
      const key = await http()
        .post('/api/api-keys')
        .set(m.byRole.SITE_ADMIN.session.auth)
        .send({ name: `k-${unique()}`, scopes: ['users:read', 'users:write', 'audit:read'] })
        .expect(201);
      const withKey = { Authorization: `Bearer ${key.body.key as string}` };
      expect(refusal(await http().get('/api/me/data-export').set(withKey)).status).toBe(403);
      expect(refusal(await http().delete('/api/me').set(withKey)).status).toBe(403);
      expect(refusal(await http().post(`/api/users/${me.user.id}/erase`).set(withKey)).status).toBe(403);
    });

    it('streams many audit events page by page into one valid document', async () => {
      const me = await person(m.org);
      const rows = Array.from({ length: 2500 }, (_, i) => ({
        occurredAt: new Date(Date.now() - (3000 - i) * 1000),
        type: 'PROFILE_CHANGED' as const,
        organisationId: m.org.id,
        actorKind: 'user' as const,
        actorId: me.user.id,
        actorEmail: me.user.email,
        summary: `bulk ${i}`,
      }));
      for (let i = 0; i < rows.length; i += 500) await t.db.getRepository(AuditEvent).insert(rows.slice(i, i + 500));
      const res = await http().get('/api/me/data-export').set(me.session.auth).buffer(true).expect(200);
      const doc = JSON.parse(res.text) as MyDataExport;
      const bulk = doc.auditEventsByMe.filter((e) => e.summary.startsWith('bulk '));
      expect(bulk).toHaveLength(2500);
      expect(bulk.map((e) => e.summary)).toEqual(rows.map((r) => r.summary));
    });
  });

  describe('DELETE /api/me', () => {
    it('GET /api/me/privacy tells the caller whether they may delete their account, and why not', async () => {
      await http().get('/api/me/privacy').expect(401);
      const mine = async (s: LoggedIn) => (await http().get('/api/me/privacy').set(s.auth).expect(200)).body;
      const closed = await createOrganisation(t, { auditRetentionDays: 90 });
      expect(await mine((await person(closed)).session)).toEqual({
        canDeleteAccount: false,
        refusal: 'SELF_DELETION_OFF',
        auditRetentionDays: 90,
        signInHistoryDays: 90,
      });
      const open = await createOrganisation(t, { selfDeletion: true });
      expect(await mine((await person(open)).session)).toMatchObject({ canDeleteAccount: true, refusal: null });
      expect(await mine((await person(open, { roleId: Role.SITE_ADMIN })).session)).toMatchObject({
        canDeleteAccount: false,
        refusal: 'LAST_SITE_ADMIN',
        auditRetentionDays: 365,
      });
      expect(await mine((await person(open, { managedBy: 'scim' })).session)).toMatchObject({
        refusal: 'DIRECTORY_MANAGED',
      });
      expect(await mine(m.byRole.E_SUPPORT.session)).toMatchObject({ canDeleteAccount: false, refusal: 'E_SUPPORT' });
    });

    it("refused while the organisation's policy does not allow it (403 SELF_DELETION_OFF)", async () => {
      const org = await createOrganisation(t);
      const me = await person(org);
      const res = await http().delete('/api/me').set(me.session.auth);
      expectErrorBody(res, 403);
      expect(res.body.code).toBe('SELF_DELETION_OFF');
      expect(await users().existsBy({ id: me.user.id, erasedAt: undefined, email: me.user.email })).toBe(true);
    });

    it('allowed by the policy: the account is a tombstone that cannot sign in, its address free again', async () => {
      const org = await createOrganisation(t, { selfDeletion: true });
      const me = await person(org);
      const { port } = t.http.address() as AddressInfo;
      const socket = io(`http://127.0.0.1:${port}`, {
        path: '/socket.io',
        query: { token: me.session.accessToken },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
      const res = await http().delete('/api/me').set(me.session.auth).expect(200);
      // Its live connection closes at once.
      await closed;
      expect(res.body).toEqual({ success: true, message: expect.any(String) });
      // The session has ended: the very next call is refused.
      expect((await http().get('/api/users/current').set(me.session.auth)).status).toBe(401);
      const login = await http()
        .post('/auth/login')
        .send({ username: me.user.email, password: 'Correct-Horse-9', acceptToS: true });
      expect(login.status).toBe(401);
      const tomb = await users().findOneByOrFail({ id: me.user.id });
      expect(tomb).toMatchObject({
        firstName: '',
        lastName: '',
        passwordHash: null,
        isDisabled: true,
        isBlocked: true,
      });
      expect(tomb.email).not.toContain(me.user.email);
      expect(tomb.erasedAt).toBeInstanceOf(Date);
      // The address can be used again.
      const again = await createUser(t, org, { email: me.user.email });
      expect(again.id).not.toBe(me.user.id);
      const erased = await t.db
        .getRepository(AuditEvent)
        .findOneByOrFail({ type: 'USER_ERASED', targetId: me.user.id });
      expect(erased).toMatchObject({
        actorEmail: `Erased user #${me.user.id}`,
        targetEmail: `Erased user #${me.user.id}`,
      });
    });

    it('E-Support never (403); a directory-managed account 409 DIRECTORY_MANAGED', async () => {
      await allowSelfDeletion(m.vendor);
      const support = m.byRole.E_SUPPORT;
      const res = await http().delete('/api/me').set(support.session.auth);
      expectErrorBody(res, 403);
      const org = await createOrganisation(t, { selfDeletion: true });
      const managed = await person(org, { managedBy: 'scim', externalId: 'ext-1' });
      expect(refusal(await http().delete('/api/me').set(managed.session.auth))).toEqual({
        status: 409,
        code: 'DIRECTORY_MANAGED',
      });
    });

    it('the last active site admin 409 LAST_SITE_ADMIN; of two deleting themselves at once, one remains', async () => {
      const org = await createOrganisation(t, { selfDeletion: true });
      const only = await person(org, { roleId: Role.SITE_ADMIN });
      expect(refusal(await http().delete('/api/me').set(only.session.auth))).toEqual({
        status: 409,
        code: 'LAST_SITE_ADMIN',
      });
      const second = await person(org, { roleId: Role.SITE_ADMIN });
      const answers = await Promise.all([
        http().delete('/api/me').set(only.session.auth),
        http().delete('/api/me').set(second.session.auth),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('LAST_SITE_ADMIN');
      expect(
        await users().countBy({ organisationId: org.id, roleId: Role.SITE_ADMIN, isDisabled: false, isBlocked: false }),
      ).toBe(1);
    });

    it('is sensitive: an old sign-in must confirm it is them first', async () => {
      const org = await createOrganisation(t, { selfDeletion: true });
      const me = await person(org);
      await ageSession(t, me.session, 120);
      expect(refusal(await http().delete('/api/me').set(me.session.auth)).code).toBe('STEP_UP_REQUIRED');
      expect((await users().findOneByOrFail({ id: me.user.id })).erasedAt).toBeNull();
    });
  });

  describe('POST /api/users/{id}/erase', () => {
    const disable = (admin: LoggedIn, id: number) =>
      http().put('/api/users/disableUser').set(admin.auth).send({ userId: id, isDisabled: true }).expect(200);

    it("its site admins and E-Support only; another organisation's member 404", async () => {
      const statuses = await statusesFor(m, async (a) => {
        const target = await createUser(t, m.org, { roleId: Role.VIEWER, isDisabled: true });
        return http().post(`/api/users/${target.id}/erase`).set(a.session.auth);
      });
      expect(statuses).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
      const elsewhere = await createUser(t, m.otherOrg, { roleId: Role.VIEWER, isDisabled: true });
      const res = await http().post(`/api/users/${elsewhere.id}/erase`).set(m.byRole.SITE_ADMIN.session.auth);
      expectErrorBody(res, 404);
      expect((await users().findOneByOrFail({ id: elsewhere.id })).erasedAt).toBeNull();
      await http().post(`/api/users/${elsewhere.id}/erase`).set(m.otherOrgAdmin.session.auth).expect(200);
      await http().post(`/api/users/${elsewhere.id}/erase`).set(m.otherOrgAdmin.session.auth).expect(404);
      await http().post('/api/users/abc/erase').set(m.otherOrgAdmin.session.auth).expect(400);
      await http().post(`/api/users/${elsewhere.id}/erase`).expect(401);
    });

    it('access still on 409 ACCESS_STILL_ON; never an E-Support account; an erased account never comes back', async () => {
      const admin = m.byRole.SITE_ADMIN.session;
      const target = await createUser(t, m.org, { roleId: Role.VIEWER });
      expect(refusal(await http().post(`/api/users/${target.id}/erase`).set(admin.auth))).toEqual({
        status: 409,
        code: 'ACCESS_STILL_ON',
      });
      const support = await createUser(t, m.vendor, { roleId: Role.E_SUPPORT, isDisabled: true });
      const res = await http().post(`/api/users/${support.id}/erase`).set(m.byRole.E_SUPPORT.session.auth);
      expectErrorBody(res, 403);
      await disable(admin, target.id);
      await http().post(`/api/users/${target.id}/erase`).set(admin.auth).expect(200);
      const back = await http()
        .put('/api/users/disableUser')
        .set(admin.auth)
        .send({ userId: target.id, isDisabled: false });
      expect(back.status).toBe(404);
      expect((await users().findOneByOrFail({ id: target.id })).isDisabled).toBe(true);
    });

    it('is sensitive: an old sign-in must confirm it is them first', async () => {
      const admin = await login(t, m.byRole.SITE_ADMIN.user.email);
      await ageSession(t, admin, 120);
      const target = await createUser(t, m.org, { roleId: Role.VIEWER, isDisabled: true });
      expect(refusal(await http().post(`/api/users/${target.id}/erase`).set(admin.auth)).code).toBe('STEP_UP_REQUIRED');
    });
  });

  describe('erasure removes the person from every table', () => {
    /** Every table of the schema, with how to read its rows. */
    async function tables(): Promise<string[]> {
      const rows: Array<{ name: string }> =
        t.db.options.type === 'postgres'
          ? await t.db.query(
              "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            )
          : await t.db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
      return rows.map((r) => r.name).sort();
    }

    it('every table of the schema is listed as personal (with how it is erased) or not personal', async () => {
      const unlisted = (await tables()).filter((name) => !(name in PERSONAL_TABLES) && !(name in NOT_PERSONAL_TABLES));
      expect(unlisted).toEqual([]);
    });

    it("afterwards the person's address and names stand nowhere; the trail keeps its events, naming the erased user", async () => {
      const admin = m.byRole.SITE_ADMIN;
      const prior = `Prior${unique()}`;
      const me = await person(m.org, { roleId: Role.STANDARD_ADMIN, isAdministrator: true, firstName: prior });
      // Webhooks and an audit log stream of the organisation: their stored bodies name the person.
      await http()
        .post('/api/webhooks')
        .set(admin.session.auth)
        .send({ url: 'http://127.0.0.1:9/hook', events: ['*'] })
        .expect(201);
      await http()
        .post('/api/log-streams')
        .set(admin.session.auth)
        .send({ type: 'http', url: 'http://127.0.0.1:9/stream', token: 'stream-token' })
        .expect(201);
      const first = `Zelda${unique()}`;
      await http().put('/api/users/updateUser').set(me.session.auth).send({ firstName: first }).expect(200);
      const fresh = await users().findOneByOrFail({ id: me.user.id });
      const who = { email: fresh.email, firstName: fresh.firstName, lastName: fresh.lastName };
      await http()
        .put('/api/users/updateRole')
        .set(admin.session.auth)
        .send({ userId: me.user.id, newUserRoleIds: [Role.STANDARD_ADMIN] })
        .expect(200);
      await http()
        .post('/api/userFeedback/add')
        .set(me.session.auth)
        .send({ title: 'Feedback', content: `From ${who.firstName}` })
        .expect(200);
      await http()
        .post('/api/users/contact-email')
        .set(me.session.auth)
        .send({ name: `${who.firstName} ${who.lastName}`, email: who.email, subject: 'Question', message: 'Hi' });
      await http()
        .post('/api/invitations')
        .set(me.session.auth)
        .send({ email: `invitee-${unique()}@example.com`, roleId: Role.VIEWER });
      await http().post('/auth/forgot-password').send({ email: who.email });
      const group = await http()
        .post('/api/user-groups')
        .set(admin.session.auth)
        .send({ name: `Group ${unique()}` });
      if (group.status < 300)
        await http().put(`/api/users/${me.user.id}/user-groups/${group.body.id}`).set(admin.session.auth);
      await http().post('/auth/login').send({ username: who.email, password: 'wrong-Password-1', acceptToS: true });
      const postgres = t.db.options.type === 'postgres';
      const p = (i: number) => (postgres ? `$${i}` : '?');
      await t.db.query(
        `INSERT INTO "mfa_trusted_devices" ("userId", "tokenHash", "label", "expiresAt") VALUES (${p(1)}, ${p(2)}, 'Laptop', ${p(3)})`,
        [me.user.id, `h-${unique()}`, postgres ? new Date(Date.now() + DAY) : new Date(Date.now() + DAY).toISOString()],
      );
      await t.db.query(`INSERT INTO "mfa_recovery_codes" ("userId", "codeHash") VALUES (${p(1)}, ${p(2)})`, [
        me.user.id,
        `c-${unique()}`,
      ]);
      await t.db.query(
        `INSERT INTO "notifications" ("organisationId", "userId", "type", "content") VALUES (${p(1)}, ${p(2)}, 'GENERAL', ${p(3)})`,
        [m.org.id, me.user.id, JSON.stringify({ title: `For ${who.firstName}` })],
      );
      await t.db.query(
        `INSERT INTO "notifications" ("organisationId", "userId", "type", "content") VALUES (${p(1)}, NULL, 'GENERAL', ${p(3 - 1)})`,
        [m.org.id, JSON.stringify({ title: `${who.firstName} ${who.lastName} (${who.email}) joined` })],
      );
      await consented(me.user, m.org);
      const aboutBefore = await t.db.getRepository(AuditEvent).countBy({ targetId: me.user.id });
      expect(aboutBefore).toBeGreaterThanOrEqual(2);

      await http().put('/api/users/disableUser').set(admin.session.auth).send({ userId: me.user.id, isDisabled: true });
      await http().post(`/api/users/${me.user.id}/erase`).set(admin.session.auth).expect(200);

      const needles = [who.email, who.firstName, who.lastName, prior].map((s) => s.toLowerCase());
      const found: string[] = [];
      for (const table of await tables()) {
        const rows: Array<Record<string, unknown>> = await t.db.query(`SELECT * FROM "${table}"`);
        for (const row of rows) {
          const text = JSON.stringify(row, (_k, v: unknown) =>
            Buffer.isBuffer(v) || (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer')
              ? undefined
              : v,
          ).toLowerCase();
          for (const needle of needles) if (text.includes(needle)) found.push(`${table}: ${needle}`);
        }
      }
      expect(found).toEqual([]);

      // Its consents and the provider's tokens for it are gone.
      expect(await t.db.getRepository(OidcConsent).countBy({ userId: me.user.id })).toBe(0);
      expect(await t.db.getRepository(OidcRecord).countBy({ accountId: String(me.user.id) })).toBe(0);
      const label = `Erased user #${me.user.id}`;
      const about = await t.db.getRepository(AuditEvent).findBy({ targetId: me.user.id });
      expect(about.length).toBe(aboutBefore + 2); // the access switched off, and the erasure
      expect(about.every((e) => e.targetEmail === label)).toBe(true);
      expect(about.find((e) => e.type === 'USER_ERASED')).toMatchObject({ actorId: admin.user.id });
      // The webhook names the account by its id only.
      const erased = await t.db.getRepository(IntegrationDelivery).findOneByOrFail({ type: 'user.erased' });
      expect(JSON.parse(erased.payload).data).toEqual({
        organisationId: m.org.id,
        actor: { type: 'user', id: admin.user.id },
        id: me.user.id,
      });
      // The users list's search no longer finds the person.
      const list = await http()
        .get('/api/users')
        .query({ searchText: who.lastName })
        .set(admin.session.auth)
        .expect(200);
      expect(JSON.stringify(list.body)).not.toContain(who.lastName);
    });
  });

  describe('retention', () => {
    it('the policy reads the deployment default (365) and takes 30 to 2555 days; selfDeletion off by default', async () => {
      const admin = m.byRole.SITE_ADMIN.session;
      const path = `/api/organisations/${m.org.id}/security-policy`;
      const org = await createOrganisation(t);
      const siteAdmin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const s = await login(t, siteAdmin.email);
      expect(
        (await http().get(`/api/organisations/${org.id}/security-policy`).set(s.auth).expect(200)).body,
      ).toMatchObject({
        selfDeletion: false,
        auditRetentionDays: 365,
      });
      // Saving another rule leaves the organisation following the deployment's retention.
      await http()
        .put(`/api/organisations/${org.id}/security-policy`)
        .set(s.auth)
        .send({ selfDeletion: true })
        .expect(200);
      expect(await orgs().findOneByOrFail({ id: org.id })).toMatchObject({
        selfDeletion: true,
        auditRetentionDays: null,
      });
      for (const bad of [29, 2556, 'a year', 30.5]) {
        const res = await http().put(path).set(admin.auth).send({ auditRetentionDays: bad });
        expectErrorBody(res, 400);
      }
      await http().put(path).set(admin.auth).send({ selfDeletion: 'yes' }).expect(400);
      const saved = await http()
        .put(path)
        .set(admin.auth)
        .send({ auditRetentionDays: 30, selfDeletion: true })
        .expect(200);
      expect(saved.body).toMatchObject({ auditRetentionDays: 30, selfDeletion: true });
      const change = await t.db
        .getRepository(AuditEvent)
        .findOneByOrFail({ type: 'SECURITY_POLICY_CHANGED', organisationId: m.org.id });
      expect(change.summary).toContain('auditRetentionDays');
      // Administrators read it, they do not change it; another organisation's site admin sees a 404.
      await http().put(path).set(m.byRole.ADMINISTRATOR.session.auth).send({ auditRetentionDays: 40 }).expect(403);
      await http().put(path).set(m.otherOrgAdmin.session.auth).send({ auditRetentionDays: 40 }).expect(404);
      await orgs().update({ id: m.org.id }, { auditRetentionDays: null, selfDeletion: false });
    });

    it("a run deletes each organisation's events past its own period and sign-ins past 90 days, nothing newer", async () => {
      const now = new Date(Date.now() + 1000 * DAY); // a clock of the test's own, far enough ahead to be alone
      const short = await createOrganisation(t, { auditRetentionDays: 30 });
      const normal = await createOrganisation(t);
      const member = await createUser(t, short);
      const event = (org: Organisation, daysAgo: number) => ({
        occurredAt: new Date(now.getTime() - daysAgo * DAY),
        type: 'LOGOUT' as const,
        organisationId: org.id,
        actorKind: 'anonymous' as const,
        summary: `${org.id} ${daysAgo}`,
      });
      const events = t.db.getRepository(AuditEvent);
      const inserted = await events.save([
        event(short, 31),
        event(short, 29),
        event(normal, 364),
        event(normal, 366),
        ...Array.from({ length: 1200 }, () => event(short, 40)),
      ]);
      const signIns = t.db.getRepository(SignInHistory);
      await signIns.save([
        signIns.create({ userId: member.id, at: new Date(now.getTime() - 91 * DAY), outcome: 'succeeded' }),
        signIns.create({ userId: member.id, at: new Date(now.getTime() - 89 * DAY), outcome: 'succeeded' }),
      ]);

      const run = await t.app.get(RetentionService).purge(now, 0);
      expect(run!.auditEvents).toBeGreaterThanOrEqual(1202);
      const left = (await events.findBy({ organisationId: short.id })).map((e) => e.summary);
      expect(left).toEqual([`${short.id} 29`]);
      expect((await events.findBy({ organisationId: normal.id })).map((e) => e.summary)).toEqual([`${normal.id} 364`]);
      expect(inserted.length).toBe(1204);
      const kept = await signIns.findBy({ userId: member.id });
      expect(kept.map((s) => Math.round((now.getTime() - s.at.getTime()) / DAY))).toEqual([89]);
    });

    it('on PostgreSQL one instance at a time: a run finding the lock taken skips', async () => {
      if (t.db.options.type !== 'postgres') return;
      const runner = t.db.createQueryRunner();
      try {
        await runner.query('SELECT pg_advisory_lock(7401013)');
        expect(await t.app.get(RetentionService).purge(new Date(), 0)).toBeNull();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(7401013)');
        await runner.release();
      }
    });
  });
});

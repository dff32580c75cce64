import { generateSecret } from 'otplib';
import request from 'supertest';
import { MoreThan } from 'typeorm';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { RetentionService } from '../../../src/administration/privacy/retention.service';
import { UTF8_BOM } from '../../../src/platform/web/csv';
import { AuditEventType } from '../../../src/shared/audit';
import { Role } from '../../../src/shared/roles';
import { User } from '../../../src/platform/database/entities/user.entity';
import { createUser, login, PASSWORD, totp } from '../../utils/factories';
import { lastMailTo, outboxDelivered } from '../../utils/outbox';
import { PNG_BYTES } from '../../utils/org-admin';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

const UA = 'AuditTest/1.0';

describe('Audit trail and exports', () => {
  let t: TestApp;
  let m: RoleMatrix;
  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
  });
  afterAll(() => t.close());

  const http = () => request(t.http);
  const as = (code: string) => m.byRole[code].session.auth;
  const events = () => t.db.getRepository(AuditEvent);
  const mark = async () => (await events().maximum('id')) ?? 0;
  /** The events written since `from`, oldest first. */
  const since = (from: number) => events().find({ where: { id: MoreThan(from) }, order: { id: 'ASC' } });
  /** Runs `action` and expects it to leave exactly one event of `type`; returns it. */
  async function exactlyOne(type: AuditEventType, action: () => PromiseLike<unknown>): Promise<AuditEvent> {
    const from = await mark();
    await action();
    const written = await since(from);
    expect(written.map((e) => e.type)).toEqual([type]);
    const [e] = written;
    expect(JSON.stringify(e)).not.toMatch(new RegExp(`${PASSWORD}|Another-Pass-1|Reset-Pass-77`));
    return e;
  }
  const actorOf = (u: { id: number; email: string; organisationId: number }) => ({
    actorKind: 'user',
    actorId: u.id,
    actorEmail: u.email,
    actorOrganisationId: u.organisationId,
  });
  const targetOf = (u: { id: number; email: string; organisationId: number }) => ({
    targetId: u.id,
    targetEmail: u.email,
    targetOrganisationId: u.organisationId,
  });

  describe('one event per action, with actor, target, client and summary', () => {
    it('sign-in succeeded, failed (unknown and known account), locked', async () => {
      const user = await createUser(t, m.org);
      const ok = await exactlyOne('SIGN_IN_SUCCEEDED', () =>
        http()
          .post('/auth/login')
          .set('User-Agent', UA)
          .send({ username: user.email, password: PASSWORD, acceptToS: true })
          .expect(200),
      );
      expect(ok).toMatchObject({ ...actorOf(user), ...targetOf(user), organisationId: m.org.id, userAgent: UA });
      expect(ok.ip).toBeTruthy();

      const bad = await exactlyOne('SIGN_IN_FAILED', () =>
        http()
          .post('/auth/login')
          .send({ username: user.email, password: 'wrong-pass-1', acceptToS: true })
          .expect(401),
      );
      expect(bad).toMatchObject({ actorKind: 'anonymous', actorId: null, ...targetOf(user), organisationId: m.org.id });
      expect(bad.ip).toBeTruthy();
      expect(bad.summary).not.toContain('wrong-pass-1');

      const unknown = await exactlyOne('SIGN_IN_FAILED', () =>
        http()
          .post('/auth/login')
          .send({ username: 'nobody@nowhere.example', password: 'x', acceptToS: true })
          .expect(401),
      );
      expect(unknown).toMatchObject({ actorKind: 'anonymous', targetId: null, organisationId: null });
      expect(unknown.summary).toContain('nobody@nowhere.example');

      const locked = await createUser(t, m.org);
      for (let i = 0; i < 5; i++)
        await http().post('/auth/login').send({ username: locked.email, password: 'wrong-pass-1', acceptToS: true });
      const refused = await exactlyOne('SIGN_IN_LOCKED', () =>
        http().post('/auth/login').send({ username: locked.email, password: PASSWORD, acceptToS: true }).expect(429),
      );
      expect(refused).toMatchObject({ actorKind: 'anonymous', ...targetOf(locked) });
    }, 60_000);

    it('logout and force log-off', async () => {
      const user = await createUser(t, m.org);
      const session = await login(t, user.email);
      const out = await exactlyOne('LOGOUT', () =>
        http().post('/auth/logout').set(session.auth).set('User-Agent', UA).expect(200),
      );
      expect(out).toMatchObject({ ...actorOf(user), ...targetOf(user), userAgent: UA });

      const other = await createUser(t, m.org);
      await login(t, other.email);
      const admin = m.byRole.SITE_ADMIN.user;
      const forced = await exactlyOne('FORCE_LOGOFF', () =>
        http()
          .post('/api/userLoginActivities/force-logoff')
          .set(as('SITE_ADMIN'))
          .send({ userIds: [other.id] })
          .expect(200),
      );
      expect(forced).toMatchObject({ ...actorOf(admin), ...targetOf(other), organisationId: m.org.id });
    });

    it('password changed (own and forced), reset requested, reset', async () => {
      const user = await createUser(t, m.org);
      const session = await login(t, user.email);
      const changed = await exactlyOne('PASSWORD_CHANGED', () =>
        http()
          .patch('/api/users/updatePassword')
          .set(session.auth)
          .send({ currentPassword: PASSWORD, userPassword: 'Another-Pass-1' })
          .expect(200),
      );
      expect(changed).toMatchObject({
        ...actorOf(user),
        ...targetOf(user),
        summary: 'Password changed',
        changes: null,
      });

      const forced = await createUser(t, m.org, { mustChangePassword: true });
      const challenge = await http()
        .post('/auth/login')
        .send({ username: forced.email, password: PASSWORD, acceptToS: true })
        .expect(401);
      await exactlyOne('PASSWORD_CHANGED', () =>
        http()
          .post('/auth/change-password')
          .set('Authorization', `Bearer ${challenge.body.challengeToken}`)
          .send({ currentPassword: PASSWORD, newPassword: 'Another-Pass-1' })
          .expect(200),
      );

      // The link (and its event) is made after the answer, by the outbox: wait for it as for the e-mail.
      const requested = await exactlyOne('PASSWORD_RESET_REQUESTED', async () => {
        await http().post('/auth/forgot-password').send({ username: user.email }).expect(200);
        await outboxDelivered(t.dataDir);
      });
      expect(requested).toMatchObject({ actorKind: 'anonymous', ...targetOf(user) });
      const token = (await lastMailTo(t.dataDir, user.email))!.text.match(/token=([\w%-]+)/)![1];
      expect(JSON.stringify(requested)).not.toContain(decodeURIComponent(token));
      const reset = await exactlyOne('PASSWORD_RESET', () =>
        http()
          .post('/auth/reset-password')
          .send({ token: decodeURIComponent(token), password: 'Reset-Pass-77' })
          .expect(200),
      );
      expect(reset).toMatchObject({ ...targetOf(user) });
      // No event for an unknown account's request: nothing changed.
      const from = await mark();
      await http().post('/auth/forgot-password').send({ username: 'ghost@nowhere.example' }).expect(200);
      expect(await since(from)).toEqual([]);
    });

    it('MFA enabled, e-mailed code sent, disabled by the user, disabled by an administrator, enforced', async () => {
      const user = await createUser(t, m.org);
      const session = await login(t, user.email);
      const { body } = await http().post('/mfa/enable').set(session.auth).expect(200);
      const secret = body.secret.base32 as string;
      const enabled = await exactlyOne('MFA_ENABLED', async () =>
        http()
          .post('/mfa/verify')
          .set(session.auth)
          .send({ token: await totp(secret) })
          .expect(200),
      );
      expect(enabled).toMatchObject({ ...actorOf(user), ...targetOf(user) });
      expect(JSON.stringify(enabled)).not.toContain(secret);

      const challenge = await http()
        .post('/auth/login')
        .send({ username: user.email, password: PASSWORD, acceptToS: true })
        .expect(401);
      const sent = await exactlyOne('MFA_CODE_SENT', () =>
        http().post('/mfa/email-mfa').set('Authorization', `Bearer ${challenge.body.challengeToken}`).expect(200),
      );
      const code = (await lastMailTo(t.dataDir, user.email))!.text.match(/\b(\d{6})\b/)![1];
      expect(JSON.stringify(sent)).not.toContain(code);
      const signedIn = await http()
        .post('/auth/login')
        .set('Authorization', `Bearer ${challenge.body.challengeToken}`)
        .send({ username: user.email, password: PASSWORD, acceptToS: true, mfaToken: code })
        .expect(200);

      await new Promise((r) => setTimeout(r, 50));
      const disabled = await exactlyOne('MFA_DISABLED', async () =>
        http()
          .post('/mfa/disable')
          .set('Authorization', `Bearer ${signedIn.body.accessToken}`)
          .send({ token: await totp(secret, Date.now() / 1000 + 30) })
          .expect(200),
      );
      expect(disabled).toMatchObject({ ...actorOf(user), ...targetOf(user) });

      const withMfa = await createUser(t, m.org, { totpSecret: generateSecret() });
      const byAdmin = await exactlyOne('MFA_DISABLED_BY_ADMIN', () =>
        http().put('/api/mfa/disableUserMfa').set(as('SITE_ADMIN')).send({ userId: withMfa.id }).expect(200),
      );
      expect(byAdmin).toMatchObject({ ...actorOf(m.byRole.SITE_ADMIN.user), ...targetOf(withMfa) });

      const enforced = await exactlyOne('MFA_ENFORCEMENT_CHANGED', () =>
        http()
          .put('/api/users/enforceMFA')
          .set(as('SITE_ADMIN'))
          .send({ userId: withMfa.id, isMFAEnforced: true })
          .expect(200),
      );
      expect(enforced.changes).toEqual(JSON.stringify({ mfaEnforced: { from: false, to: true } }));
    });

    it('user created, role, access and SSO changed', async () => {
      const admin = m.byRole.SITE_ADMIN.user;
      const email = `created-${Date.now()}@example.com`;
      const created = await exactlyOne('USER_CREATED', () =>
        http()
          .post('/api/users/add')
          .set(as('SITE_ADMIN'))
          .send({ userEmail: email, userRoleIds: [Role.ANALYST] })
          .expect(201),
      );
      expect(created).toMatchObject({ ...actorOf(admin), targetEmail: email, organisationId: m.org.id });
      expect(created.summary).toBe(`User ${email} created as Analyst`);

      const target = await t.db.getRepository(User).findOneByOrFail({ email });
      const role = await exactlyOne('ROLE_CHANGED', () =>
        http()
          .put('/api/users/updateRole')
          .set(as('ADMINISTRATOR'))
          .send({ userId: target.id, newUserRoleIds: [Role.VIEWER] })
          .expect(200),
      );
      expect(role).toMatchObject({
        ...actorOf(m.byRole.ADMINISTRATOR.user),
        ...targetOf(target),
        summary: `Roles of ${email}: Analyst → Viewer`,
      });
      expect(JSON.parse(role.changes!)).toEqual({ roles: { from: 'Analyst', to: 'Viewer' } });

      const access = await exactlyOne('ACCESS_CHANGED', () =>
        http()
          .put('/api/users/disableUser')
          .set(as('SITE_ADMIN'))
          .send({ userId: target.id, isDisabled: true })
          .expect(200),
      );
      expect(JSON.parse(access.changes!)).toEqual({ disabled: { from: false, to: true } });
      // A request that changes nothing records nothing.
      const from = await mark();
      await http()
        .put('/api/users/disableUser')
        .set(as('SITE_ADMIN'))
        .send({ userId: target.id, isDisabled: true })
        .expect(200);
      expect(await since(from)).toEqual([]);

      await t.db
        .query('UPDATE organisations SET "isSSOEnabled" = ? WHERE id = ?', [true, m.org.id])
        .catch(() => t.db.query('UPDATE organisations SET "isSSOEnabled" = $1 WHERE id = $2', [true, m.org.id]));
      const sso = await exactlyOne('SSO_CHANGED', () =>
        http()
          .put('/api/users/updateSsoStatus')
          .set(as('SITE_ADMIN'))
          .send({ userId: target.id, isSSOEnabled: true })
          .expect(200),
      );
      expect(sso).toMatchObject({ ...targetOf(target), summary: `SSO enabled for ${email}` });
    });

    it('organisation created, E-Support account created, announcement published (by E-Support)', async () => {
      const support = m.byRole.E_SUPPORT.user;
      const code = `AUD${Date.now().toString(36)}`.toUpperCase().slice(0, 25);
      const org = await exactlyOne('ORGANISATION_CREATED', () =>
        http()
          .post('/auth/site-admin')
          .set(as('E_SUPPORT'))
          .send({
            userEmail: `admin-${code.toLowerCase()}@new.example.com`,
            organizationName: `Audited ${code}`,
            organizationCode: code,
            allowedUsersNumber: 3,
            maxConcurrentUsers: 2,
            maxPortfolios: 0,
            masterTaxManagerApplicationIds: [],
            masterCorporateActionsApplicationIds: [2],
            userRoleIds: [2],
            accountType: 'Organization',
          })
          .expect(201),
      );
      expect(org).toMatchObject({ ...actorOf(support), targetEmail: `admin-${code.toLowerCase()}@new.example.com` });
      expect(org.organisationId).toBe(org.targetOrganisationId);

      const esupport = await exactlyOne('ESUPPORT_CREATED', () =>
        http()
          .post('/api/users/add-esupport')
          .set(as('E_SUPPORT'))
          .send({ userName: `helper${Date.now()}` })
          .expect(201),
      );
      expect(esupport).toMatchObject({ ...actorOf(support), organisationId: m.vendor.id });

      const published = await exactlyOne('ANNOUNCEMENT_PUBLISHED', () =>
        http()
          .post('/api/announcements')
          .set(as('E_SUPPORT'))
          .send({ title: 'Maintenance', content: 'Sunday', organisationId: m.org.id })
          .expect(201),
      );
      expect(published).toMatchObject({ ...actorOf(support), organisationId: m.org.id });
    });

    it('billing contact saved (created and updated, with the changed fields) and logo saved', async () => {
      const created = await exactlyOne('BILLING_CONTACT_SAVED', () =>
        http()
          .post('/api/billingInformation')
          .set(as('STANDARD_ADMIN'))
          .send({ fullName: 'Ada Lovelace', email: 'ada@example.com' })
          .expect(201),
      );
      expect(created).toMatchObject({
        ...actorOf(m.byRole.STANDARD_ADMIN.user),
        organisationId: m.org.id,
        summary: 'Billing contact saved',
      });
      const id = (await http().get('/api/billingInformation/byMasterAccountId').set(as('SITE_ADMIN'))).body.id;
      const updated = await exactlyOne('BILLING_CONTACT_SAVED', () =>
        http()
          .put('/api/billingInformation')
          .set(as('SITE_ADMIN'))
          .send({ id, fullName: 'Grace Hopper', email: 'ada@example.com' })
          .expect(200),
      );
      expect(JSON.parse(updated.changes!)).toEqual({ fullName: { from: 'Ada Lovelace', to: 'Grace Hopper' } });

      const { body } = await http()
        .post('/api/logo/get-upload-url')
        .set(as('SITE_ADMIN'))
        .send({ fileName: 'logo.png', fileSize: PNG_BYTES.length, mimeType: 'image/png' })
        .expect(200);
      await http().put(body.uploadUrl).set('Content-Type', 'image/png').send(PNG_BYTES).expect(200);
      const logo = await exactlyOne('LOGO_SAVED', () =>
        http().post('/api/logo/save').set(as('SITE_ADMIN')).send({ logoPath: body.logoPath }).expect(200),
      );
      expect(logo).toMatchObject({ ...actorOf(m.byRole.SITE_ADMIN.user), organisationId: m.org.id });
    });

    it("a change that fails leaves no event (the event is in the change's transaction)", async () => {
      const from = await mark();
      await http()
        .post('/api/users/add')
        .set(as('SITE_ADMIN'))
        .send({ userEmail: m.byRole.ANALYST.user.email })
        .expect(409);
      expect(await since(from)).toEqual([]);
    });
  });

  describe('GET /api/audit-events', () => {
    it('is for E-Support, site admin and administrator; others 403; without a token 401', async () => {
      expect(await statusesFor(m, (a) => http().get('/api/audit-events').set(a.session.auth))).toEqual(
        expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'], 200),
      );
      expect(await statusesFor(m, (a) => http().get('/api/audit-events/export').set(a.session.auth))).toEqual(
        expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'], 200),
      );
      await http().get('/api/audit-events').expect(401);
      await http().get('/api/audit-events/export').expect(401);
    });

    it("shows an organisation only its own events; E-Support sees every organisation's", async () => {
      const mine = await http().get('/api/audit-events').query({ pageSize: 100 }).set(as('SITE_ADMIN')).expect(200);
      expect(mine.body.totalRecords).toBeGreaterThan(0);
      expect(mine.body.items.every((e: { organisationId: number }) => e.organisationId === m.org.id)).toBe(true);

      const theirs = await http()
        .get('/api/audit-events')
        .query({ pageSize: 100 })
        .set(m.otherOrgAdmin.session.auth)
        .expect(200);
      expect(theirs.body.items.length).toBeGreaterThan(0);
      expect(theirs.body.items.every((e: { organisationId: number }) => e.organisationId === m.otherOrg.id)).toBe(true);
      // Filters naming another organisation's people find nothing.
      const probe = await http()
        .get('/api/audit-events')
        .query({ actorId: m.byRole.SITE_ADMIN.user.id })
        .set(m.otherOrgAdmin.session.auth)
        .expect(200);
      expect(probe.body).toMatchObject({ items: [], totalRecords: 0 });
      const csv = await http().get('/api/audit-events/export').set(m.otherOrgAdmin.session.auth).expect(200);
      expect(csv.text).not.toContain(m.byRole.SITE_ADMIN.user.email);

      const all = await http().get('/api/audit-events').query({ pageSize: 100 }).set(as('E_SUPPORT')).expect(200);
      const orgs = new Set(all.body.items.map((e: { organisationId: number }) => e.organisationId));
      expect(orgs.has(m.org.id) && orgs.has(m.otherOrg.id)).toBe(true);
    });

    it('pages newest first and filters by type, actor, target, text and dates', async () => {
      const auth = as('SITE_ADMIN');
      const page1 = await http().get('/api/audit-events').query({ pageSize: 25 }).set(auth).expect(200);
      const ids = page1.body.items.map((e: { id: number }) => e.id);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      const page2 = await http().get('/api/audit-events').query({ pageSize: 25, page: 2 }).set(auth).expect(200);
      if (page2.body.items.length) expect(page2.body.items[0].id).toBeLessThan(ids[ids.length - 1]);

      const roles = await http().get('/api/audit-events').query({ type: 'ROLE_CHANGED' }).set(auth).expect(200);
      expect(roles.body.totalRecords).toBe(1);
      const byActor = await http()
        .get('/api/audit-events')
        .query({ actorId: m.byRole.ADMINISTRATOR.user.id })
        .set(auth)
        .expect(200);
      expect(byActor.body.items.every((e: { actorId: number }) => e.actorId === m.byRole.ADMINISTRATOR.user.id)).toBe(
        true,
      );
      const target = roles.body.items[0].targetId;
      const byTarget = await http().get('/api/audit-events').query({ targetId: target }).set(auth).expect(200);
      expect(byTarget.body.items.map((e: { type: string }) => e.type).sort()).toEqual([
        'ACCESS_CHANGED',
        'ROLE_CHANGED',
        'SSO_CHANGED',
        'USER_CREATED',
      ]);
      const text = await http()
        .get('/api/audit-events')
        .query({ searchText: 'ANALYST → viewer' })
        .set(auth)
        .expect(200);
      expect(text.body.totalRecords).toBe(1);
      const wild = await http().get('/api/audit-events').query({ searchText: '%' }).set(auth).expect(200);
      expect(wild.body.totalRecords).toBe(0);

      const today = new Date().toISOString().slice(0, 10);
      const todays = await http().get('/api/audit-events').query({ from: today, to: today }).set(auth).expect(200);
      expect(todays.body.totalRecords).toBe(page1.body.totalRecords);
      const future = await http().get('/api/audit-events').query({ from: '2999-01-01' }).set(auth).expect(200);
      expect(future.body.totalRecords).toBe(0);
    });

    it('refuses bad filters with 400', async () => {
      for (const query of [
        { type: 'NOPE' },
        { from: 'yesterday' },
        { pageSize: 7 },
        { actorId: 'x' },
        { unknown: 1 },
      ]) {
        await http().get('/api/audit-events').query(query).set(as('SITE_ADMIN')).expect(400);
      }
    });
  });

  describe('CSV exports', () => {
    it('GET /api/audit-events/export: BOM, header, the filtered rows, formula cells defused', async () => {
      await http()
        .post('/api/primaryBillingInformation')
        .set(as('SITE_ADMIN'))
        .send({ fullName: '=HYPERLINK("http://evil","x")' })
        .expect(201);
      const res = await http()
        .get('/api/audit-events/export')
        .query({ type: 'BILLING_CONTACT_SAVED' })
        .set(as('SITE_ADMIN'))
        .buffer(true)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
      expect(res.text.startsWith(UTF8_BOM)).toBe(true);
      const lines = res.text.slice(1).trim().split('\r\n');
      expect(lines[0]).toBe(
        'id,occurredAt,type,actorKind,actorId,actorEmail,actorOrganisationId,targetId,targetEmail,targetOrganisationId,ip,userAgent,summary,changes,onBehalfOfId,onBehalfOfEmail,supportAccessId',
      );
      expect(lines.slice(1).every((l) => l.includes(',BILLING_CONTACT_SAVED,'))).toBe(true);
      expect(lines).toHaveLength(4);
    });

    it('GET /api/audit-events/export: addresses as the pages show them (IPv4 without the IPv6 mapping), times in ISO 8601', async () => {
      const at = new Date('2026-03-04T05:06:07.000Z');
      const recorded = (ip: string, summary: string) =>
        events().save(
          events().create({
            occurredAt: at,
            type: 'SESSION_EXPIRED',
            organisationId: m.org.id,
            actorKind: 'anonymous',
            ip,
            summary,
          }),
        );
      const mapped = await recorded('::ffff:198.51.100.4', 'csv-address-mapped');
      const v6 = await recorded('2001:db8::4', 'csv-address-v6');
      const res = await http()
        .get('/api/audit-events/export')
        .query({ type: 'SESSION_EXPIRED', searchText: 'csv-address' })
        .set(as('SITE_ADMIN'))
        .buffer(true)
        .expect(200);
      const row = (id: number) => res.text.split('\r\n').find((l) => l.startsWith(`${id},`))!;
      expect(row(mapped.id)).toMatch(
        /^\d+,2026-03-04T05:06:07\.000Z,SESSION_EXPIRED,anonymous,,,,,,,198\.51\.100\.4,,csv-address-mapped,,,,$/,
      );
      expect(row(v6.id)).toContain(',2001:db8::4,');
      expect(res.text).not.toContain('::ffff:');
      // The API keeps what was recorded: integrations read it.
      const list = await http()
        .get('/api/audit-events')
        .query({ type: 'SESSION_EXPIRED', searchText: 'csv-address' })
        .set(as('SITE_ADMIN'))
        .expect(200);
      expect(list.body.items.map((e: { ip: string }) => e.ip).sort()).toEqual(['2001:db8::4', '::ffff:198.51.100.4']);
    });

    it('GET /api/users/export: the list readers only; the list filters; another organisation 404', async () => {
      expect(
        await statusesFor(m, (a, code) =>
          http()
            .get('/api/users/export')
            .query(code === 'E_SUPPORT' ? { organisationId: m.org.id } : {})
            .set(a.session.auth),
        ),
      ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR', 'STANDARD_ADMIN'], 200));
      await http().get('/api/users/export').expect(401);
      await http()
        .get('/api/users/export')
        .query({ organisationId: m.org.id })
        .set(m.otherOrgAdmin.session.auth)
        .expect(404);

      await createUser(t, m.org, {
        firstName: '=cmd|',
        lastName: 'Formula',
        email: `formula-${Date.now()}@example.com`,
      });
      const res = await http().get('/api/users/export').set(as('SITE_ADMIN')).buffer(true).expect(200);
      expect(res.text.startsWith(UTF8_BOM)).toBe(true);
      const lines = res.text.slice(1).trim().split('\r\n');
      expect(lines[0]).toBe('id,email,firstName,lastName,roles,access,mfaEnforced,mfaEnabled,sso,lastLogin');
      expect(lines.some((l) => l.includes(`,"'=cmd|",Formula,`))).toBe(true);
      expect(res.text).not.toContain(m.otherOrgAdmin.user.email);

      const analysts = await http()
        .get('/api/users/export')
        .query({ role: Role.ANALYST })
        .set(as('SITE_ADMIN'))
        .buffer(true)
        .expect(200);
      const rows = analysts.text.slice(1).trim().split('\r\n').slice(1);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((l) => l.includes(',Analyst,'))).toBe(true);
    });

    it('streams an export of more rows than one batch', async () => {
      const repo = events();
      const rows = Array.from({ length: 2500 }, (_, i) => ({
        occurredAt: new Date(Date.now() - i * 1000),
        type: 'LOGO_SAVED' as const,
        organisationId: m.otherOrg.id,
        actorKind: 'service' as const,
        summary: `bulk ${i}`,
      }));
      for (let i = 0; i < rows.length; i += 500) await repo.insert(rows.slice(i, i + 500));
      const res = await http()
        .get('/api/audit-events/export')
        .query({ searchText: 'bulk ' })
        .set(m.otherOrgAdmin.session.auth)
        .buffer(true)
        .expect(200);
      const lines = res.text.slice(1).trim().split('\r\n').slice(1);
      expect(lines).toHaveLength(2500);
      expect(new Set(lines.map((l) => l.split(',')[0])).size).toBe(2500);
      expect(lines[0]).toContain('bulk 0');
      expect(lines[2499]).toContain('bulk 2499');
    });

    it('counts up to 10,000 matching events, then says there are more (totalIsCapped); the export still holds them all', async () => {
      const repo = events();
      const more = Array.from({ length: 7600 }, (_, i) => ({
        occurredAt: new Date(Date.now() - (3000 + i) * 1000),
        type: 'LOGO_SAVED' as const,
        organisationId: m.otherOrg.id,
        actorKind: 'service' as const,
        summary: `bulk more ${i}`,
      }));
      for (let i = 0; i < more.length; i += 500) await repo.insert(more.slice(i, i + 500));
      const page = await http()
        .get('/api/audit-events')
        .query({ searchText: 'bulk ', pageSize: 25 })
        .set(m.otherOrgAdmin.session.auth)
        .expect(200);
      expect(page.body).toMatchObject({ totalRecords: 10_000, totalIsCapped: true });
      const exact = await http()
        .get('/api/audit-events')
        .query({ searchText: 'bulk more 1' })
        .set(m.otherOrgAdmin.session.auth)
        .expect(200);
      expect(exact.body.totalIsCapped).toBe(false);
      const res = await http()
        .get('/api/audit-events/export')
        .query({ searchText: 'bulk ' })
        .set(m.otherOrgAdmin.session.auth)
        .buffer(true)
        .expect(200);
      expect(res.text.slice(1).trim().split('\r\n')).toHaveLength(10_101);
    });
  });

  it('retention: the purge deletes only events older than AUDIT_RETENTION_DAYS', async () => {
    const old = await events().save(
      events().create({
        occurredAt: new Date(Date.now() - 400 * 86_400_000),
        type: 'LOGOUT',
        organisationId: m.org.id,
        actorKind: 'anonymous',
        summary: 'old',
      }),
    );
    const recent = await events().save(
      events().create({
        occurredAt: new Date(Date.now() - 300 * 86_400_000),
        type: 'LOGOUT',
        organisationId: m.org.id,
        actorKind: 'anonymous',
        summary: 'recent',
      }),
    );
    const purged = await t.app.get(RetentionService).purge();
    expect(purged!.auditEvents).toBeGreaterThanOrEqual(1);
    expect(await events().existsBy({ id: old.id })).toBe(false);
    expect(await events().existsBy({ id: recent.id })).toBe(true);
  });
});

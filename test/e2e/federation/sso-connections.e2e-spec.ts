import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { OutboxMessage } from '../../../src/platform/mail/entities/outbox-message.entity';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { Role } from '../../../src/shared/roles';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, fromResponse } from '../../utils/factories';
import { createRoleMatrix, RoleMatrix } from '../../utils/roles';
import { ResponseOptions, startTestIdp, TestIdp } from '../../utils/identity-providers/saml-idp';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';
import { expected, statusesFor } from '../../utils/users';

let serial = 0;
const uniqueDomain = () => `corp${++serial}-${Date.now().toString(36)}.example`;

describe('SSO connections API (docs/product-rules.md §6)', () => {
  let t: TestApp;
  let m: RoleMatrix;
  let idp: TestIdp;

  beforeAll(async () => {
    t = await createTestApp();
    m = await createRoleMatrix(t);
    idp = await startTestIdp('crud');
  }, 180_000);
  afterAll(() => t?.close());

  const samlBody = (name = 'Entra ID') => ({ protocol: 'saml', name, metadataXml: idp.metadataXml });
  const oidcBody = {
    protocol: 'oidc',
    name: 'Okta',
    issuer: 'https://acme.okta.com',
    clientId: 'portal',
    clientSecret: 'the-client-secret-1',
  };

  async function connectionOf(org: Organisation, body: object = samlBody()): Promise<SsoConnection> {
    const res = await request(t.http)
      .post(`/api/sso-connections?organisationId=${org.id}`)
      .set(m.byRole.E_SUPPORT.session.auth)
      .send(body)
      .expect(201);
    return t.db.getRepository(SsoConnection).findOneByOrFail({ id: res.body.id });
  }

  it('lets site admins, administrators and E-Support read; site admins and E-Support write', async () => {
    await connectionOf(m.org);
    expect(await statusesFor(m, (a) => request(t.http).get('/api/sso-connections').set(a.session.auth))).toEqual(
      expected(['E_SUPPORT', 'SITE_ADMIN', 'ADMINISTRATOR'], 200),
    );
    expect(
      await statusesFor(m, (a) => request(t.http).post('/api/sso-connections').set(a.session.auth).send(samlBody())),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 201));
    expect(
      await statusesFor(m, async (a) =>
        request(t.http)
          .put(`/api/sso-connections/${(await connectionOf(m.org)).id}`)
          .set(a.session.auth)
          .send({ name: 'Renamed' }),
      ),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
    expect(
      await statusesFor(m, async (a) =>
        request(t.http)
          .delete(`/api/sso-connections/${(await connectionOf(m.org)).id}`)
          .set(a.session.auth),
      ),
    ).toEqual(expected(['E_SUPPORT', 'SITE_ADMIN'], 200));
    await request(t.http).get('/api/sso-connections').expect(401);
  });

  it("keeps organisations apart: another organisation's connection is a 404, and stays as it was", async () => {
    const mine = await connectionOf(m.org);
    const other = m.otherOrgAdmin.session.auth;
    expectErrorBody(await request(t.http).put(`/api/sso-connections/${mine.id}`).set(other).send({ name: 'x' }), 404);
    expectErrorBody(await request(t.http).delete(`/api/sso-connections/${mine.id}`).set(other), 404);
    expectErrorBody(await request(t.http).get(`/api/sso-connections?organisationId=${m.org.id}`).set(other), 404);
    expectErrorBody(
      await request(t.http).post(`/api/sso-connections?organisationId=${m.org.id}`).set(other).send(samlBody()),
      404,
    );
    const list = await request(t.http).get('/api/sso-connections').set(other).expect(200);
    expect(list.body.map((c: { id: number }) => c.id)).not.toContain(mine.id);
    expect((await t.db.getRepository(SsoConnection).findOneByOrFail({ id: mine.id })).name).toBe(mine.name);
    // E-Support works on any organisation, by ?organisationId=.
    const support = await request(t.http)
      .get(`/api/sso-connections?organisationId=${m.org.id}`)
      .set(m.byRole.E_SUPPORT.session.auth)
      .expect(200);
    expect(support.body.map((c: { id: number }) => c.id)).toContain(mine.id);
  });

  it('stores the client secret encrypted and never answers it; SAML answers its SP addresses', async () => {
    const res = await request(t.http)
      .post('/api/sso-connections')
      .set(m.byRole.SITE_ADMIN.session.auth)
      .send(oidcBody)
      .expect(201);
    expect(JSON.stringify(res.body)).not.toContain(oidcBody.clientSecret);
    expect(res.body).toMatchObject({
      protocol: 'oidc',
      issuer: 'https://acme.okta.com',
      clientId: 'portal',
      hasClientSecret: true,
      jitProvisioning: false,
      enabled: true,
    });
    const row = await t.db.getRepository(SsoConnection).findOneByOrFail({ id: res.body.id });
    expect(row.oidcClientSecret).not.toContain(oidcBody.clientSecret);
    const listed = await request(t.http)
      .get('/api/sso-connections')
      .set(m.byRole.ADMINISTRATOR.session.auth)
      .expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(oidcBody.clientSecret);

    const saml = await request(t.http)
      .post('/api/sso-connections')
      .set(m.byRole.SITE_ADMIN.session.auth)
      .send(samlBody())
      .expect(201);
    expect(saml.body).toMatchObject({
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      spMetadataUrl: `http://portal.test/auth/saml/${saml.body.id}/metadata`,
      acsUrl: `http://portal.test/auth/saml/${saml.body.id}/acs`,
    });
    const metadata = await request(t.http).get(`/auth/saml/${saml.body.id}/metadata`).expect(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.text).toContain(`entityID="http://portal.test/auth/saml/${saml.body.id}/metadata"`);
    expect(metadata.text).toContain(`Location="http://portal.test/auth/saml/${saml.body.id}/acs"`);
    await request(t.http).get(`/auth/saml/${res.body.id}/metadata`).expect(404);
  });

  it('refuses bad input with the error body and changes nothing', async () => {
    const before = await t.db.getRepository(SsoConnection).count();
    const auth = m.byRole.SITE_ADMIN.session.auth;
    const bad: object[] = [
      {},
      { protocol: 'ldap', name: 'x' },
      { protocol: 'saml', name: 'x' },
      { protocol: 'saml', name: 'x', metadataXml: '<not-metadata/>' },
      {
        protocol: 'saml',
        name: 'x',
        metadataXml: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
      },
      { protocol: 'saml', name: 'x', metadataXml: idp.metadataXml, issuer: 'https://x.test' },
      { ...oidcBody, issuer: 'javascript:alert(1)' },
      { ...oidcBody, issuer: 'http://plain.example' },
      { ...oidcBody, clientSecret: undefined },
      { ...oidcBody, metadataXml: idp.metadataXml },
      { ...oidcBody, defaultRoleId: Role.SITE_ADMIN },
      { ...oidcBody, name: '' },
      { ...oidcBody, jitProvisioning: 'yes' },
    ];
    for (const body of bad)
      expectErrorBody(await request(t.http).post('/api/sso-connections').set(auth).send(body), 400);
    expect(await t.db.getRepository(SsoConnection).count()).toBe(before);
    const c = await connectionOf(m.org);
    expectErrorBody(
      await request(t.http).put(`/api/sso-connections/${c.id}`).set(auth).send({ issuer: 'https://x.test' }),
      400,
    );
    expectErrorBody(
      await request(t.http).put(`/api/sso-connections/${c.id}`).set(auth).send({ metadataXml: 'nope' }),
      400,
    );
    expectErrorBody(await request(t.http).put('/api/sso-connections/0').set(auth).send({}), 400);
    expect(await t.db.getRepository(SsoConnection).findOneByOrFail({ id: c.id })).toEqual(c);
  });

  it('leaves an audit event for every change, without the secret', async () => {
    const auth = m.byRole.SITE_ADMIN.session.auth;
    // The tests above used up part of the organisation's allowance of connections.
    await t.db.getRepository(SsoConnection).delete({ organisationId: m.org.id });
    const created = await request(t.http).post('/api/sso-connections').set(auth).send(oidcBody).expect(201);
    await request(t.http)
      .put(`/api/sso-connections/${created.body.id}`)
      .set(auth)
      .send({ jitProvisioning: true, defaultRoleId: Role.VIEWER, clientSecret: 'another-secret-22' })
      .expect(200);
    await request(t.http).delete(`/api/sso-connections/${created.body.id}`).set(auth).expect(200);
    const events = await t.db
      .getRepository(AuditEvent)
      .find({ where: { actorId: m.byRole.SITE_ADMIN.user.id }, order: { id: 'ASC' } });
    const types = events.map((e) => e.type);
    expect(types.slice(-3)).toEqual(['SSO_CONNECTION_CREATED', 'SSO_CONNECTION_CHANGED', 'SSO_CONNECTION_REMOVED']);
    const changed = events[events.length - 2];
    expect(changed.organisationId).toBe(m.org.id);
    const changes: unknown = typeof changed.changes === 'string' ? JSON.parse(changed.changes) : changed.changes;
    expect(changes).toMatchObject({
      jitProvisioning: { from: false, to: true },
      defaultRoleId: { from: null, to: Role.VIEWER },
    });
    expect(JSON.stringify(events)).not.toMatch(/another-secret-22|the-client-secret-1/);
  });

  it('caps the connections of an organisation under parallel additions', async () => {
    const org = await createOrganisation(t);
    const results = await Promise.all(
      Array.from({ length: 24 }, () =>
        request(t.http)
          .post(`/api/sso-connections?organisationId=${org.id}`)
          .set(m.byRole.E_SUPPORT.session.auth)
          .send(samlBody()),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    expect(await t.db.getRepository(SsoConnection).countBy({ organisationId: org.id })).toBe(20);
  });
});

describe('SAML 2.0 sign-in through an organisation connection (docs/product-rules.md §6)', () => {
  let t: TestApp;
  let idp: TestIdp;

  beforeAll(async () => {
    t = await createTestApp();
    idp = await startTestIdp('saml');
  }, 180_000);
  afterAll(() => t?.close());

  async function setup(options: { jit?: boolean; withSlo?: boolean; org?: Partial<Organisation> } = {}) {
    const org = await createOrganisation(t, options.org);
    const domain = uniqueDomain();
    await verifyDomain(t, org, domain);
    const provider = options.withSlo === false ? await startTestIdp('noslo', false) : idp;
    const c = await t.db.getRepository(SsoConnection).save(
      t.db.getRepository(SsoConnection).create({
        organisationId: org.id,
        protocol: 'saml',
        name: 'Corporate ADFS',
        enabled: true,
        jitProvisioning: options.jit ?? false,
        defaultRoleId: options.jit ? Role.ANALYST : null,
        samlMetadataXml: provider.metadataXml,
        samlEntityId: provider.entityId,
        samlSsoUrl: provider.ssoUrl,
        samlSloUrl: provider.sloUrl ?? null,
        samlCertificates: [/<ds:X509Certificate>([^<]+)</.exec(provider.metadataXml)![1]],
      }),
    );
    const audience = `http://portal.test/auth/saml/${c.id}/metadata`;
    const acsUrl = `http://portal.test/auth/saml/${c.id}/acs`;
    return { org, domain, c, audience, acsUrl, provider };
  }

  /** GET /auth/sso/{id}: the browser is sent to the IdP with an AuthnRequest. */
  async function begin(connectionId: number, provider: TestIdp = idp) {
    const start = await request(t.http).get(`/auth/sso/${connectionId}?login_hint=someone%40x.test`).expect(302);
    expect(start.headers.location.startsWith(`${provider.ssoUrl}?`)).toBe(true);
    return provider.readRequest(start.headers.location);
  }

  const post = (connectionId: number, samlResponse: string) =>
    request(t.http).post(`/auth/saml/${connectionId}/acs`).type('form').send({ SAMLResponse: samlResponse });

  function expectSignedIn(res: request.Response) {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    return fromResponse(res);
  }
  function expectRefused(res: request.Response, text?: string) {
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
    if (text) expect(decodeURIComponent(res.headers.location)).toContain(text);
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => /^refreshToken=[^;]/.test(c))).toBe(
      false,
    );
  }

  it('signs in an account of a verified domain with a signed assertion or a signed response, and ends on /', async () => {
    const { org, domain, c, audience, acsUrl } = await setup();
    const user = await createUser(t, org, { email: `ann@${domain}`, passwordHash: null });
    for (const sign of ['assertion', 'response'] as const) {
      const req = await begin(c.id);
      expect(req.acsUrl).toBe(acsUrl);
      expect(req.issuer).toBe(audience);
      const res = await post(
        c.id,
        idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: `persistent-ann`, email: user.email, sign }),
      );
      const { cookie } = expectSignedIn(res);
      const refreshed = await request(t.http).post('/refresh').set('Cookie', cookie).expect(200);
      const me = await request(t.http)
        .get('/api/users/current')
        .set('Authorization', `Bearer ${refreshed.body.newAccessToken}`)
        .expect(200);
      expect(me.body.email).toBe(user.email);
    }
    const events = await t.db.getRepository(AuditEvent).findBy({ targetId: user.id, type: 'SSO_SIGN_IN' });
    expect(events).toHaveLength(2);
  });

  it('steps up at the IdP with ForceAuthn: the session marked only by a fresh authentication of the linked person, once', async () => {
    const { org, domain, c, audience, acsUrl } = await setup();
    const user = await createUser(t, org, { email: `sue@${domain}`, passwordHash: null, roleId: Role.SITE_ADMIN });
    const other = await createUser(t, org, { email: `tom@${domain}`, passwordHash: null });
    const signIn = async (who: User, nameId: string) => {
      const req = await begin(c.id);
      const { cookie } = expectSignedIn(
        await post(c.id, idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId, email: who.email })),
      );
      return (await request(t.http).post('/refresh').set('Cookie', cookie).expect(200)).body.newAccessToken as string;
    };
    await signIn(other, 'persistent-tom');
    const token = await signIn(user, 'persistent-sue');
    const auth = { Authorization: `Bearer ${token}` };
    const sid = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
    const at = new Date(Date.now() - 61 * 60_000);
    await t.db.getRepository(Session).update({ id: sid }, { createdAt: at, authenticatedAt: at });
    expect((await request(t.http).get('/api/users/export').set(auth)).body.code).toBe('STEP_UP_REQUIRED');

    /** POST /auth/step-up/sso, the redirect to the IdP, and the IdP's answer: where the browser lands. */
    async function stepUpWith(answer: Partial<ResponseOptions>) {
      const { url } = (
        await request(t.http).post('/auth/step-up/sso').set(auth).send({ returnTo: '/users' }).expect(200)
      ).body as { url: string };
      expect(url.startsWith(`/auth/sso/${c.id}?prompt=login&stepUp=`)).toBe(true);
      const start = await request(t.http).get(url).expect(302);
      const req = idp.readRequest(start.headers.location);
      expect(req.forceAuthn).toBe(true);
      expect(req.relayState).toMatch(/^[\w-]{22}$/);
      const response = idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: 'persistent-sue', ...answer });
      const end = await request(t.http)
        .post(`/auth/saml/${c.id}/acs`)
        .type('form')
        .send({ SAMLResponse: response, RelayState: req.relayState });
      expect(end.status).toBe(302);
      expect(([] as string[]).concat(end.headers['set-cookie'] ?? []).some((x) => /^refreshToken=[^;]/.test(x))).toBe(
        false,
      );
      return { location: end.headers.location as string, response, relayState: req.relayState! };
    }
    const refusal = (location: string) => new URL(location, 'http://x').searchParams.get('stepUpError');

    // Another person at the IdP, and an authentication older than the step-up, mark nothing.
    expect(refusal((await stepUpWith({ nameId: 'persistent-tom' })).location)).toContain('another account');
    expect(refusal((await stepUpWith({ authnInstant: -300 })).location)).toContain('sign in again');
    expect((await request(t.http).get('/api/users/export').set(auth)).status).toBe(403);

    const done = await stepUpWith({});
    expect(done.location).toBe('/users?stepUp=done');
    await request(t.http).get('/api/users/export').set(auth).expect(200);
    // Its RelayState and assertion are used up: the same answer again is an ordinary (replayed) sign-in, refused.
    const again = await request(t.http)
      .post(`/auth/saml/${c.id}/acs`)
      .type('form')
      .send({ SAMLResponse: done.response, RelayState: done.relayState });
    expectRefused(again);
  });

  it("refuses another organisation's user and an unverified domain, and audits it in both organisations", async () => {
    const { org, domain, c, audience, acsUrl } = await setup();
    const otherOrg = await createOrganisation(t);
    const otherDomain = uniqueDomain();
    await verifyDomain(t, otherOrg, otherDomain);
    const victim = await createUser(t, otherOrg, { email: `victim@${otherDomain}` });
    let req = await begin(c.id);
    expectRefused(
      await post(
        c.id,
        idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: 'x-victim', email: victim.email }),
      ),
      'cannot sign in your account',
    );
    // The same e-mail domain as ours, but an account of another organisation (moved there by support).
    const moved = await createUser(t, otherOrg, { email: `moved@${domain}` });
    req = await begin(c.id);
    expectRefused(
      await post(c.id, idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: 'x-moved', email: moved.email })),
    );
    // An account of our organisation, but with a domain the organisation has not verified.
    const unverified = await createUser(t, org, { email: `dan@unverified-${domain}` });
    req = await begin(c.id);
    expectRefused(
      await post(
        c.id,
        idp.respond({ inResponseTo: req.id, acsUrl, audience, nameId: 'x-dan', email: unverified.email }),
      ),
      'not verified',
    );
    const refusals = await t.db.getRepository(AuditEvent).findBy({ type: 'SSO_SIGN_IN_REFUSED', targetId: victim.id });
    expect(refusals.map((e) => e.organisationId).sort()).toEqual([org.id, otherOrg.id].sort());
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'SSO_SIGN_IN', targetId: victim.id })).toBe(0);
  });

  it('creates a just-in-time account only when the connection allows it, with its default role, and tells the admins', async () => {
    const off = await setup();
    let req = await begin(off.c.id);
    expectRefused(
      await post(
        off.c.id,
        idp.respond({
          inResponseTo: req.id,
          acsUrl: off.acsUrl,
          audience: off.audience,
          nameId: 'n-1',
          email: `new@${off.domain}`,
        }),
      ),
      'no account',
    );
    expect(await t.db.getRepository(User).countBy({ email: `new@${off.domain}` })).toBe(0);

    const on = await setup({ jit: true });
    const admin = await createUser(t, on.org, { roleId: Role.SITE_ADMIN });
    req = await begin(on.c.id);
    expectSignedIn(
      await post(
        on.c.id,
        idp.respond({
          inResponseTo: req.id,
          acsUrl: on.acsUrl,
          audience: on.audience,
          nameId: 'n-2',
          email: `new@${on.domain}`,
        }),
      ),
    );
    const created = await t.db.getRepository(User).findOneByOrFail({ email: `new@${on.domain}` });
    expect(created).toMatchObject({
      organisationId: on.org.id,
      roleId: Role.ANALYST,
      isSSO: true,
      passwordHash: null,
      isAdministrator: false,
    });
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'USER_CREATED', targetId: created.id })).toBe(1);
    const mails = await t.db.getRepository(OutboxMessage).findBy({ to: admin.email });
    expect(mails.some((mail) => mail.subject.includes(created.email))).toBe(true);
    // The next sign-in finds the account by its subject, whatever e-mail is asserted then.
    req = await begin(on.c.id);
    expectSignedIn(
      await post(
        on.c.id,
        idp.respond({
          inResponseTo: req.id,
          acsUrl: on.acsUrl,
          audience: on.audience,
          nameId: 'n-2',
          email: `renamed@${on.domain}`,
        }),
      ),
    );
    expect(await t.db.getRepository(User).countBy({ organisationId: on.org.id })).toBe(2);
  });

  it('creates one just-in-time account under parallel first logins against a one-slot limit', async () => {
    const s = await setup({ jit: true, org: { allowedUsersNumber: 2 } });
    await createUser(t, s.org, { roleId: Role.SITE_ADMIN });
    const responses = [];
    for (let i = 0; i < 6; i++) {
      const req = await begin(s.c.id);
      responses.push(
        idp.respond({
          inResponseTo: req.id,
          acsUrl: s.acsUrl,
          audience: s.audience,
          nameId: `p-${i}`,
          email: `p${i}@${s.domain}`,
        }),
      );
    }
    const results = await Promise.all(responses.map((r) => post(s.c.id, r)));
    expect(results.filter((r) => r.headers.location === '/')).toHaveLength(1);
    expect(results.filter((r) => /ssoError=/.test(r.headers.location))).toHaveLength(5);
    expect(await t.db.getRepository(User).countBy({ organisationId: s.org.id })).toBe(2);
  });

  it('makes one account of parallel first logins of the same person', async () => {
    const s = await setup({ jit: true });
    const responses = [];
    for (let i = 0; i < 4; i++) {
      const req = await begin(s.c.id);
      responses.push(
        idp.respond({
          inResponseTo: req.id,
          acsUrl: s.acsUrl,
          audience: s.audience,
          nameId: 'same-person',
          email: `same@${s.domain}`,
        }),
      );
    }
    const results = await Promise.all(responses.map((r) => post(s.c.id, r)));
    expect(results.map((r) => r.headers.location)).toEqual(['/', '/', '/', '/']);
    expect(await t.db.getRepository(User).countBy({ email: `same@${s.domain}` })).toBe(1);
  });

  it("logs out of the IdP too: its single logout service, else the organisation's SSO logout URL", async () => {
    const withSlo = await setup();
    const user = await createUser(t, withSlo.org, { email: `eve@${withSlo.domain}` });
    let req = await begin(withSlo.c.id);
    let signedIn = expectSignedIn(
      await post(
        withSlo.c.id,
        idp.respond({
          inResponseTo: req.id,
          acsUrl: withSlo.acsUrl,
          audience: withSlo.audience,
          nameId: 'eve',
          email: user.email,
          sessionIndex: '_idp-session-1',
        }),
      ),
    );
    let token = (await request(t.http).post('/refresh').set('Cookie', signedIn.cookie).expect(200)).body.newAccessToken;
    let out = await request(t.http).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
    expect(out.body.logoutUrl.startsWith(`${idp.sloUrl}?SAMLRequest=`)).toBe(true);
    expect(decodeURIComponent(out.body.logoutUrl)).not.toContain(user.email);

    const noSlo = await setup({ withSlo: false, org: { ssoLogoutUrl: 'https://intranet.example/signed-out' } });
    const other = await createUser(t, noSlo.org, { email: `fay@${noSlo.domain}` });
    req = await begin(noSlo.c.id, noSlo.provider);
    signedIn = expectSignedIn(
      await post(
        noSlo.c.id,
        noSlo.provider.respond({
          inResponseTo: req.id,
          acsUrl: noSlo.acsUrl,
          audience: noSlo.audience,
          nameId: 'fay',
          email: other.email,
        }),
      ),
    );
    token = (await request(t.http).post('/refresh').set('Cookie', signedIn.cookie).expect(200)).body.newAccessToken;
    out = await request(t.http).post('/auth/logout').set('Authorization', `Bearer ${token}`).expect(200);
    expect(out.body).toEqual({ success: true, logoutUrl: 'https://intranet.example/signed-out' });
    await request(t.http).post('/refresh').set('Cookie', signedIn.cookie).expect(401);
  });

  it('refuses a disabled connection, an unknown one, and a SAML post to an OIDC connection', async () => {
    const s = await setup();
    await t.db.getRepository(SsoConnection).update({ id: s.c.id }, { enabled: false });
    expectRefused(await request(t.http).get(`/auth/sso/${s.c.id}`), 'not available');
    expectRefused(await request(t.http).get('/auth/sso/999999'));
    expectErrorBody(await request(t.http).get('/auth/sso/abc'), 400);
    expectErrorBody(await request(t.http).post(`/auth/saml/${s.c.id}/acs`).type('form').send({}), 400);
    expectRefused(await post(s.c.id, 'bm90IHhtbA=='));
  });
});

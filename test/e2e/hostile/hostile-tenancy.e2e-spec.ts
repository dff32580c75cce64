import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { ACCOUNT_MESSAGES } from '../../../src/shared/messages';
import { Role } from '../../../src/shared/roles';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { siteAdminPayload } from '../../utils/org-admin';
import { ResponseOptions, startTestIdp, TestIdp } from '../../utils/identity-providers/saml-idp';
import {
  ERROR_SCHEMA,
  patchOp,
  provisioningToken,
  scimClient,
  ScimClient,
  scimUser,
} from '../../utils/identity-providers/scim';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';

let serial = 0;
const uniq = () => `${++serial}-${Date.now().toString(36)}`;

/**
 * A verified domain belongs to its organisation (docs/sso.md, docs/api.md 'E-mail addresses'): organisation A tries
 * every way it has of creating or renaming an account into an address on organisation B's verified domain, through
 * its directory token, its site admin's pages and its own identity provider. Each is refused with one answer that
 * is the same whether or not B has an account at that address, and B can add the person afterwards.
 */
describe('Hostile tenancy: addresses on another organisation’s verified domain', () => {
  let t: TestApp;
  let idp: TestIdp;
  let a: { org: Organisation; auth: { Authorization: string }; scim: ScimClient; domain: string; c: SsoConnection };
  let b: { org: Organisation; auth: { Authorization: string }; scim: ScimClient; domain: string };
  let support: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp();
    idp = await startTestIdp('tenancy');
    const organisation = async () => {
      const org = await createOrganisation(t);
      const admin = await createUser(t, org, { roleId: Role.SITE_ADMIN });
      const auth = (await login(t, admin.email)).auth;
      const domain = `tenant-${uniq()}.example`;
      await verifyDomain(t, org, domain);
      const { token } = await provisioningToken(t, org, 'Directory', auth);
      return { org, auth, domain, scim: scimClient(t, token) };
    };
    const first = await organisation();
    const c = await t.db.getRepository(SsoConnection).save(
      t.db.getRepository(SsoConnection).create({
        organisationId: first.org.id,
        protocol: 'saml',
        name: 'A corporate login',
        enabled: true,
        jitProvisioning: true,
        defaultRoleId: Role.VIEWER,
        samlMetadataXml: idp.metadataXml,
        samlEntityId: idp.entityId,
        samlSsoUrl: idp.ssoUrl,
        samlSloUrl: idp.sloUrl ?? null,
        samlCertificates: [/<ds:X509Certificate>([^<]+)</.exec(idp.metadataXml)![1]],
      }),
    );
    a = { ...first, c };
    b = await organisation();
    const vendor = await t.db.getRepository(Organisation).findOneByOrFail({ isVendor: true });
    support = (await login(t, (await createUser(t, vendor, { roleId: Role.E_SUPPORT })).email)).auth;
  }, 180_000);
  afterAll(() => t?.close());

  /** An address on B's domain that B holds, and one nobody holds. */
  async function addressesOnB(): Promise<{ held: string; free: string }> {
    const held = await createUser(t, b.org, { email: `held-${uniq()}@${b.domain}` });
    return { held: held.email, free: `free-${uniq()}@${b.domain}` };
  }

  /** What a refusal tells its reader: status and body, the request id aside. */
  const told = (res: request.Response) => ({ status: res.status, body: { ...res.body, requestId: undefined } });

  async function accountsOfA(): Promise<string[]> {
    return (await t.db.getRepository(User).findBy({ organisationId: a.org.id })).map((u) => u.email);
  }

  function expectRefusedAlike(held: request.Response, free: request.Response) {
    expect(told(held)).toEqual(told(free));
  }

  it('SCIM create: 409 without uniqueness, the same for an address B holds and one nobody holds', async () => {
    const { held, free } = await addressesOnB();
    const forHeld = await a.scim.post('/Users', scimUser(held));
    const forFree = await a.scim.post('/Users', scimUser(free));
    expectRefusedAlike(forHeld, forFree);
    expect(forFree.status).toBe(409);
    expect(forFree.body).toMatchObject({
      schemas: [ERROR_SCHEMA],
      status: '409',
      detail: ACCOUNT_MESSAGES.EMAIL_UNAVAILABLE,
    });
    expect(forFree.body.scimType).toBeUndefined();
    expect(await accountsOfA()).not.toContain(free);
    // The directory's own duplicate is still a uniqueness conflict it can match.
    const own = `own-${uniq()}@${a.domain}`;
    await a.scim.post('/Users', scimUser(own)).expect(201);
    expect((await a.scim.post('/Users', scimUser(own))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it.each(['PATCH', 'PUT'])(
    'SCIM %s rename into B’s domain: refused alike, the account keeps its address',
    async (how) => {
      const created = await a.scim.post('/Users', scimUser(`mover-${uniq()}@${a.domain}`)).expect(201);
      const id = created.body.id as string;
      const rename = (userName: string) =>
        how === 'PATCH'
          ? a.scim.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'userName', value: userName }))
          : a.scim.put(`/Users/${id}`, scimUser(userName));
      const { held, free } = await addressesOnB();
      const forHeld = await rename(held);
      const forFree = await rename(free);
      expectRefusedAlike(forHeld, forFree);
      expect(forFree.status).toBe(409);
      expect(forFree.body.scimType).toBeUndefined();
      expect((await t.db.getRepository(User).findOneByOrFail({ id: Number(id) })).email).toBe(created.body.userName);
    },
  );

  it('Create User by A’s site admin: 409 EMAIL_UNAVAILABLE alike, nothing created', async () => {
    const { held, free } = await addressesOnB();
    const add = (userEmail: string) => request(t.http).post('/api/users/add').set(a.auth).send({ userEmail });
    const forHeld = await add(held);
    const forFree = await add(free);
    expectRefusedAlike(forHeld, forFree);
    expectErrorBody(forFree, 409);
    expect(forFree.body).toMatchObject({ code: 'EMAIL_UNAVAILABLE', message: ACCOUNT_MESSAGES.EMAIL_UNAVAILABLE });
    expect(await accountsOfA()).not.toContain(free);
  });

  it('Create Site Admin of a new organisation on B’s domain: refused, no organisation left behind', async () => {
    const free = `newco-${uniq()}@${b.domain}`;
    const organisations = await t.db.getRepository(Organisation).count();
    const res = await request(t.http)
      .post('/auth/site-admin')
      .set(support)
      .send(siteAdminPayload({ userEmail: free }));
    expectErrorBody(res, 409);
    expect(res.body.code).toBe('EMAIL_UNAVAILABLE');
    expect(await t.db.getRepository(Organisation).count()).toBe(organisations);
  });

  it('just-in-time through A’s provider: refused alike, no account', async () => {
    const { held, free } = await addressesOnB();
    const audience = `http://portal.test/auth/saml/${a.c.id}/metadata`;
    const acsUrl = `http://portal.test/auth/saml/${a.c.id}/acs`;
    const signIn = async (email: string) => {
      const start = await request(t.http).get(`/auth/sso/${a.c.id}`).expect(302);
      const req = idp.readRequest(start.headers.location);
      const answer: ResponseOptions = { inResponseTo: req.id, acsUrl, audience, nameId: `n-${uniq()}`, email };
      return request(t.http)
        .post(`/auth/saml/${a.c.id}/acs`)
        .type('form')
        .send({ SAMLResponse: idp.respond(answer) });
    };
    const forHeld = await signIn(held);
    const forFree = await signIn(free);
    expect(forFree.status).toBe(302);
    expect(forFree.headers.location).toMatch(/^\/logIn\?ssoError=/);
    expect(forHeld.headers.location).toBe(forFree.headers.location);
    expect(await accountsOfA()).not.toContain(free);
  });

  it('B adds the person afterwards, even while A tries the same address in parallel', async () => {
    const free = `person-${uniq()}@${b.domain}`;
    const results = await Promise.all([
      a.scim.post('/Users', scimUser(free)),
      request(t.http).post('/api/users/add').set(a.auth).send({ userEmail: free }),
      b.scim.post('/Users', scimUser(free)),
      a.scim.post('/Users', scimUser(free)),
      request(t.http).post('/api/users/add').set(a.auth).send({ userEmail: free }),
    ]);
    expect(results.map((r) => r.status)).toEqual([409, 409, 201, 409, 409]);
    const person = await t.db.getRepository(User).findOneByOrFail({ email: free });
    expect(person.organisationId).toBe(b.org.id);
    const second = `second-${uniq()}@${b.domain}`;
    await request(t.http).post('/api/users/add').set(b.auth).send({ userEmail: second }).expect(201);
  });
});

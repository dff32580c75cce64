import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { Role } from '../../../src/shared/roles';
import { safeReturnPath } from '../../../src/shared/identity/return-path';
import { createOrganisation, createUser, fromResponse, LoggedIn } from '../../utils/factories';
import { HostileOidcProvider, startHostileOidcProvider } from '../../utils/identity-providers/hostile-oidc-provider';
import { startTestIdp, TestIdp } from '../../utils/identity-providers/saml-idp';
import { samlConnection, verifyDomain } from '../../utils/identity-providers/sso';
import { ageSession } from '../../utils/step-up';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * Open-redirect attempts the product withstands (docs/security.md, "Attacks the product withstands"): every
 * parameter that says where the browser goes next (the login page's returnTo, the SSO start, the step-up's
 * returnTo through both protocols, logout and the SAML logout return) is given values that look like a path of
 * this site but resolve elsewhere once dot segments, encodings, backslashes or control characters are read the way
 * browsers read them. Wherever the browser lands, it is a path of PUBLIC_URL.
 */
const PUBLIC_URL = 'http://portal.test';
const EVIL = 'evil.example';

/** Values that must never take anyone off the site. */
const HOSTILE: string[] = [
  `/..//${EVIL}`,
  `/../..//${EVIL}`,
  `/users/..//..//${EVIL}`,
  `/%2e%2e//${EVIL}`,
  `/.%2e//${EVIL}`,
  `/%2E%2E/%2e%2e//${EVIL}`,
  `/users/%2e%2e/%2e%2e//${EVIL}`,
  `/%2f%2f${EVIL}`,
  `/%2F/${EVIL}`,
  `/%5c${EVIL}`,
  `/%5C%5C${EVIL}`,
  `/\\${EVIL}`,
  `/\\/${EVIL}`,
  `\\\\${EVIL}`,
  `/users\\..\\..\\\\${EVIL}`,
  `//${EVIL}`,
  `///${EVIL}`,
  `https:${EVIL}`,
  `https:/${EVIL}`,
  `https://${EVIL}/`,
  `/\t/${EVIL}`,
  `/\n/${EVIL}`,
  `/\r\n/${EVIL}`,
  `/%09/${EVIL}`,
  `/%0d%0aLocation:%20https://${EVIL}`,
  'javascript:alert(document.domain)',
];

/** Where the browser lands is a path of this site: no scheme, no host, nothing a browser reads as either. */
function expectOnSite(location: string) {
  expect(location.startsWith('/')).toBe(true);
  expect(location.startsWith('//')).toBe(false);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  expect(location).not.toMatch(/[\\\u0000-\u001f\u007f]/);
  expect(new URL(location, PUBLIC_URL).origin).toBe(PUBLIC_URL);
  expect(location).not.toContain(EVIL);
}

describe('Hostile redirect parameters', () => {
  let t: TestApp;
  let idp: TestIdp;
  let oidc: HostileOidcProvider;

  beforeAll(async () => {
    [idp, oidc] = await Promise.all([startTestIdp('redirects'), startHostileOidcProvider()]);
    t = await createTestApp({
      SSO_ALLOW_PRIVATE_NETWORKS: 'true',
      OIDC_ISSUER: oidc.issuer,
      OIDC_CLIENT_ID: 'portal-default',
      OIDC_CLIENT_SECRET: 'default-client-secret-0123456789ab',
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await oidc?.stop();
  });

  const refresh = async (res: request.Response): Promise<LoggedIn> => {
    expect(res.headers.location).toBe('/');
    const accessToken = (await request(t.http).post('/refresh').set('Cookie', fromResponse(res).cookie).expect(200))
      .body.newAccessToken as string;
    return { accessToken, cookie: '', auth: { Authorization: `Bearer ${accessToken}` } };
  };

  /** A site admin signed in through a SAML connection, the sign-in an hour old: sensitive calls need a step-up. */
  async function samlSession() {
    const org = await createOrganisation(t);
    const domain = `redirects-${Date.now().toString(36)}.example`;
    await verifyDomain(t, org, domain);
    const conn = await samlConnection(t, org, idp);
    const user = await createUser(t, org, { email: `sam@${domain}`, passwordHash: null, roleId: Role.SITE_ADMIN });
    const start = await request(t.http).get(`/auth/sso/${conn.c.id}`).expect(302);
    const answer = idp.respond({
      inResponseTo: idp.readRequest(start.headers.location).id,
      acsUrl: conn.acsUrl,
      audience: conn.audience,
      nameId: 'persistent-sam',
      email: user.email,
    });
    const s = await refresh(
      await request(t.http).post(`/auth/saml/${conn.c.id}/acs`).type('form').send({ SAMLResponse: answer }),
    );
    await ageSession(t, s, 61);
    return { org, user, s, ...conn };
  }

  /** An SSO account of the deployment-wide provider, signed in an hour ago. */
  async function oidcSession() {
    const org = await createOrganisation(t, { isSSOEnabled: true });
    const user = await createUser(t, org, { isSSO: true, passwordHash: null, roleId: Role.SITE_ADMIN });
    const start = await request(t.http).get('/auth/sso').expect(302);
    const cookie = transactionCookie(start);
    const s = await refresh(
      await request(t.http).get(oidc.authorize(start.headers.location, user.email)).set('Cookie', cookie),
    );
    await ageSession(t, s, 61);
    return { org, user, s };
  }

  const transactionCookie = (res: request.Response) =>
    ([] as string[])
      .concat(res.headers['set-cookie'])
      .find((c) => c.startsWith('ssoTransaction='))!
      .split(';')[0];

  /** POST /auth/step-up/sso with `returnTo`: the start URL, or null when the value is refused outright (4xx). */
  async function stepUpStart(s: LoggedIn, returnTo: string): Promise<string | null> {
    const res = await request(t.http).post('/auth/step-up/sso').set(s.auth).send({ returnTo });
    if (res.status === 400) return null;
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^\/auth\/sso(\/\d+)?\?prompt=login&stepUp=/);
    return res.body.url as string;
  }

  describe('the step-up returnTo, to the end of a real round trip', () => {
    let saml: Awaited<ReturnType<typeof samlSession>>;
    let viaOidc: Awaited<ReturnType<typeof oidcSession>>;
    beforeAll(async () => {
      saml = await samlSession();
      viaOidc = await oidcSession();
    });

    /** The SAML step-up through the organisation's connection: where the browser lands after the IdP. */
    async function throughSaml(returnTo: string): Promise<string | null> {
      const url = await stepUpStart(saml.s, returnTo);
      if (url === null) return null;
      const start = await request(t.http).get(url).expect(302);
      const req = idp.readRequest(start.headers.location);
      const answer = idp.respond({
        inResponseTo: req.id,
        acsUrl: saml.acsUrl,
        audience: saml.audience,
        nameId: 'persistent-sam',
        email: saml.user.email,
      });
      const end = await request(t.http)
        .post(`/auth/saml/${saml.c.id}/acs`)
        .type('form')
        .send({ SAMLResponse: answer, RelayState: req.relayState });
      expect(end.status).toBe(302);
      return end.headers.location as string;
    }

    /** The OIDC step-up through the deployment-wide provider: where the browser lands after the callback. */
    async function throughOidc(returnTo: string): Promise<string | null> {
      const url = await stepUpStart(viaOidc.s, returnTo);
      if (url === null) return null;
      const start = await request(t.http).get(url).expect(302);
      const end = await request(t.http)
        .get(oidc.authorize(start.headers.location, viaOidc.user.email))
        .set('Cookie', transactionCookie(start));
      expect(end.status).toBe(302);
      return end.headers.location as string;
    }

    it.each([
      ['SAML', (v: string) => throughSaml(v)],
      ['OIDC', (v: string) => throughOidc(v)],
    ])('%s: a path of this site comes back as it was, dot segments resolved', async (_p, through) => {
      expect(await through('/users?page=2')).toBe('/users?page=2&stepUp=done');
      expect(await through('/audit/../users')).toBe('/users?stepUp=done');
    });

    it.each(HOSTILE)('SAML: %j lands on the site root, stepped up', async (value) => {
      const location = await throughSaml(value);
      expect(location).not.toBeNull();
      expectOnSite(location!);
      expect(location).toBe('/?stepUp=done');
    });

    it.each(HOSTILE)('OIDC: %j lands on the site root, stepped up', async (value) => {
      const location = await throughOidc(value);
      expect(location).not.toBeNull();
      expectOnSite(location!);
      expect(location).toBe('/?stepUp=done');
    });
  });

  describe('the SSO start', () => {
    let conn: Awaited<ReturnType<typeof samlConnection>>;
    let org: Organisation;
    beforeAll(async () => {
      org = await createOrganisation(t);
      conn = await samlConnection(t, org, idp);
    });

    it.each(['returnTo', 'redirect', 'next', 'RelayState', 'redirect_uri'])(
      "a connection's start takes no %s: refused, or the browser goes to the IdP and nowhere else",
      async (name) => {
        for (const value of HOSTILE.slice(0, 8)) {
          const res = await request(t.http)
            .get(`/auth/sso/${conn.c.id}`)
            .query({ [name]: value });
          if (res.status === 400) continue;
          expect(res.status).toBe(302);
          expect(res.headers.location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
          expect(idp.readRequest(res.headers.location).acsUrl).toBe(conn.acsUrl);
          expect(idp.readRequest(res.headers.location).relayState ?? '').toBe('');
        }
      },
    );

    it.each(['returnTo', 'redirect', 'next', 'redirect_uri'])(
      "the deployment-wide start ignores %s: the provider's callback is always PUBLIC_URL/callback",
      async (name) => {
        for (const value of [...HOSTILE.slice(0, 8), `https://${EVIL}/callback`]) {
          const res = await request(t.http)
            .get('/auth/sso')
            .query({ [name]: value })
            .expect(302);
          const authorize = new URL(res.headers.location);
          expect(authorize.origin).toBe(oidc.issuer);
          expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/callback`);
        }
      },
    );

    it('a forged or foreign step-up ticket at the start goes back to the sign-in page', async () => {
      for (const ticket of [`//${EVIL}`, 'not-a-ticket']) {
        const res = await request(t.http).get('/auth/sso').query({ prompt: 'login', stepUp: ticket }).expect(302);
        expectOnSite(res.headers.location);
        expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
      }
    });
  });

  describe('logout', () => {
    it("logout takes no return address: the provider's own logout URL, never one of the request", async () => {
      const { s, c } = await samlSession();
      const res = await request(t.http)
        .post('/auth/logout')
        .query({ returnTo: `//${EVIL}`, redirect: `https://${EVIL}` })
        .set(s.auth)
        .send({});
      expect(res.status).toBe(200);
      if (res.body.logoutUrl) {
        const out = new URL(res.body.logoutUrl as string);
        expect(out.origin).toBe(new URL(idp.sloUrl!).origin);
        expect(res.body.logoutUrl).not.toContain(EVIL);
      }
      for (const value of HOSTILE.slice(0, 10)) {
        const back = await request(t.http)
          .get(`/auth/saml/${c.id}/slo`)
          .query({ RelayState: value, returnTo: value })
          .expect(302);
        expect(back.headers.location).toBe('/logIn');
      }
    });
  });

  describe("the login page's returnTo (the client applies this same rule, src/shared/identity/return-path.ts)", () => {
    it.each(HOSTILE)('%j is ignored', (value) => {
      expect(safeReturnPath(value, PUBLIC_URL)).toBeNull();
    });

    it('a path of this site is kept, normalised', () => {
      expect(safeReturnPath('/users?page=2#top', PUBLIC_URL)).toBe('/users?page=2#top');
      expect(safeReturnPath('/audit/%2e%2e/users', PUBLIC_URL)).toBe('/users');
    });
  });
});

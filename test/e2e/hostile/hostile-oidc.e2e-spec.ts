import { randomBytes } from 'node:crypto';
import { IsNull } from 'typeorm';
import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { encrypt } from '../../../src/platform/crypto/secrets';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Session } from '../../../src/identity/sessions/entities/session.entity';
import { SsoConnection } from '../../../src/identity/federation/entities/sso-connection.entity';
import { expectErrorBody } from '../../utils/error-body';
import { createOrganisation, createUser, fromResponse } from '../../utils/factories';
import {
  AuthorizationRequest,
  HostileOidcProvider,
  startHostileOidcProvider,
} from '../../utils/identity-providers/hostile-oidc-provider';
import { verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * Attacks on OpenID Connect sign-in the product withstands (docs/security.md, "Attacks the product withstands"),
 * through an organisation's connection and through the deployment-wide provider (OIDC_*) alike. The provider here
 * answers whatever ID token the test crafts; over plain http (SSO_ALLOW_PRIVATE_NETWORKS) nothing but the token's
 * signature vouches for it, so each one must be checked against the provider's published keys.
 */
let serial = 0;
const uniqueDomain = () => `oidc-hostile${++serial}-${Date.now().toString(36)}.example`;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

const ORG_CLIENT = { id: 'portal-org', secret: 'org-client-secret-0123456789abcdef' };
const DEFAULT_CLIENT = { id: 'portal-default', secret: 'default-client-secret-0123456789ab' };

describe('Hostile OpenID Connect answers', () => {
  let t: TestApp;
  let orgProvider: HostileOidcProvider;
  let defaultProvider: HostileOidcProvider;
  let otherProvider: HostileOidcProvider;

  beforeAll(async () => {
    [orgProvider, defaultProvider, otherProvider] = await Promise.all([
      startHostileOidcProvider(),
      startHostileOidcProvider(),
      startHostileOidcProvider(),
    ]);
    t = await createTestApp({
      SSO_ALLOW_PRIVATE_NETWORKS: 'true',
      OIDC_ISSUER: defaultProvider.issuer,
      OIDC_CLIENT_ID: DEFAULT_CLIENT.id,
      OIDC_CLIENT_SECRET: DEFAULT_CLIENT.secret,
    });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([orgProvider, defaultProvider, otherProvider].map((p) => p?.stop()));
  });
  afterEach(() => {
    for (const p of [orgProvider, defaultProvider, otherProvider]) {
      p.mint = (r) => p.idToken(r);
      p.userinfo = undefined;
    }
  });

  async function connection(org: Organisation, issuer = orgProvider.issuer): Promise<SsoConnection> {
    const repo = t.db.getRepository(SsoConnection);
    return repo.save(
      repo.create({
        organisationId: org.id,
        protocol: 'oidc',
        name: 'Hostile IdP',
        enabled: true,
        oidcIssuer: issuer,
        oidcClientId: ORG_CLIENT.id,
        oidcClientSecret: encrypt(ORG_CLIENT.secret, t.config.encryptionKey),
      }),
    );
  }

  /** A way in: an organisation's connection, or the deployment-wide provider. */
  interface Route {
    name: string;
    provider: () => HostileOidcProvider;
    clientSecret: string;
    /** A person who may sign in this way, and the URL that starts their sign-in. */
    person: () => Promise<{ user: User; start: string; org: Organisation }>;
  }
  const routes: Route[] = [
    {
      name: "an organisation's connection",
      provider: () => orgProvider,
      clientSecret: ORG_CLIENT.secret,
      async person() {
        const org = await createOrganisation(t);
        const domain = uniqueDomain();
        await verifyDomain(t, org, domain);
        const c = await connection(org);
        const user = await createUser(t, org, { email: `ada@${domain}`, passwordHash: null });
        return { user, org, start: `/auth/sso/${c.id}` };
      },
    },
    {
      name: 'the deployment-wide provider',
      provider: () => defaultProvider,
      clientSecret: DEFAULT_CLIENT.secret,
      async person() {
        const org = await createOrganisation(t, { isSSOEnabled: true });
        const user = await createUser(t, org, { isSSO: true, passwordHash: null });
        return { user, org, start: '/auth/sso' };
      },
    },
  ];

  /** Starts a sign-in: the provider's authorization URL and the transaction cookie our server set. */
  async function begin(start: string) {
    const res = await request(t.http).get(start).expect(302);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'])
      .find((c) => c.startsWith('ssoTransaction='))!
      .split(';')[0];
    return { authorizationUrl: res.headers.location as string, cookie };
  }

  const callback = (path: string, cookie: string) => request(t.http).get(path).set('Cookie', cookie);

  /** A whole round trip in which the provider answers `mint`'s ID token. */
  async function signInWith(
    route: Route,
    who: { user: User; start: string },
    mint?: (r: AuthorizationRequest, p: HostileOidcProvider) => Promise<string>,
    extra?: Record<string, string>,
  ) {
    const p = route.provider();
    if (mint) p.mint = (r) => mint(r, p);
    const { authorizationUrl, cookie } = await begin(who.start);
    return callback(p.authorize(authorizationUrl, who.user.email, extra), cookie);
  }

  const refreshCookieSet = (res: request.Response) =>
    ([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => /^refreshToken=[^;]/.test(c));

  function expectRefused(res: request.Response) {
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
    expect(refreshCookieSet(res)).toBe(false);
  }

  async function expectSignedInAs(res: request.Response, user: User) {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const token = (await request(t.http).post('/refresh').set('Cookie', fromResponse(res).cookie).expect(200)).body
      .newAccessToken;
    const me = await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${token}`).expect(200);
    expect(me.body.email).toBe(user.email);
  }

  const openSessions = (user: User) => t.db.getRepository(Session).countBy({ userId: user.id, endedAt: IsNull() });

  /** The claims of a valid token for `r`, for crafting. */
  const claimsFor = (r: AuthorizationRequest, p: HostileOidcProvider) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: p.issuer,
      aud: r.clientId,
      sub: `sub-${r.login}`,
      email: r.login,
      email_verified: true,
      nonce: r.nonce,
      iat: now,
      exp: now + 300,
      auth_time: now,
    };
  };

  describe.each(routes)('through $name', (route) => {
    it('a genuine, signed ID token signs in (the control every attack below is measured against)', async () => {
      const who = await route.person();
      await expectSignedInAs(await signInWith(route, who), who.user);
    });

    const crafted: Array<[string, (r: AuthorizationRequest, p: HostileOidcProvider) => Promise<string>]> = [
      ['alg "none", no signature', async (r, p) => `${b64({ alg: 'none' })}.${b64(claimsFor(r, p))}.`],
      [
        'HS256 signed with the client secret',
        async (r, p) => p.sign(claimsFor(r, p), 'HS256', new TextEncoder().encode(route.clientSecret)),
      ],
      [
        'signed by an unrelated key, under the published key id',
        async (r, p) => {
          const published = (await (await fetch(`${p.issuer}/jwks`)).json()) as { keys: Array<{ kid: string }> };
          return p.sign(claimsFor(r, p), 'RS256', await p.unrelatedKey(), published.keys[0].kid);
        },
      ],
      [
        'signed by an unrelated key, no key id',
        async (r, p) => p.sign(claimsFor(r, p), 'RS256', await p.unrelatedKey()),
      ],
      [
        'a garbage signature',
        async (r, p) => {
          const [h, c] = (await p.idToken(r)).split('.');
          return `${h}.${c}.${randomBytes(256).toString('base64url')}`;
        },
      ],
      [
        'claims changed after signing (a name added, everything else valid)',
        async (r, p) => {
          const [h, , s] = (await p.idToken(r)).split('.');
          return `${h}.${b64({ ...claimsFor(r, p), given_name: 'Mallory' })}.${s}`;
        },
      ],
      ['a wrong issuer', async (r, p) => p.idToken(r, { iss: 'https://other-idp.example' })],
      ['a wrong audience', async (r, p) => p.idToken(r, { aud: 'another-client' })],
      ['a wrong nonce', async (r, p) => p.idToken(r, { nonce: 'a-nonce-of-another-request' })],
      ['no nonce', async (r, p) => p.idToken(r, { nonce: undefined })],
      ['expired', async (r, p) => p.idToken(r, { exp: Math.floor(Date.now() / 1000) - 600 })],
    ];

    it.each(crafted)('an ID token with %s is refused', async (_name, mint) => {
      const who = await route.person();
      expectRefused(await signInWith(route, who, mint));
      expect(await openSessions(who.user)).toBe(0);
    });

    it('issuer mix-up: a token of another provider, signed by its own published key, is refused', async () => {
      const who = await route.person();
      // The other provider's genuine token (its issuer, its key) for this very request.
      expectRefused(await signInWith(route, who, (r) => otherProvider.idToken(r)));
      // Its own token, but the authorization response says it came from the other provider (RFC 9207 `iss`).
      expectRefused(await signInWith(route, who, undefined, { iss: otherProvider.issuer }));
      expect(await openSessions(who.user)).toBe(0);
    });

    it('nOAuth: an e-mail the provider has not verified signs nobody in', async () => {
      const who = await route.person();
      expectRefused(await signInWith(route, who, (r, p) => p.idToken(r, { email_verified: false })));
      // The same through userinfo, the ID token carrying no e-mail.
      expectRefused(
        await signInWith(route, who, async (r, p) => {
          p.userinfo = { sub: `sub-${r.login}`, email: r.login, email_verified: false };
          return p.idToken(r, { email: undefined, email_verified: undefined });
        }),
      );
      expect(await openSessions(who.user)).toBe(0);
    });

    it('a replayed transaction: the kept cookie cannot complete a second authorization, even in parallel', async () => {
      const who = await route.person();
      const p = route.provider();
      const { authorizationUrl, cookie } = await begin(who.start);
      await expectSignedInAs(await callback(p.authorize(authorizationUrl, who.user.email), cookie), who.user);
      // The provider answers the same request (state, nonce, PKCE challenge) with a fresh code: refused.
      expectRefused(await callback(p.authorize(authorizationUrl, who.user.email), cookie));
      expect(await openSessions(who.user)).toBe(1);

      const second = await begin(who.start);
      const results = await Promise.all(
        Array.from({ length: 4 }, () => callback(p.authorize(second.authorizationUrl, who.user.email), second.cookie)),
      );
      expect(results.filter((r) => r.headers.location === '/')).toHaveLength(1);
      expect(await openSessions(who.user)).toBe(2);
    });
  });

  it("nOAuth: a connection's verified e-mail outside its organisation's verified domains, or of another organisation's account, signs nobody in", async () => {
    const route = routes[0];
    const who = await route.person();
    const other = await createOrganisation(t);
    const otherDomain = uniqueDomain();
    await verifyDomain(t, other, otherDomain);
    const outsider = await createUser(t, other, { email: `outsider@${otherDomain}` });
    expectRefused(await signInWith(route, who, (r, p) => p.idToken(r, { email: outsider.email })));
    expectRefused(await signInWith(route, who, (r, p) => p.idToken(r, { email: `ada@unverified-${otherDomain}` })));
    expect(await openSessions(outsider)).toBe(0);
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'SSO_SIGN_IN', targetId: outsider.id })).toBe(0);
  });

  it('a provider whose discovery document names another issuer is not used (metadata impersonation)', async () => {
    const route = routes[0];
    const who = await route.person();
    orgProvider.metadataIssuer = otherProvider.issuer;
    try {
      const res = await request(t.http).get(who.start).expect(302);
      expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
    } finally {
      orgProvider.metadataIssuer = undefined;
    }
    await expectSignedInAs(await signInWith(route, who), who.user);
  });

  it("key rotation: a token signed by the provider's new key is accepted once the keys are read again, at most once a minute", async () => {
    const route = routes[0];
    const who = await route.person();
    await expectSignedInAs(await signInWith(route, who), who.user);
    const before = orgProvider.jwksFetches();
    await orgProvider.rotate();
    // Within a minute of the last read, an unknown key is not worth another request: refused, no fetch.
    expectRefused(await signInWith(route, who));
    expect(orgProvider.jwksFetches()).toBe(before);
    jest.useFakeTimers({
      doNotFake: [
        'nextTick',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
        'queueMicrotask',
        'hrtime',
        'performance',
      ],
      now: Date.now() + 61_000,
    });
    try {
      await expectSignedInAs(await signInWith(route, who), who.user);
      expect(orgProvider.jwksFetches()).toBe(before + 1);
    } finally {
      jest.useRealTimers();
    }
  });

  describe('back-channel logout tokens', () => {
    async function signedInThroughConnection() {
      const who = await routes[0].person();
      await expectSignedInAs(await signInWith(routes[0], who), who.user);
      const id = Number(who.start.split('/').pop());
      return { ...who, id };
    }
    const logoutClaims = (user: User) => {
      const now = Math.floor(Date.now() / 1000);
      return {
        iss: orgProvider.issuer,
        aud: ORG_CLIENT.id,
        sub: `sub-${user.email}`,
        iat: now,
        exp: now + 120,
        jti: randomBytes(8).toString('hex'),
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      };
    };
    const postLogout = (id: number, token: string) =>
      request(t.http).post(`/auth/sso/${id}/backchannel-logout`).type('form').send({ logout_token: token });

    it('alg "none", HS256 with the client secret, an unrelated key and a garbage signature end nothing', async () => {
      const { user, id } = await signedInThroughConnection();
      const published = (await (await fetch(`${orgProvider.issuer}/jwks`)).json()) as { keys: Array<{ kid: string }> };
      const kid = published.keys[0].kid;
      const [h, c] = (await orgProvider.signPublished(logoutClaims(user))).split('.');
      for (const token of [
        `${b64({ alg: 'none' })}.${b64(logoutClaims(user))}.`,
        await orgProvider.sign(logoutClaims(user), 'HS256', new TextEncoder().encode(ORG_CLIENT.secret)),
        await orgProvider.sign(logoutClaims(user), 'RS256', await orgProvider.unrelatedKey(), kid),
        `${h}.${c}.${randomBytes(256).toString('base64url')}`,
      ])
        expectErrorBody(await postLogout(id, token), 400);
      expect(await openSessions(user)).toBe(1);
      // The provider's own signature does end the session.
      await postLogout(id, await orgProvider.signPublished(logoutClaims(user))).expect(200);
      expect(await openSessions(user)).toBe(0);
    });
  });
});

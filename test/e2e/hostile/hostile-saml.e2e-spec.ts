import { DOMParser } from '@xmldom/xmldom';
import { createServer, Server } from 'node:http';
import request from 'supertest';
import { AuditEvent } from '../../../src/platform/audit/entities/audit-event.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { createOrganisation, createUser, fromResponse } from '../../utils/factories';
import { injectComment, withDoctype, WRAPPING_ATTACKS } from '../../utils/identity-providers/saml-attacks';
import { ResponseOptions, startTestIdp, TestIdp } from '../../utils/identity-providers/saml-idp';
import { samlConnection, verifyDomain } from '../../utils/identity-providers/sso';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * Attacks on SAML sign-in the product withstands (docs/security.md, "Attacks the product withstands"). The attacker
 * holds a genuine response of the organisation's IdP for their own account (eve) and rewrites it, replays it, or
 * sends it elsewhere, to be signed in as someone else (victim). Every attack ends on the sign-in page with the
 * reason, no session is opened, and nobody is signed in as the victim.
 */
let serial = 0;
const uniqueDomain = () => `hostile${++serial}-${Date.now().toString(36)}.example`;

describe('Hostile SAML responses', () => {
  let t: TestApp;
  let idp: TestIdp;

  beforeAll(async () => {
    t = await createTestApp();
    idp = await startTestIdp('hostile');
  }, 180_000);
  afterAll(() => t?.close());

  async function setup() {
    const org = await createOrganisation(t);
    const domain = uniqueDomain();
    await verifyDomain(t, org, domain);
    const conn = await samlConnection(t, org, idp);
    const eve = await createUser(t, org, { email: `eve@${domain}`, passwordHash: null });
    const victim = await createUser(t, org, { email: `victim@${domain}`, passwordHash: null });
    return { org, domain, ...conn, eve, victim };
  }
  type Setup = Awaited<ReturnType<typeof setup>>;

  /** GET /auth/sso/{id}: the AuthnRequest's id, which a response must answer. */
  async function begin(connectionId: number): Promise<string> {
    const start = await request(t.http).get(`/auth/sso/${connectionId}`).expect(302);
    return idp.readRequest(start.headers.location).id;
  }

  const post = (connectionId: number, samlResponse: string) =>
    request(t.http).post(`/auth/saml/${connectionId}/acs`).type('form').send({ SAMLResponse: samlResponse });

  /** eve's genuine response to a fresh request of the connection, with `options` changed. */
  async function genuine(s: Setup, options: Partial<ResponseOptions> = {}): Promise<string> {
    return idp.respond({
      inResponseTo: await begin(s.c.id),
      acsUrl: s.acsUrl,
      audience: s.audience,
      nameId: 'persistent-eve',
      email: s.eve.email,
      ...options,
    });
  }

  const refreshCookieSet = (res: request.Response) =>
    ([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => /^refreshToken=[^;]/.test(c));

  function expectRefused(res: request.Response, text?: string) {
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/logIn\?ssoError=/);
    if (text) expect(decodeURIComponent(res.headers.location)).toContain(text);
    expect(refreshCookieSet(res)).toBe(false);
  }

  /** Who the session of a successful sign-in belongs to. */
  async function signedInAs(res: request.Response): Promise<string> {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const { cookie } = fromResponse(res);
    const token = (await request(t.http).post('/refresh').set('Cookie', cookie).expect(200)).body.newAccessToken;
    return (await request(t.http).get('/api/users/current').set('Authorization', `Bearer ${token}`).expect(200)).body
      .email;
  }

  async function expectNobodySignedInAs(user: User) {
    expect(await t.db.getRepository(AuditEvent).countBy({ type: 'SSO_SIGN_IN', targetId: user.id })).toBe(0);
  }

  it('the genuine responses the attacks start from do sign eve in (signed response and signed assertion)', async () => {
    const s = await setup();
    for (const sign of ['response', 'assertion'] as const)
      expect(await signedInAs(await post(s.c.id, await genuine(s, { sign })))).toBe(s.eve.email);
  });

  describe('signature wrapping: the signed element kept intact, a forged one where the identity is read', () => {
    it.each(WRAPPING_ATTACKS.map((a) => [a.name, a] as const))('%s', async (_name, attack) => {
      const s = await setup();
      const forged = attack.rewrite(await genuine(s, { sign: attack.signs }), {
        email: s.victim.email,
        nameId: 'persistent-victim',
      });
      // The rewrite is what it claims: well-formed, the victim asserted, the genuine signature still in it.
      const xml = Buffer.from(forged, 'base64').toString();
      expect(xml).toContain(s.victim.email);
      expect(xml).toContain('SignatureValue');
      expect(
        new DOMParser({
          onError: () => {
            throw new Error('not well-formed');
          },
        }).parseFromString(xml, 'text/xml'),
      ).toBeTruthy();
      expectRefused(await post(s.c.id, forged));
      await expectNobodySignedInAs(s.victim);
      await expectNobodySignedInAs(s.eve);
    });
  });

  it('comment injection: a comment inside the signed NameID and e-mail is read as part of them, not as their end', async () => {
    const s = await setup();
    // eve's IdP account is "victim@<domain>.attacker.test"; the comment would cut it to the victim's address.
    const lookalike = `${s.victim.email}.attacker.test`;
    for (const sign of ['response', 'assertion'] as const) {
      const signed = await genuine(s, { sign, nameId: lookalike, email: lookalike });
      const res = await post(s.c.id, injectComment(signed, s.victim.email));
      expectRefused(res);
    }
    await expectNobodySignedInAs(s.victim);
  });

  it('an unsigned response, a tampered one, and one signed by a key that is not the connection’s', async () => {
    const s = await setup();
    expectRefused(await post(s.c.id, await genuine(s, { sign: 'none' })));
    expectRefused(await post(s.c.id, await genuine(s, { foreignKey: true })));
    expectRefused(await post(s.c.id, await genuine(s, { sign: 'response', foreignKey: true })));
    const xml = Buffer.from(await genuine(s), 'base64').toString();
    expectRefused(await post(s.c.id, Buffer.from(xml.split(s.eve.email).join(s.victim.email)).toString('base64')));
    await expectNobodySignedInAs(s.victim);
    await expectNobodySignedInAs(s.eve);
  });

  it("cross-connection: a response for one organisation's connection is refused at another's, same IdP", async () => {
    const a = await setup();
    const b = await setup();
    // The victim of organisation B, asserted by the shared IdP in an answer to A's request, posted to B.
    const forA = await genuine(a, { email: b.victim.email, nameId: 'persistent-victim' });
    expectRefused(await post(b.c.id, forA));
    // Addressed to B (audience, recipient, destination) but answering A's request: InResponseTo is A's.
    const answeringA = idp.respond({
      inResponseTo: await begin(a.c.id),
      acsUrl: b.acsUrl,
      audience: b.audience,
      nameId: 'persistent-victim',
      email: b.victim.email,
    });
    expectRefused(await post(b.c.id, answeringA));
    await expectNobodySignedInAs(b.victim);
  });

  it("cross-organisation: a connection never signs in another organisation's account, whatever its IdP asserts", async () => {
    const a = await setup();
    const other = await createOrganisation(t);
    const otherDomain = uniqueDomain();
    await verifyDomain(t, other, otherDomain);
    const outsider = await createUser(t, other, { email: `outsider@${otherDomain}` });
    expectRefused(
      await post(a.c.id, await genuine(a, { email: outsider.email, nameId: 'persistent-outsider' })),
      'cannot sign in your account',
    );
    // An account of the connection's organisation, on a domain it has not verified.
    const unverified = await createUser(t, a.org, { email: `pat@unverified-${a.domain}` });
    expectRefused(await post(a.c.id, await genuine(a, { email: unverified.email, nameId: 'x-pat' })), 'not verified');
    await expectNobodySignedInAs(outsider);
    await expectNobodySignedInAs(unverified);
  });

  it('replays: the same response twice, and the same assertion ID under a fresh request', async () => {
    const s = await setup();
    const response = await genuine(s);
    expect(await signedInAs(await post(s.c.id, response))).toBe(s.eve.email);
    expectRefused(await post(s.c.id, response));
    expect(await signedInAs(await post(s.c.id, await genuine(s, { assertionId: '_kept-assertion' })))).toBe(
      s.eve.email,
    );
    expectRefused(await post(s.c.id, await genuine(s, { assertionId: '_kept-assertion' })), 'used already');
    // Parallel posts of one response: exactly one signs in.
    const once = await genuine(s);
    const results = await Promise.all(Array.from({ length: 4 }, () => post(s.c.id, once)));
    expect(results.filter((r) => r.headers.location === '/')).toHaveLength(1);
  });

  it('an unsolicited response (answering no request of ours)', async () => {
    const s = await setup();
    expectRefused(await post(s.c.id, await genuine(s, { inResponseTo: '_never-asked' })));
    await expectNobodySignedInAs(s.eve);
  });

  it('validity windows: expired, not yet valid, beyond the minute of clock skew', async () => {
    const s = await setup();
    expectRefused(await post(s.c.id, await genuine(s, { notBefore: -900, notOnOrAfter: -300 })));
    expectRefused(await post(s.c.id, await genuine(s, { notBefore: 600, notOnOrAfter: 900 })));
    expectRefused(await post(s.c.id, await genuine(s, { notBefore: -600, notOnOrAfter: -90 })));
    expectRefused(await post(s.c.id, await genuine(s, { notBefore: 120, notOnOrAfter: 600 })));
    // Within the skew, both ways: accepted.
    expect(await signedInAs(await post(s.c.id, await genuine(s, { notBefore: 30, notOnOrAfter: 600 })))).toBe(
      s.eve.email,
    );
    expect(await signedInAs(await post(s.c.id, await genuine(s, { notBefore: -600, notOnOrAfter: -20 })))).toBe(
      s.eve.email,
    );
  });

  it('wrong audience and wrong recipient', async () => {
    const s = await setup();
    expectRefused(await post(s.c.id, await genuine(s, { audience: 'https://other-sp.test' })));
    expectRefused(await post(s.c.id, await genuine(s, { recipient: 'https://other-sp.test/acs' })));
  });

  describe('XML parser attacks', () => {
    let server: Server;
    let hits = 0;
    let origin = '';
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end('<!ENTITY stolen "victim@example">');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('XXE: an external entity (a local file, a URL) is never fetched nor expanded', async () => {
      const s = await setup();
      for (const [doctype, entity] of [
        ['<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', '&xxe;'],
        [`<!DOCTYPE r [<!ENTITY xxe SYSTEM "${origin}/entity">]>`, '&xxe;'],
        [`<!DOCTYPE r [<!ENTITY % remote SYSTEM "${origin}/dtd"> %remote;]>`, '&stolen;'],
        [`<!DOCTYPE r SYSTEM "${origin}/external.dtd">`, s.eve.email],
      ]) {
        const signed = await genuine(s);
        expectRefused(await post(s.c.id, withDoctype(signed, doctype, { replace: 'persistent-eve', by: entity })));
      }
      expect(hits).toBe(0);
      await expectNobodySignedInAs(s.eve);
    });

    it('entity expansion ("billion laughs"): refused at once, the server still answering', async () => {
      const s = await setup();
      const lol = ['<!ENTITY lol0 "lollollollollollollollollollol">'];
      for (let i = 1; i <= 9; i++) lol.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
      const bomb = withDoctype(await genuine(s), `<!DOCTYPE r [${lol.join('')}]>`, {
        replace: 'persistent-eve',
        by: '&lol9;',
      });
      const started = Date.now();
      expectRefused(await post(s.c.id, bomb));
      expect(Date.now() - started).toBeLessThan(5000);
      await request(t.http).get('/api/health').expect(200);
    });
  });

  describe('Destination (docs/decisions/saml-destination.md)', () => {
    it('a signed response without Destination is refused', async () => {
      const s = await setup();
      expectRefused(await post(s.c.id, await genuine(s, { sign: 'response', destination: null })));
      await expectNobodySignedInAs(s.eve);
    });

    it('a Destination other than this connection’s ACS is refused, whichever element is signed', async () => {
      const s = await setup();
      const other = await setup();
      for (const sign of ['response', 'assertion'] as const) {
        expectRefused(await post(s.c.id, await genuine(s, { sign, destination: 'https://other-sp.test/acs' })));
        expectRefused(await post(s.c.id, await genuine(s, { sign, destination: other.acsUrl })));
      }
      await expectNobodySignedInAs(s.eve);
    });

    it('an unsigned response around a signed assertion may leave Destination out: its Recipient is this ACS', async () => {
      const s = await setup();
      expect(await signedInAs(await post(s.c.id, await genuine(s, { sign: 'assertion', destination: null })))).toBe(
        s.eve.email,
      );
      expectRefused(
        await post(
          s.c.id,
          await genuine(s, { sign: 'assertion', destination: null, recipient: 'https://other-sp.test/acs' }),
        ),
      );
    });
  });
});

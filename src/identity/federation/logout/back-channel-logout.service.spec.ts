import { randomBytes } from 'node:crypto';
import { AuditEvent } from '../../../platform/audit/entities/audit-event.entity';
import { encrypt } from '../../../platform/crypto/secrets';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { Session } from '../../sessions/entities/session.entity';
import { SessionsService } from '../../sessions/sessions.service';
import { ERROR_CODES } from '../../../shared/messages';
import { createOrganisation, createUser } from '../../../../test/utils/factories';
import {
  HostileOidcProvider,
  startHostileOidcProvider,
} from '../../../../test/utils/identity-providers/hostile-oidc-provider';
import { refusalOf, SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { BackChannelLogoutService } from './back-channel-logout.service';
import { SsoConnection } from '../entities/sso-connection.entity';
import { SsoSession } from '../entities/sso-session.entity';
import { FederatedSignInService } from '../sign-in/federated-sign-in.service';
import { testSecret } from '../../../../test/utils/secrets';

const CLIENT_ID = 'portal-logout';

let provider: HostileOidcProvider;
beforeAll(async () => {
  provider = await startHostileOidcProvider();
});
afterAll(async () => {
  await provider.stop();
});

describe.each(SERVICE_DATABASES)('BackChannelLogoutService on %s', (database) => {
  // The provider listens on loopback over http.
  const t = serviceApp(database, { SSO_ALLOW_PRIVATE_NETWORKS: 'true' });
  const logout = () => t().app.get(BackChannelLogoutService);
  const client = { ip: '198.51.100.9', userAgent: 'provider' };
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

  async function connectionOf(org: Organisation, protocol: 'oidc' | 'saml' = 'oidc'): Promise<SsoConnection> {
    const repo = t().db.getRepository(SsoConnection);
    return repo.save(
      repo.create({
        organisationId: org.id,
        protocol,
        name: 'Corporate',
        enabled: true,
        oidcIssuer: provider.issuer,
        oidcClientId: CLIENT_ID,
        oidcClientSecret: encrypt(testSecret('client'), t().config.encryptionKey),
      }),
    );
  }

  /** A person signed in twice through `c` (two provider sessions), and the portal sessions that opened. */
  async function signedInTwice(c: SsoConnection, org: Organisation, domain: string) {
    const user = await createUser(t(), org, { email: `p-${uniq()}@${domain}` });
    const subject = `sub-${uniq()}`;
    for (const sid of ['sid-a', 'sid-b'])
      await t()
        .app.get(FederatedSignInService)
        .signIn(c, { subject, email: user.email, providerSessionId: sid }, client);
    const sessions = await t()
      .db.getRepository(Session)
      .find({ where: { userId: user.id }, order: { createdAt: 'ASC' } });
    return { user, subject, sessions };
  }
  async function organisation() {
    const org = await createOrganisation(t());
    const domain = `b${uniq()}.example`;
    await verifyDomain(t(), org, domain);
    return { org, domain, c: await connectionOf(org) };
  }
  const claims = (fields: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: provider.issuer,
      aud: CLIENT_ID,
      iat: now,
      exp: now + 120,
      jti: randomBytes(8).toString('hex'),
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      ...fields,
    };
  };
  const active = (s: Session) => t().app.get(SessionsService).isActive(s.id);

  it('ends the one provider session a sid names, and audits it once; the same token again is refused', async () => {
    const { org, domain, c } = await organisation();
    const { user, subject, sessions } = await signedInTwice(c, org, domain);
    const token = await provider.signPublished(claims({ sub: subject, sid: 'sid-a' }));
    await expect(logout().backChannelLogout(c.id, token, client)).resolves.toEqual({ success: true });
    expect(await active(sessions[0])).toBe(false);
    expect(await active(sessions[1])).toBe(true);
    expect(await refusalOf(logout().backChannelLogout(c.id, token, client))).toEqual({
      status: 400,
      code: ERROR_CODES.VALIDATION_FAILED,
    });
    expect(await t().db.getRepository(AuditEvent).countBy({ type: 'SSO_LOGOUT', targetId: user.id })).toBe(1);
  });

  it("ends every session of the subject when only sub is named, and nothing of another connection's", async () => {
    const { org, domain, c } = await organisation();
    const { subject, sessions } = await signedInTwice(c, org, domain);
    const other = await organisation();
    const elsewhere = await signedInTwice(other.c, other.org, other.domain);
    // The same subject at another connection of the same provider is another person.
    await t().db.getRepository(SsoSession).update({ connectionId: other.c.id }, { subject });
    await logout().backChannelLogout(c.id, await provider.signPublished(claims({ sub: subject })), client);
    expect(await Promise.all(sessions.map(active))).toEqual([false, false]);
    expect(await Promise.all(elsewhere.sessions.map(active))).toEqual([true, true]);
  });

  it('refuses a token signed by another key, for another audience, without the event, or with a nonce; nothing ends', async () => {
    const { org, domain, c } = await organisation();
    const { subject, sessions } = await signedInTwice(c, org, domain);
    const tokens = [
      await provider.sign(claims({ sub: subject }), 'RS256', await provider.unrelatedKey()),
      await provider.signPublished(claims({ sub: subject, aud: 'someone-else' })),
      await provider.signPublished(claims({ sub: subject, events: {} })),
      await provider.signPublished(claims({ sub: subject, nonce: 'n' })),
      await provider.signPublished(claims({})),
      'not-a-jwt',
    ];
    for (const token of tokens)
      expect(await refusalOf(logout().backChannelLogout(c.id, token, client))).toMatchObject({ status: 400 });
    expect(await refusalOf(logout().backChannelLogout(c.id, undefined, client))).toMatchObject({ status: 400 });
    expect(await Promise.all(sessions.map(active))).toEqual([true, true]);
  });

  it('is a 404 for a connection that does not exist or is not OpenID Connect', async () => {
    const { org } = await organisation();
    const saml = await connectionOf(org, 'saml');
    const token = await provider.signPublished(claims({ sub: 'x' }));
    expect(await refusalOf(logout().backChannelLogout(saml.id, token, client))).toMatchObject({ status: 404 });
    expect(await refusalOf(logout().backChannelLogout(999_999, token, client))).toMatchObject({ status: 404 });
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(0);
  });
});

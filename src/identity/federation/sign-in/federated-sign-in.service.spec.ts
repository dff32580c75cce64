import { AuditEvent } from '../../../platform/audit/entities/audit-event.entity';
import { decrypt } from '../../../platform/crypto/secrets';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { OutboxMessage } from '../../../platform/mail/entities/outbox-message.entity';
import { Session } from '../../sessions/entities/session.entity';
import { ERROR_CODES } from '../../../shared/messages';
import { Role } from '../../../shared/roles';
import { SSO_MESSAGES } from '../../../shared/identity/sso';
import { createOidcConnection, createOrganisation, createUser } from '../../../../test/utils/factories';
import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { SsoIdentity } from '../entities/sso-identity.entity';
import { SsoSession } from '../entities/sso-session.entity';
import { FederatedIdentity, FederatedSignInService } from './federated-sign-in.service';
import { testSecret } from '../../../../test/utils/secrets';

const ID_TOKEN = testSecret('id-token');

/** A refusal: status, code and the message the sign-in page shows; null when the call succeeded. */
function refusalOf(p: Promise<unknown>): Promise<{ status: number; code?: string; message: string } | null> {
  return p.then(
    () => null,
    (e: { getStatus(): number; getResponse(): { code?: string; message: string } }) => ({
      status: e.getStatus(),
      code: e.getResponse().code,
      message: e.getResponse().message,
    }),
  );
}

describe.each(SERVICE_DATABASES)('FederatedSignInService on %s', (database) => {
  const t = serviceApp(database);
  const federated = () => t().app.get(FederatedSignInService);
  const client = { ip: '203.0.113.2', userAgent: 'browser' };
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

  /** An organisation with a verified domain, a site admin, and an enabled connection. */
  async function federatedOrganisation(options: { jit?: boolean; overrides?: Partial<Organisation> } = {}) {
    const org = await createOrganisation(t(), options.overrides);
    const domain = `f${uniq()}.example`;
    await verifyDomain(t(), org, domain);
    const siteAdmin = await createUser(t(), org, { roleId: Role.SITE_ADMIN, email: `admin-${uniq()}@${domain}` });
    const c = await createOidcConnection(t(), org, {
      jitProvisioning: options.jit ?? false,
      defaultRoleId: options.jit ? Role.ANALYST : null,
    });
    return { org, domain, siteAdmin, c };
  }
  const identity = (email: string | undefined, fields: Partial<FederatedIdentity> = {}): FederatedIdentity => ({
    subject: `sub-${uniq()}`,
    email,
    firstName: 'Ann',
    lastName: 'Lee',
    ...fields,
  });
  const refusedEvents = (organisationId: number) =>
    t().db.getRepository(AuditEvent).countBy({ organisationId, type: 'SSO_SIGN_IN_REFUSED' });

  it('links an account of a verified domain at its first sign-in, then finds it by subject whatever its e-mail', async () => {
    const { org, domain, c } = await federatedOrganisation();
    const account = await createUser(t(), org, { email: `ann-${uniq()}@${domain}` });
    const who = identity(account.email.toUpperCase(), { providerSessionId: 'sid-1', idToken: ID_TOKEN });
    const signedIn = await federated().signIn(c, who, client);
    expect(signedIn.accessToken).toEqual(expect.any(String));
    expect(
      await t().db.getRepository(SsoIdentity).findOneBy({ connectionId: c.id, subject: who.subject }),
    ).toMatchObject({ userId: account.id });
    const session = await t()
      .db.getRepository(Session)
      .findOneOrFail({ where: { userId: account.id } });
    const sso = await t().db.getRepository(SsoSession).findOneByOrFail({ sessionId: session.id });
    expect(sso).toMatchObject({ connectionId: c.id, subject: who.subject, providerSessionId: 'sid-1' });
    expect(decrypt(sso.idToken!, t().config.encryptionKey)).toBe(ID_TOKEN);

    // The mailbox renamed at the provider: the subject still names the same account.
    await expect(federated().signIn(c, { ...who, email: `renamed@${domain}` }, client)).resolves.toBeDefined();
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(2);
  });

  it.each([
    ['no e-mail', undefined, {}, SSO_MESSAGES.NO_EMAIL],
    ['a malformed e-mail', 'ann@@DOMAIN', {}, SSO_MESSAGES.EMAIL_INVALID],
    [
      'an e-mail the provider has not verified',
      'ann@DOMAIN',
      { emailVerified: false },
      SSO_MESSAGES.EMAIL_NOT_VERIFIED,
    ],
    ['an unknown e-mail without just-in-time accounts', 'nobody@DOMAIN', {}, SSO_MESSAGES.NO_ACCOUNT],
  ])('refuses %s, audited, creating nothing', async (_label, email, fields, message) => {
    const { org, domain, c } = await federatedOrganisation();
    const who = identity(email?.replace('DOMAIN', domain), fields);
    expect(await refusalOf(federated().signIn(c, who, client))).toEqual({
      status: 403,
      code: ERROR_CODES.SSO_NOT_ALLOWED,
      message,
    });
    expect(await refusedEvents(org.id)).toBe(1);
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(1);
    expect(await t().db.getRepository(SsoIdentity).countBy({ connectionId: c.id })).toBe(0);
  });

  it("refuses another organisation's account with one answer, whether or not its domain is verified, audited in both", async () => {
    const mine = await federatedOrganisation({ jit: true });
    const theirs = await federatedOrganisation();
    const onTheirDomain = await createUser(t(), theirs.org, { email: `bob-${uniq()}@${theirs.domain}` });
    const onFreeDomain = await createUser(t(), theirs.org, { email: `carol-${uniq()}@free-${uniq()}.example` });
    const answers = await Promise.all(
      [onTheirDomain.email, `nobody-${uniq()}@${theirs.domain}`, onFreeDomain.email].map((email) =>
        refusalOf(federated().signIn(mine.c, identity(email), client)),
      ),
    );
    expect(answers).toEqual(
      Array(3).fill({ status: 403, code: ERROR_CODES.SSO_NOT_ALLOWED, message: SSO_MESSAGES.OTHER_ORGANISATION }),
    );
    expect(await refusedEvents(mine.org.id)).toBe(3);
    expect(await refusedEvents(theirs.org.id)).toBe(2);
    expect(await t().db.getRepository(User).countBy({ organisationId: mine.org.id })).toBe(1);
    // An address of a domain nobody verified is this organisation's to prove first.
    expect(await refusalOf(federated().signIn(mine.c, identity(`dan@free-${uniq()}.example`), client))).toMatchObject({
      message: SSO_MESSAGES.DOMAIN_NOT_VERIFIED,
    });
  });

  it('refuses a disabled account without linking a session to it', async () => {
    const { org, domain, c } = await federatedOrganisation();
    const account = await createUser(t(), org, { email: `off-${uniq()}@${domain}`, isDisabled: true });
    expect(await refusalOf(federated().signIn(c, identity(account.email), client))).toMatchObject({
      status: 403,
      code: ERROR_CODES.ACCOUNT_DISABLED,
    });
    expect(await t().db.getRepository(Session).countBy({ userId: account.id })).toBe(0);
  });

  it("creates a just-in-time account with the connection's role, tells the administrators, and makes one for parallel first sign-ins", async () => {
    const { org, domain, siteAdmin, c } = await federatedOrganisation({ jit: true });
    const who = identity(`new-${uniq()}@${domain}`);
    const results = await Promise.all([1, 2, 3].map(() => refusalOf(federated().signIn(c, who, client))));
    expect(results).toEqual([null, null, null]);
    const created = await t().db.getRepository(User).findBy({ email: who.email });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      organisationId: org.id,
      roleId: Role.ANALYST,
      isSSO: true,
      passwordHash: null,
      firstName: 'Ann',
    });
    expect(await t().db.getRepository(SsoIdentity).countBy({ connectionId: c.id, subject: who.subject })).toBe(1);
    expect(await t().db.getRepository(OutboxMessage).countBy({ to: siteAdmin.email })).toBe(1);
  });

  it('keeps just-in-time accounts inside the active-user limit under parallel first sign-ins', async () => {
    const { org, domain, c } = await federatedOrganisation({ jit: true, overrides: { allowedUsersNumber: 3 } });
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => refusalOf(federated().signIn(c, identity(`p-${uniq()}@${domain}`), client))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(results.filter((r) => r !== null)).toEqual(
      Array(2).fill(expect.objectContaining({ status: 403, code: ERROR_CODES.SSO_NOT_ALLOWED })),
    );
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(3);
  });

  it('assesses a test sign-in with the same verdicts, changing nothing', async () => {
    const { org, domain, c } = await federatedOrganisation({ jit: true });
    const account = await createUser(t(), org, { email: `ann-${uniq()}@${domain}` });
    const before = await t().db.getRepository(AuditEvent).countBy({ organisationId: org.id });
    expect(await federated().assess(c, identity(account.email))).toEqual({
      outcome: 'SIGNS_IN',
      message: SSO_MESSAGES.TEST_SIGNS_IN(account.email),
    });
    const unknown = `new-${uniq()}@${domain}`;
    expect(await federated().assess(c, identity(unknown))).toEqual({
      outcome: 'CREATES_ACCOUNT',
      message: SSO_MESSAGES.TEST_CREATES_ACCOUNT(unknown),
    });
    expect(await federated().assess(c, identity(`x@other-${uniq()}.example`))).toMatchObject({ outcome: 'REFUSED' });
    expect(await federated().assess(c, identity(account.email, { subject: '' }))).toEqual({
      outcome: 'REFUSED',
      message: SSO_MESSAGES.FAILED,
    });
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(2);
    expect(await t().db.getRepository(SsoIdentity).countBy({ connectionId: c.id })).toBe(0);
    expect(await t().db.getRepository(AuditEvent).countBy({ organisationId: org.id })).toBe(before);
  });
});

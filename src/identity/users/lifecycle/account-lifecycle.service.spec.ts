import { EventEmitter2 } from '@nestjs/event-emitter';
import { AuditService } from '../../../platform/audit/audit.service';
import { AuditEvent } from '../../../platform/audit/entities/audit-event.entity';
import { AuthUser } from '../../../platform/web/auth-user';
import { ScimCaller } from '../../../platform/web/scim-caller';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { User } from '../../../platform/database/entities/user.entity';
import { ScimUsersService } from '../../scim/scim-users.service';
import { SessionsService } from '../../sessions/sessions.service';
import { AccountEvent } from '../../../shared/identity/account-events';
import { ACCOUNT_MESSAGES, ERROR_CODES } from '../../../shared/messages';
import { Role } from '../../../shared/roles';
import { SsoConnection } from '../../federation/entities/sso-connection.entity';
import { FederatedSignInService } from '../../federation/sign-in/federated-sign-in.service';
import { NewUserService } from '../new-user.service';
import { createOrganisation, createUser } from '../../../../test/utils/factories';
import { callerOf, refusalOf, SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { verifyDomain } from '../../../../test/utils/identity-providers/sso';
import { USER_SCHEMA } from '../../../../test/utils/identity-providers/scim';
import { accountEmail } from './account-email';
import { ACCOUNT_CHANGED, AccountChanged } from './account-changed';
import { AccountLifecycleService } from './account-lifecycle.service';

describe('accountEmail: one rule for every address an account may have', () => {
  it.each([
    ['  Ann.Lee@Example.COM ', 'ann.lee@example.com'],
    ['o’neil+tax@sub.example.co.uk', 'o’neil+tax@sub.example.co.uk'],
  ])('keeps %p as %p', (raw, stored) => {
    expect(accountEmail(raw)).toEqual({ email: stored, problem: null });
  });

  it.each([
    ['two @', 'eve@evil.example@victim.example'],
    ['a trailing dot', 'eve@victim.example.'],
    ['no top-level domain', 'eve@localhost'],
    ['a dot ending the local part', 'eve.@victim.example'],
    ['a space inside', 'eve lee@victim.example'],
    ['nothing', '   '],
    ['more than 100 characters', `${'a'.repeat(95)}@b.example`],
  ])('refuses %s', (_label, raw) => {
    expect(accountEmail(raw)).toMatchObject({ email: null, problem: expect.any(String) });
  });
});

describe.each(SERVICE_DATABASES)('AccountLifecycleService on %s', (database) => {
  const t = serviceApp(database);
  const lifecycle = () => t().app.get(AccountLifecycleService);
  const client = { ip: '203.0.113.9', userAgent: 'jest' };
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;
  const email = (domain = 'example.com') => `life-${uniq()}@${domain}`;
  const domainName = () => `org-${uniq()}.example`;

  /** Every event published while `work` runs, with whether its transaction was open when it came. */
  async function heard<T>(work: () => Promise<T>): Promise<{ result: T; events: AccountEvent[] }> {
    const events: AccountEvent[] = [];
    const handler = ({ tx, event }: AccountChanged) => {
      expect(tx.queryRunner?.isTransactionActive).toBe(true);
      events.push(event);
    };
    const emitter = t().app.get(EventEmitter2);
    emitter.on(ACCOUNT_CHANGED, handler);
    try {
      return { result: await work(), events };
    } finally {
      emitter.off(ACCOUNT_CHANGED, handler);
    }
  }

  async function organisationWithSiteAdmin(overrides: Partial<Organisation> = {}) {
    const org = await createOrganisation(t(), overrides);
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    return { org, admin, caller: callerOf(admin) };
  }

  const scimOf = (org: Organisation): ScimCaller => ({
    tokenId: 7,
    tokenName: 'Directory',
    organisationId: org.id,
    lastUsedAt: null,
  });

  function jitConnection(org: Organisation): Promise<SsoConnection> {
    const repo = t().db.getRepository(SsoConnection);
    return repo.save(
      repo.create({
        organisationId: org.id,
        protocol: 'saml',
        name: 'Directory',
        enabled: true,
        jitProvisioning: true,
      }),
    );
  }

  it('creates an account with its audit event and one user.created inside the transaction', async () => {
    const { org, caller } = await organisationWithSiteAdmin();
    const address = email();
    const { result: user, events } = await heard(() =>
      lifecycle().create(
        { type: 'user', caller },
        { organisationId: org.id, email: address, roleId: Role.VIEWER },
        {
          client,
        },
      ),
    );
    expect(user).toMatchObject({ organisationId: org.id, email: address, roleId: Role.VIEWER, isDisabled: false });
    expect(events).toEqual([
      {
        type: 'user.created',
        organisationId: org.id,
        actor: { type: 'user', id: caller.id },
        user: { id: user.id, email: address, firstName: '', lastName: '', roles: ['VIEWER'], active: true },
      },
    ]);
    expect(await t().db.getRepository(AuditEvent).countBy({ type: 'USER_CREATED', targetId: user.id })).toBe(1);
  });

  it('switches access off (sessions end, user.deactivated) and on (user.reactivated), each once, within the limit', async () => {
    const { org, caller } = await organisationWithSiteAdmin({ allowedUsersNumber: 2 });
    const target = await createUser(t(), org, { roleId: Role.VIEWER });
    const { session } = await t().app.get(SessionsService).start(target, client);
    const off = await heard(() =>
      Promise.all([
        lifecycle().setAccess({ type: 'user', caller }, target, false, client),
        lifecycle().setAccess({ type: 'user', caller }, target, false, client),
      ]),
    );
    expect(off.events.map((e) => [e.type, 'active' in e.user && e.user.active])).toEqual([['user.deactivated', false]]);
    expect(await t().app.get(SessionsService).isActive(session.id)).toBe(false);
    expect(await t().db.getRepository(AuditEvent).countBy({ type: 'ACCESS_CHANGED', targetId: target.id })).toBe(1);

    const seat = await createUser(t(), org, { roleId: Role.VIEWER });
    expect(await refusalOf(lifecycle().setAccess({ type: 'user', caller }, target, true))).toEqual({
      status: 409,
      code: ERROR_CODES.ACTIVE_USERS_LIMIT,
    });
    await lifecycle().setAccess({ type: 'user', caller }, seat, false);
    const on = await heard(() => lifecycle().setAccess({ type: 'user', caller }, target, true, client));
    expect(on.events.map((e) => [e.type, 'active' in e.user && e.user.active])).toEqual([['user.reactivated', true]]);
  });

  it('holds the account-action rule: nobody switches their own access, an administrator not a site admin', async () => {
    const { org, admin, caller } = await organisationWithSiteAdmin();
    expect(await refusalOf(lifecycle().setAccess({ type: 'user', caller }, admin, false))).toMatchObject({
      status: 403,
    });
    const administrator = callerOf(await createUser(t(), org, { roleId: Role.ADMINISTRATOR }));
    expect(await refusalOf(lifecycle().setAccess({ type: 'user', caller: administrator }, admin, false))).toMatchObject(
      { status: 403 },
    );
    expect((await t().db.getRepository(User).findOneByOrFail({ id: admin.id })).isDisabled).toBe(false);
  });

  it('changes roles with user.updated, and publishes nothing when they stay the same', async () => {
    const { org, caller } = await organisationWithSiteAdmin();
    const target = await createUser(t(), org, { roleId: Role.VIEWER });
    const changed = await heard(() =>
      lifecycle().changeRoles(caller, target, { mainRole: Role.STANDARD_ADMIN, isAdministrator: true }, client),
    );
    expect(changed.events).toMatchObject([
      { type: 'user.updated', user: { id: target.id, roles: ['STANDARD_ADMIN', 'ADMINISTRATOR'] } },
    ]);
    const same = await t().db.getRepository(User).findOneByOrFail({ id: target.id });
    const unchanged = await heard(() =>
      lifecycle().changeRoles(caller, same, { mainRole: Role.STANDARD_ADMIN, isAdministrator: true }),
    );
    expect(unchanged.events).toEqual([]);
  });

  it('enforcing MFA ends the sessions and tells of it with user.updated, once', async () => {
    const { org, caller } = await organisationWithSiteAdmin();
    const target = await createUser(t(), org, { roleId: Role.VIEWER });
    const { session } = await t().app.get(SessionsService).start(target, client);
    const { events } = await heard(() => lifecycle().setMfaEnforced(caller, target, true, client));
    expect(events).toMatchObject([{ type: 'user.updated', user: { id: target.id } }]);
    expect(await t().app.get(SessionsService).isActive(session.id)).toBe(false);
    const enforced = await t().db.getRepository(User).findOneByOrFail({ id: target.id });
    expect((await heard(() => lifecycle().setMfaEnforced(caller, enforced, true))).events).toEqual([]);
  });

  it('deletes an account: its sessions end, the row goes, user.deleted names it', async () => {
    const { org } = await organisationWithSiteAdmin();
    const target = await createUser(t(), org, { roleId: Role.VIEWER });
    const { session } = await t().app.get(SessionsService).start(target, client);
    const { events } = await heard(() => lifecycle().remove({ type: 'scim', scim: scimOf(org) }, target, client));
    expect(events).toMatchObject([{ type: 'user.deleted', actor: { type: 'scim', id: 7 }, user: { id: target.id } }]);
    expect(await t().db.getRepository(User).existsBy({ id: target.id })).toBe(false);
    expect(await t().app.get(SessionsService).isActive(session.id)).toBe(false);
  });

  it('a failing transaction leaves nothing: no account, and nothing its listeners wrote', async () => {
    const { org, caller } = await organisationWithSiteAdmin();
    const address = email();
    const audit = t().app.get(AuditService);
    const handler = ({ tx, event }: AccountChanged) =>
      audit.record(tx, { type: 'PROFILE_CHANGED', actor: 'service', organisationId: org.id, summary: event.type });
    const emitter = t().app.get(EventEmitter2);
    emitter.on(ACCOUNT_CHANGED, handler);
    try {
      const failing = lifecycle().create(
        { type: 'user', caller },
        { organisationId: org.id, email: address, roleId: Role.VIEWER },
        {
          within: () => Promise.reject(new Error('the welcome e-mail could not be queued')),
        },
      );
      await expect(failing).rejects.toThrow('could not be queued');
    } finally {
      emitter.off(ACCOUNT_CHANGED, handler);
    }
    expect(await t().db.getRepository(User).existsBy({ email: address })).toBe(false);
    expect(await t().db.getRepository(AuditEvent).countBy({ organisationId: org.id, summary: 'user.created' })).toBe(0);
  });

  it('at the last seat, parallel creations from the pages, the directory and a first corporate sign-in: one succeeds', async () => {
    const { org, caller } = await organisationWithSiteAdmin({ allowedUsersNumber: 2 });
    const domain = domainName();
    await verifyDomain(t(), org, domain);
    const c = await jitConnection(org);
    const scim = t().app.get(ScimUsersService);
    const sso = t().app.get(FederatedSignInService);
    const pages = t().app.get(NewUserService);
    const attempts = await Promise.all([
      refusalOf(pages.add(caller, { userEmail: email(domain), userRoleIds: [Role.VIEWER] }, client)),
      refusalOf(scim.create(scimOf(org), { schemas: [USER_SCHEMA], userName: email(domain), active: true }, client)),
      refusalOf(sso.signIn(c, { subject: `jit-${uniq()}`, email: email(domain) }, client)),
      refusalOf(pages.add(caller, { userEmail: email(domain), userRoleIds: [Role.VIEWER] }, client)),
      refusalOf(scim.create(scimOf(org), { schemas: [USER_SCHEMA], userName: email(domain), active: true }, client)),
      refusalOf(sso.signIn(c, { subject: `jit-${uniq()}`, email: email(domain) }, client)),
    ]);
    expect(attempts.filter((r) => r === null)).toHaveLength(1);
    // Each source answers the limit in its own terms: 409 on the pages, 403 to the directory and the provider.
    expect(attempts.filter((r) => r !== null).map((r) => r!.code)).toEqual(
      expect.arrayContaining([ERROR_CODES.ACTIVE_USERS_LIMIT, ERROR_CODES.SSO_NOT_ALLOWED]),
    );
    expect(await lifecycle().countActive(org.id)).toBe(2);
  });

  describe("a verified domain is its organisation's", () => {
    async function twoOrganisations() {
      const a = await organisationWithSiteAdmin();
      const b = await organisationWithSiteAdmin();
      const domain = domainName();
      await verifyDomain(t(), b.org, domain);
      return { a, b, domain };
    }

    const refusal = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => null,
        (err: { getStatus(): number; getResponse(): unknown }) => ({
          status: err.getStatus(),
          body: err.getResponse(),
        }),
      );
      return e;
    };

    it('no other organisation creates an address on it, whether or not B has the account; B then can', async () => {
      const { a, b, domain } = await twoOrganisations();
      const held = await createUser(t(), b.org, { email: email(domain) });
      const free = email(domain);
      const create = (address: string) =>
        lifecycle().create(
          { type: 'user', caller: a.caller },
          { organisationId: a.org.id, email: address, roleId: Role.VIEWER },
        );
      const [forHeld, forFree] = [await refusal(create(held.email)), await refusal(create(free))];
      expect(forHeld).toEqual(forFree);
      expect(forFree).toMatchObject({
        status: 409,
        body: { code: ERROR_CODES.EMAIL_UNAVAILABLE, message: ACCOUNT_MESSAGES.EMAIL_UNAVAILABLE },
      });
      const scim = { type: 'scim', scim: scimOf(a.org) } as const;
      expect(
        await refusal(lifecycle().create(scim, { organisationId: a.org.id, email: free, roleId: Role.VIEWER })),
      ).toEqual(forFree);
      const created = await lifecycle().create(
        { type: 'user', caller: b.caller },
        { organisationId: b.org.id, email: free, roleId: Role.VIEWER },
      );
      expect(created.organisationId).toBe(b.org.id);
    });

    it('no other organisation renames an account into it; the same answer whether or not the address is held', async () => {
      const { a, b, domain } = await twoOrganisations();
      const held = await createUser(t(), b.org, { email: email(domain) });
      const mine = await createUser(t(), a.org, { roleId: Role.VIEWER });
      const scim = { type: 'scim', scim: scimOf(a.org) } as const;
      const rename = (address: string) => refusal(lifecycle().change(scim, mine, { email: address }));
      const [forHeld, forFree] = [await rename(held.email), await rename(email(domain))];
      expect(forHeld).toEqual(forFree);
      expect(forFree).toMatchObject({ status: 409, body: { code: ERROR_CODES.EMAIL_UNAVAILABLE } });
      expect((await t().db.getRepository(User).findOneByOrFail({ id: mine.id })).email).toBe(mine.email);
    });

    it('an address the caller can see is a duplicate; one held by another organisation on a free domain is unavailable', async () => {
      const { a } = await twoOrganisations();
      const own = await createUser(t(), a.org);
      const foreign = await createUser(t(), await createOrganisation(t()));
      const create = (address: string) =>
        refusalOf(
          lifecycle().create(
            { type: 'user', caller: a.caller },
            { organisationId: a.org.id, email: address, roleId: Role.VIEWER },
          ),
        );
      expect(await create(own.email)).toEqual({ status: 409, code: ERROR_CODES.DUPLICATE_EMAIL });
      expect(await create(foreign.email)).toEqual({ status: 409, code: ERROR_CODES.EMAIL_UNAVAILABLE });
    });
  });

  it('refuses malformed addresses from every source, a provider included, and creates nothing', async () => {
    const { org, caller } = await organisationWithSiteAdmin();
    const domain = domainName();
    await verifyDomain(t(), org, domain);
    const c = await jitConnection(org);
    for (const address of [`eve@evil.example@${domain}`, `eve@${domain}.`]) {
      expect(
        await refusalOf(
          lifecycle().create({ type: 'user', caller }, { organisationId: org.id, email: address, roleId: Role.VIEWER }),
        ),
      ).toEqual({ status: 400, code: ERROR_CODES.VALIDATION_FAILED });
      expect(
        await refusalOf(
          t()
            .app.get(FederatedSignInService)
            .signIn(c, { subject: `s-${uniq()}`, email: address }, client),
        ),
      ).toEqual({ status: 403, code: ERROR_CODES.SSO_NOT_ALLOWED });
    }
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(1);
  });

  it('an account the directory manages has its access switched there, not on the pages', async () => {
    const { org, caller } = await organisationWithSiteAdmin();
    const managed = await createUser(t(), org, { roleId: Role.VIEWER, managedBy: 'scim' });
    const me: AuthUser = caller;
    expect(await refusalOf(lifecycle().setAccess({ type: 'user', caller: me }, managed, false))).toEqual({
      status: 403,
      code: ERROR_CODES.DIRECTORY_MANAGED,
    });
  });
});

import { ScimCaller } from '../../platform/web/scim-caller';
import { Organisation } from '../../platform/database/entities/organisation.entity';
import { User } from '../../platform/database/entities/user.entity';
import { SessionsService } from '../sessions/sessions.service';
import { ERROR_CODES } from '../../shared/messages';
import { BASE_ROLE, Role } from '../../shared/roles';
import { MANAGED_BY_SCIM } from '../../shared/identity/scim';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { patchOp, scimUser } from '../../../test/utils/identity-providers/scim';
import { SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { verifyDomain } from '../../../test/utils/identity-providers/sso';
import { ScimUsersService } from './scim-users.service';

/** A SCIM refusal: status, the error code, and the scimType when there is one. */
function scimRefusalOf(p: Promise<unknown>): Promise<{ status: number; code?: string; scimType?: string } | null> {
  return p.then(
    () => null,
    (e: { getStatus(): number; getResponse(): { code?: string; scimType?: string } }) => ({
      status: e.getStatus(),
      code: e.getResponse().code,
      ...(e.getResponse().scimType ? { scimType: e.getResponse().scimType } : {}),
    }),
  );
}

describe.each(SERVICE_DATABASES)('ScimUsersService on %s', (database) => {
  const t = serviceApp(database);
  const users = () => t().app.get(ScimUsersService);
  const sessions = () => t().app.get(SessionsService);
  const client = { ip: '203.0.113.4', userAgent: 'directory' };
  let seq = 0;
  const address = (domain = 'example.com') => `scim-${Date.now().toString(36)}${(seq++).toString(36)}@${domain}`;

  async function directoryOf(overrides: Partial<Organisation> = {}): Promise<{ org: Organisation; scim: ScimCaller }> {
    const org = await createOrganisation(t(), overrides);
    return { org, scim: { tokenId: 1, tokenName: 'Directory', organisationId: org.id, lastUsedAt: null } };
  }
  const row = (id: unknown) =>
    t()
      .db.getRepository(User)
      .findOneBy({ id: Number(id) });

  it('provisions an account with the base role, MFA enforced, no password, managed by the directory', async () => {
    const { org, scim } = await directoryOf();
    const userName = address().replace('scim', 'Scim.Ann');
    const { resource } = await users().create(
      scim,
      scimUser(userName, { externalId: 'ext-1', title: 'Analyst' }),
      client,
    );
    expect(resource).toMatchObject({ userName, active: true, externalId: 'ext-1', title: 'Analyst' });
    expect(await row(resource.id)).toMatchObject({
      organisationId: org.id,
      email: userName.toLowerCase(),
      roleId: BASE_ROLE,
      isAdministrator: false,
      isMFAEnforced: true,
      passwordHash: null,
      managedBy: MANAGED_BY_SCIM,
    });
  });

  it('answers an address the organisation holds as uniqueness, and one on a domain another organisation verified without it', async () => {
    const { org, scim } = await directoryOf();
    const held = await createUser(t(), org);
    expect(await scimRefusalOf(users().create(scim, scimUser(held.email.toUpperCase()), client))).toEqual({
      status: 409,
      code: ERROR_CODES.CONFLICT,
      scimType: 'uniqueness',
    });
    const other = await createOrganisation(t());
    const domain = `v${Date.now().toString(36)}${seq++}.example`;
    await verifyDomain(t(), other, domain);
    expect(await scimRefusalOf(users().create(scim, scimUser(address(domain)), client))).toEqual({
      status: 409,
      code: ERROR_CODES.EMAIL_UNAVAILABLE,
    });
    expect(await scimRefusalOf(users().create(scim, scimUser('not an address'), client))).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    });
  });

  it('keeps the active-user limit under parallel provisioning: the rest are 403 and no row is written', async () => {
    const { org, scim } = await directoryOf({ allowedUsersNumber: 3 });
    await createUser(t(), org);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => scimRefusalOf(users().create(scim, scimUser(address()), client))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(2);
    expect(results.filter((r) => r !== null)).toEqual(
      Array(3).fill({ status: 403, code: ERROR_CODES.ACTIVE_USERS_LIMIT }),
    );
    expect(await t().db.getRepository(User).countBy({ organisationId: org.id })).toBe(3);
  });

  it('active false by PATCH disables the account and ends its sessions at once', async () => {
    const { org, scim } = await directoryOf();
    const { resource } = await users().create(scim, scimUser(address()), client);
    const account = (await row(resource.id))!;
    const { session } = await sessions().start(account, client);
    const off = patchOp({ op: 'replace', path: 'active', value: 'False' });
    await users().patch(scim, String(account.id), off, undefined, client);
    expect(await row(account.id)).toMatchObject({ isDisabled: true, organisationId: org.id });
    expect(await sessions().isActive(session.id)).toBe(false);
    const on = patchOp({ op: 'replace', value: { active: true } });
    await expect(users().patch(scim, String(account.id), on, undefined, client)).resolves.toMatchObject({
      resource: { active: true },
    });
  });

  it('never disables, renames or removes the site admin', async () => {
    const { org, scim } = await directoryOf();
    const siteAdmin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    const id = String(siteAdmin.id);
    const off = patchOp({ op: 'replace', path: 'active', value: false });
    expect(await scimRefusalOf(users().patch(scim, id, off, undefined, client))).toMatchObject({
      status: 400,
      scimType: 'mutability',
    });
    const renamed = patchOp({ op: 'replace', path: 'userName', value: address() });
    expect(await scimRefusalOf(users().patch(scim, id, renamed, undefined, client))).toMatchObject({
      status: 400,
      scimType: 'mutability',
    });
    expect(await scimRefusalOf(users().remove(scim, id, undefined, client))).toMatchObject({
      status: 400,
      scimType: 'mutability',
    });
    expect(await row(id)).toMatchObject({ isDisabled: false, email: siteAdmin.email });
  });

  it("is a 404 on another organisation's account for every call, and lists none of it", async () => {
    const { org } = await directoryOf();
    const theirs = await createUser(t(), org);
    const { scim } = await directoryOf();
    const id = String(theirs.id);
    expect(await scimRefusalOf(users().get(scim, id, {}))).toMatchObject({ status: 404 });
    expect(
      await scimRefusalOf(
        users().patch(scim, id, patchOp({ op: 'replace', path: 'active', value: false }), undefined, client),
      ),
    ).toMatchObject({ status: 404 });
    expect(await scimRefusalOf(users().replace(scim, id, scimUser(theirs.email), undefined, client))).toMatchObject({
      status: 404,
    });
    expect(await scimRefusalOf(users().remove(scim, id, undefined, client))).toMatchObject({ status: 404 });
    expect((await users().list(scim, { filter: `userName eq "${theirs.email}"` })).totalResults).toBe(0);
    expect(await row(id)).toMatchObject({ isDisabled: false });
  });

  it('deletes an account: its sessions end and later reads are 404', async () => {
    const { scim } = await directoryOf();
    const { resource, version } = await users().create(scim, scimUser(address()), client);
    const account = (await row(resource.id))!;
    const { session } = await sessions().start(account, client);
    expect(await scimRefusalOf(users().remove(scim, String(account.id), 'W/"stale"', client))).toMatchObject({
      status: 412,
    });
    await users().remove(scim, String(account.id), version, client);
    expect(await sessions().isActive(session.id)).toBe(false);
    expect(await scimRefusalOf(users().get(scim, String(account.id), {}))).toMatchObject({ status: 404 });
    expect(await row(account.id)).toBeNull();
  });
});

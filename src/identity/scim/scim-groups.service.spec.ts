import { Organisation } from '../../platform/database/entities/organisation.entity';
import { ScimCaller } from '../../platform/web/scim-caller';
import { Role } from '../../shared/roles';
import { UserGroupMember } from '../user-groups/entities/user-group-member.entity';
import { UserGroup } from '../user-groups/entities/user-group.entity';
import { createOrganisation, createUser } from '../../../test/utils/factories';
import { GROUP_SCHEMA, patchOp } from '../../../test/utils/identity-providers/scim';
import { callerOf, SERVICE_DATABASES, serviceApp } from '../../../test/utils/service-tier';
import { ScimGroupsService } from './scim-groups.service';
import { ScimTokensService } from './scim-tokens.service';

/** A SCIM refusal as the filter writes it: the status, and the scimType when there is one. */
function scimRefusalOf(p: Promise<unknown>): Promise<{ status: number; scimType?: string } | null> {
  return p.then(
    () => null,
    (e: { getStatus(): number; getResponse(): { scimType?: string } }) => ({
      status: e.getStatus(),
      ...(e.getResponse().scimType ? { scimType: e.getResponse().scimType } : {}),
    }),
  );
}

describe.each(SERVICE_DATABASES)('ScimGroupsService on %s', (database) => {
  const t = serviceApp(database);
  const groups = () => t().app.get(ScimGroupsService);
  const client = { ip: '203.0.113.8', userAgent: 'directory' };
  let seq = 0;
  const groupName = () => `Group ${Date.now().toString(36)}${(seq++).toString(36)}`;

  /** An organisation and the directory calling with a token its site admin created. */
  async function directoryOf(): Promise<{ org: Organisation; scim: ScimCaller }> {
    const org = await createOrganisation(t());
    const admin = await createUser(t(), org, { roleId: Role.SITE_ADMIN });
    const token = await t().app.get(ScimTokensService).create(callerOf(admin), 'Directory', undefined, client);
    return { org, scim: { tokenId: token.id, tokenName: token.name, organisationId: org.id, lastUsedAt: null } };
  }
  const group = (displayName: string, memberIds: number[] = []) => ({
    schemas: [GROUP_SCHEMA],
    displayName,
    members: memberIds.map((id) => ({ value: String(id) })),
  });
  const memberIdsOf = async (groupId: string) =>
    (
      await t()
        .db.getRepository(UserGroupMember)
        .findBy({ groupId: Number(groupId) })
    )
      .map((m) => m.userId)
      .sort();

  it("creates the organisation's user group with its members", async () => {
    const { org, scim } = await directoryOf();
    const [a, b] = [await createUser(t(), org), await createUser(t(), org)];
    const name = groupName();
    const { resource } = await groups().create(scim, group(name, [a.id, b.id, a.id]), client);
    expect(resource).toMatchObject({ displayName: name, members: [{ value: String(a.id) }, { value: String(b.id) }] });
    expect(await memberIdsOf(resource.id as string)).toEqual([a.id, b.id].sort());
    expect(await t().db.getRepository(UserGroup).countBy({ organisationId: org.id })).toBe(1);
  });

  it('refuses a displayName the organisation has in any case, also under parallel creates', async () => {
    const { org, scim } = await directoryOf();
    const name = groupName();
    await groups().create(scim, group(name), client);
    expect(await scimRefusalOf(groups().create(scim, group(name.toUpperCase()), client))).toEqual({
      status: 409,
      scimType: 'uniqueness',
    });
    const racing = groupName();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => scimRefusalOf(groups().create(scim, group(racing), client))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.filter((r) => r !== null)).toEqual(Array(4).fill({ status: 409, scimType: 'uniqueness' }));
    expect(await t().db.getRepository(UserGroup).countBy({ organisationId: org.id })).toBe(2);
  });

  it('lets another organisation use the same displayName', async () => {
    const name = groupName();
    await groups().create((await directoryOf()).scim, group(name), client);
    await expect(groups().create((await directoryOf()).scim, group(name), client)).resolves.toBeDefined();
  });

  it('refuses a member of another organisation and changes nothing', async () => {
    const { org, scim } = await directoryOf();
    const mine = await createUser(t(), org);
    const stranger = await createUser(t(), await createOrganisation(t()));
    expect(await scimRefusalOf(groups().create(scim, group(groupName(), [mine.id, stranger.id]), client))).toEqual({
      status: 400,
      scimType: 'invalidValue',
    });
    expect(await t().db.getRepository(UserGroup).countBy({ organisationId: org.id })).toBe(0);

    const { resource } = await groups().create(scim, group(groupName(), [mine.id]), client);
    const id = resource.id as string;
    const add = patchOp({ op: 'add', path: 'members', value: [{ value: String(stranger.id) }] });
    expect(await scimRefusalOf(groups().patch(scim, id, add, undefined, client))).toMatchObject({ status: 400 });
    expect(await memberIdsOf(id)).toEqual([mine.id]);
  });

  it("is a 404 on another organisation's group, for every call", async () => {
    const owner = await directoryOf();
    const { resource } = await groups().create(owner.scim, group(groupName()), client);
    const id = resource.id as string;
    const { scim: other } = await directoryOf();
    expect(await scimRefusalOf(groups().get(other, id, {}))).toEqual({ status: 404 });
    expect(await scimRefusalOf(groups().replace(other, id, group('Taken over'), undefined, client))).toEqual({
      status: 404,
    });
    expect(await scimRefusalOf(groups().remove(other, id, undefined, client))).toEqual({ status: 404 });
    expect((await groups().list(other, {})).totalResults).toBe(0);
    await expect(groups().get(owner.scim, id, {})).resolves.toBeDefined();
  });

  it('patches members in and out, refuses a rename onto another group, and honours If-Match', async () => {
    const { org, scim } = await directoryOf();
    const [a, b] = [await createUser(t(), org), await createUser(t(), org)];
    const taken = groupName();
    await groups().create(scim, group(taken), client);
    const created = await groups().create(scim, group(groupName(), [a.id]), client);
    const id = created.resource.id as string;
    await groups().patch(
      scim,
      id,
      patchOp(
        { op: 'add', path: 'members', value: [{ value: String(b.id) }] },
        { op: 'remove', path: `members[value eq "${a.id}"]` },
      ),
      undefined,
      client,
    );
    expect(await memberIdsOf(id)).toEqual([b.id]);
    const rename = patchOp({ op: 'replace', path: 'displayName', value: taken.toLowerCase() });
    expect(await scimRefusalOf(groups().patch(scim, id, rename, undefined, client))).toEqual({
      status: 409,
      scimType: 'uniqueness',
    });
    expect(await scimRefusalOf(groups().replace(scim, id, group(groupName()), created.version, client))).toMatchObject({
      status: 412,
    });
  });

  it('deletes a group: later reads are 404 and its memberships are gone', async () => {
    const { org, scim } = await directoryOf();
    const a = await createUser(t(), org);
    const { resource } = await groups().create(scim, group(groupName(), [a.id]), client);
    const id = resource.id as string;
    await groups().remove(scim, id, undefined, client);
    expect(await scimRefusalOf(groups().get(scim, id, {}))).toEqual({ status: 404 });
    expect(await memberIdsOf(id)).toEqual([]);
  });
});

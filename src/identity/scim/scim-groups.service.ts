import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AuditService } from '../../platform/audit';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { ScimCaller } from '../../platform/web/scim-caller';
import { MANAGED_BY_SCIM } from '../../shared/identity/scim';
import { NAME_MAX } from '../../shared/validation';
import { UserGroup, UserGroupMember } from '../user-groups';
import { User } from '../../platform/database/entities/user.entity';
import { isUniqueViolation } from '../../platform/database/unique-violation';
import { attributeList, project } from './scim-attributes';
import { badValue, scimError } from './scim-errors';
import { eqConditions, GROUP_FILTER_ATTRIBUTES } from './scim-filter';
import { applyMemberOperation, applyPatch, patchOperations, PatchRules, rootOf } from './scim-patch-ops';
import {
  checkIfMatch,
  field,
  findInOrganisation,
  idOf,
  isObject,
  listResponse,
  listRows,
  paging,
  resourceBody,
  single,
  text,
  versionOf,
} from './scim-resource';
import { SCHEMAS } from './scim-schema';
import { tokenActor } from './scim-tokens.service';
import { EXTERNAL_ID_MAX, Written } from './scim-users.service';

interface GroupInput {
  name: string;
  externalId: string | null;
  memberIds: number[];
}

/** Members one group may have through SCIM in one request (a directory's largest group pushes in pages). */
const MAX_MEMBERS = 10_000;

const PATCH_RULES: PatchRules = {
  schema: SCHEMAS.GROUP,
  writable: new Set(['displayname', 'externalid', 'members']),
  readOnly: new Set(),
  booleans: new Set(),
};

const DUPLICATE = 'A group with this displayName already exists.';

/**
 * SCIM Groups (RFC 7643 §4.2) are the user groups of the token's organisation (the User Groups pages): displayName
 * is the group's name, unique within the organisation case-insensitively; members are users of the same
 * organisation, by id. A member of another organisation, or none, is a 400 and nothing changes.
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    @InjectRepository(UserGroup) private readonly groups: Repository<UserGroup>,
    @InjectRepository(UserGroupMember) private readonly members: Repository<UserGroupMember>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  private location(kind: 'Users' | 'Groups', id: number): string {
    return `${this.config.publicUrl}/scim/v2/${kind}/${id}`;
  }

  /** Each group's members (id and e-mail), in one query. */
  private async membersOf(
    groupIds: number[],
    manager: EntityManager = this.groups.manager,
  ): Promise<Map<number, Array<{ id: number; email: string }>>> {
    const out = new Map<number, Array<{ id: number; email: string }>>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return out;
    const rows = await manager
      .getRepository(UserGroupMember)
      .createQueryBuilder('m')
      .innerJoin(User, 'u', 'u.id = m.userId')
      .select('m.groupId', 'groupId')
      .addSelect('u.id', 'id')
      .addSelect('u.email', 'email')
      .where({ groupId: In(groupIds) })
      .orderBy('u.id', 'ASC')
      .getRawMany<{ groupId: number; id: number; email: string }>();
    for (const r of rows) out.get(Number(r.groupId))?.push({ id: Number(r.id), email: r.email });
    return out;
  }

  private toResource(g: UserGroup, members?: Array<{ id: number; email: string }>): Record<string, unknown> {
    const resource: Record<string, unknown> = {
      schemas: [SCHEMAS.GROUP],
      id: String(g.id),
      ...(g.externalId ? { externalId: g.externalId } : {}),
      displayName: g.name,
      ...(members
        ? {
            members: members.map((m) => ({
              value: String(m.id),
              display: m.email,
              $ref: this.location('Users', m.id),
            })),
          }
        : {}),
    };
    resource.meta = {
      resourceType: 'Group',
      created: new Date(g.createdAt).toISOString(),
      lastModified: new Date(g.createdAt).toISOString(),
      location: this.location('Groups', g.id),
      ...(members ? { version: versionOf(resource) } : {}),
    };
    return resource;
  }

  private async written(g: UserGroup, manager?: EntityManager): Promise<Written> {
    const resource = this.toResource(g, (await this.membersOf([g.id], manager)).get(g.id));
    return { resource, version: (resource.meta as { version: string }).version };
  }

  private find(scim: ScimCaller, id: string, manager: EntityManager = this.groups.manager): Promise<UserGroup> {
    return findInOrganisation(manager, UserGroup, 'Group', scim.organisationId, id);
  }

  private projection(query: Record<string, unknown>) {
    const attributes = attributeList(single(query, 'attributes'), SCHEMAS.GROUP);
    const excluded = attributeList(single(query, 'excludedAttributes'), SCHEMAS.GROUP);
    // Members are read only when they are returned: a directory checking a group by name asks without them.
    const withMembers = attributes?.length
      ? attributes.some((a) => a === 'members' || a.startsWith('members.'))
      : !excluded?.includes('members');
    return { attributes, excluded, withMembers };
  }

  async get(scim: ScimCaller, id: string, query: Record<string, unknown>): Promise<Written> {
    const p = this.projection(query);
    const g = await this.find(scim, id);
    const w = p.withMembers ? await this.written(g) : { resource: this.toResource(g), version: '' };
    return { resource: project(w.resource, p.attributes, p.excluded), version: w.version };
  }

  async list(scim: ScimCaller, query: Record<string, unknown>) {
    const page = paging(query);
    const p = this.projection(query);
    const filter = single(query, 'filter');
    const qb = this.groups.createQueryBuilder('g').where('g.organisationId = :org', { org: scim.organisationId });
    const conditions = filter === undefined ? [] : eqConditions(filter, GROUP_FILTER_ATTRIBUTES, SCHEMAS.GROUP);
    const { rows, total } = await listRows(qb, 'g', conditions, page, (c, v) => {
      if (c.attribute === 'displayName') qb.andWhere(`g.nameKey = :${v}`, { [v]: c.value.toLowerCase() });
      else qb.andWhere(`g.externalId = :${v}`, { [v]: c.value });
    });
    const members = p.withMembers ? await this.membersOf(rows.map((g) => g.id)) : undefined;
    return listResponse(
      rows.map((g) => project(this.toResource(g, members?.get(g.id)), p.attributes, p.excluded)),
      total,
      page,
    );
  }

  private readInput(doc: Record<string, unknown>): GroupInput {
    const name = text(field(doc, 'displayName'), 'displayName', NAME_MAX);
    if (!name) throw badValue('displayName is required.');
    const externalId = text(field(doc, 'externalId'), 'externalId', EXTERNAL_ID_MAX) || null;
    const raw = field(doc, 'members') ?? [];
    if (!Array.isArray(raw)) throw badValue('members must be a list.');
    if (raw.length > MAX_MEMBERS) throw badValue(`A group may have at most ${MAX_MEMBERS} members per request.`);
    const memberIds = raw.map((m) => {
      const value = isObject(m) ? field(m, 'value') : undefined;
      const id = typeof value === 'string' ? idOf(value) : null;
      if (id === null) throw badValue('Each member needs the value of a user id.');
      return id;
    });
    return { name, externalId, memberIds: [...new Set(memberIds)] };
  }

  /** Every member is a user of the organisation: else 400, so that nothing of another organisation is touched. */
  private async checkMembers(tx: EntityManager, scim: ScimCaller, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const found = await tx.getRepository(User).countBy({ id: In(ids), organisationId: scim.organisationId });
    if (found !== ids.length) throw badValue('A member is not a user of this organisation.');
  }

  async create(scim: ScimCaller, body: unknown, client: RequestContext): Promise<Written> {
    const input = this.readInput(resourceBody(body, SCHEMAS.GROUP));
    try {
      const group = await this.groups.manager.transaction(async (tx) => {
        await this.checkMembers(tx, scim, input.memberIds);
        const repo = tx.getRepository(UserGroup);
        if (await repo.existsBy({ organisationId: scim.organisationId, nameKey: input.name.toLowerCase() }))
          throw duplicate();
        const created = await repo.save(
          repo.create({
            organisationId: scim.organisationId,
            name: input.name,
            nameKey: input.name.toLowerCase(),
            externalId: input.externalId,
            managedBy: MANAGED_BY_SCIM,
          }),
        );
        await this.setMembers(tx, created.id, [], input.memberIds);
        await this.audit.record(tx, {
          type: 'GROUP_CREATED',
          actor: tokenActor(scim),
          organisationId: scim.organisationId,
          client,
          summary: `User group "${created.name}" created by the directory with ${input.memberIds.length} member(s)`,
        });
        return created;
      });
      return await this.written(group);
    } catch (e) {
      throw uniqueOr(e);
    }
  }

  private async setMembers(tx: EntityManager, groupId: number, before: number[], after: number[]): Promise<void> {
    const old = new Set(before);
    const next = new Set(after);
    const added = after.filter((id) => !old.has(id));
    const removed = before.filter((id) => !next.has(id));
    const repo = tx.getRepository(UserGroupMember);
    // In slices: SQLite takes at most 32,766 bound values a statement.
    for (let i = 0; i < removed.length; i += 500) await repo.delete({ groupId, userId: In(removed.slice(i, i + 500)) });
    for (let i = 0; i < added.length; i += 500)
      await repo
        .createQueryBuilder()
        .insert()
        .into(UserGroupMember)
        .values(added.slice(i, i + 500).map((userId) => ({ groupId, userId })))
        .orIgnore()
        .execute();
  }

  replace(scim: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, client: RequestContext) {
    const doc = resourceBody(body, SCHEMAS.GROUP);
    return this.change(scim, id, ifMatch, client, () => this.readInput(doc));
  }

  patch(scim: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, client: RequestContext) {
    const operations = patchOperations(body, PATCH_RULES);
    return this.change(scim, id, ifMatch, client, (current) => {
      let doc = current;
      let members = ((current.members ?? []) as Array<{ value: string }>).map((m) => m.value);
      for (const op of operations) {
        if (rootOf(op.path!, SCHEMAS.GROUP).root === 'members') members = applyMemberOperation(members, op);
        else doc = applyPatch(doc as never, [op]);
      }
      return this.readInput({ ...doc, members: members.map((value) => ({ value })) });
    });
  }

  private async change(
    scim: ScimCaller,
    id: string,
    ifMatch: string | undefined,
    client: RequestContext,
    inputOf: (current: Record<string, unknown>) => GroupInput,
  ): Promise<Written> {
    try {
      const group = await this.groups.manager.transaction(async (tx) => {
        const current = await this.find(scim, id, tx);
        const before = (await this.membersOf([current.id], tx)).get(current.id)!;
        const resource = this.toResource(current, before);
        checkIfMatch(ifMatch, versionOf(resource));
        const input = inputOf(resource);
        await this.checkMembers(tx, scim, input.memberIds);
        const repo = tx.getRepository(UserGroup);
        const nameKey = input.name.toLowerCase();
        if (nameKey !== current.nameKey && (await repo.existsBy({ organisationId: scim.organisationId, nameKey })))
          throw duplicate();
        const beforeIds = before.map((m) => m.id);
        const renamed = input.name !== current.name || input.externalId !== current.externalId;
        if (renamed || current.managedBy !== MANAGED_BY_SCIM)
          await repo.update(
            { id: current.id },
            { name: input.name, nameKey, externalId: input.externalId, managedBy: MANAGED_BY_SCIM },
          );
        await this.setMembers(tx, current.id, beforeIds, input.memberIds);
        const added = input.memberIds.filter((m) => !beforeIds.includes(m)).length;
        const removed = beforeIds.filter((m) => !input.memberIds.includes(m)).length;
        if (renamed || added || removed) {
          await this.audit.record(tx, {
            type: 'GROUP_CHANGED',
            actor: tokenActor(scim),
            organisationId: scim.organisationId,
            client,
            summary: `User group "${input.name}" changed by the directory: ${added} member(s) added, ${removed} removed`,
            changes: renamed ? { name: { from: current.name, to: input.name } } : undefined,
          });
        }
        return repo.findOneByOrFail({ id: current.id });
      });
      return await this.written(group);
    } catch (e) {
      throw uniqueOr(e);
    }
  }

  async remove(scim: ScimCaller, id: string, ifMatch: string | undefined, client: RequestContext): Promise<void> {
    await this.groups.manager.transaction(async (tx) => {
      const current = await this.find(scim, id, tx);
      if (ifMatch !== undefined) checkIfMatch(ifMatch, (await this.written(current, tx)).version);
      await tx.getRepository(UserGroupMember).delete({ groupId: current.id });
      await tx.getRepository(UserGroup).delete({ id: current.id });
      await this.audit.record(tx, {
        type: 'GROUP_DELETED',
        actor: tokenActor(scim),
        organisationId: scim.organisationId,
        client,
        summary: `User group "${current.name}" deleted by the directory`,
      });
    });
  }
}

const duplicate = () => scimError(HttpStatus.CONFLICT, DUPLICATE, 'uniqueness');

function uniqueOr(e: unknown): unknown {
  return isUniqueViolation(e) ? duplicate() : e;
}

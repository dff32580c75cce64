import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, QueryFailedError, Repository } from 'typeorm';
import { AuditChanges, AuditService } from '../audit/audit.service';
import { AppException } from '../common/app.exception';
import { RequestContext } from '../common/request-context';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { ScimCaller } from '../common/scim-caller';
import { lockRow } from '../database/locks';
import { Organisation } from '../database/entities/organisation.entity';
import { SessionsService } from '../sessions/sessions.service';
import { ERROR_CODES } from '../shared/messages';
import { BASE_ROLE, Role, roleNames } from '../shared/roles';
import { MANAGED_BY_SCIM } from '../shared/scim';
import { NAME_MAX, newUserEmailError } from '../shared/validation';
import { User } from '../database/entities/user.entity';
import { UserCountCache } from '../users/user-count-cache';
import { UsersService } from '../users/users.service';
import { attributeList, project } from '../scim/scim-attributes';
import { badValue, immutable, scimError } from './scim-errors';
import { eqConditions, USER_FILTER_ATTRIBUTES } from './scim-filter';
import { applyPatch, patchOperations, PatchRules } from './scim-patch-ops';
import {
  bool,
  checkIfMatch,
  field,
  findInOrganisation,
  idOf,
  isObject,
  listResponse,
  paging,
  resourceBody,
  single,
  text,
  versionOf,
} from './scim-resource';
import { SCHEMAS } from './scim-schema';
import { tokenActor } from './scim-tokens.service';

/** What a directory sets on an account, read from a SCIM User. */
interface UserInput {
  email: string;
  /** userName as sent: e-mails are kept lower-cased, and a directory reads back what it wrote. */
  userName: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
  department: string;
  externalId: string | null;
  active: boolean;
}

export const EXTERNAL_ID_MAX = 200;

export const SCIM_USER_MESSAGES = {
  DUPLICATE: 'A user with this userName already exists.',
  SITE_ADMIN_ACCESS: "The organisation's site admin cannot be disabled or removed through the directory.",
  SITE_ADMIN_USERNAME: "The userName of the organisation's site admin cannot be changed through the directory.",
  ROLES: "Roles are not provisioned: new accounts get the organisation's default role, changed on the roles page.",
} as const;

const PATCH_RULES: PatchRules = {
  schema: SCHEMAS.USER,
  writable: new Set(['username', 'name', 'title', 'active', 'externalid', SCHEMAS.ENTERPRISE_USER.toLowerCase()]),
  readOnly: new Set(['roles']),
  booleans: new Set(['active']),
};

export interface Written {
  resource: Record<string, unknown>;
  version: string;
}

/**
 * SCIM Users (RFC 7643 §4.1) are the accounts of the token's organisation: userName is the sign-in e-mail, name,
 * title and the enterprise extension's department are the profile fields of spec 000 §3, active is the 'User Enabled'
 * switch. The product's rules hold as on the pages: the active-user limit under the organisation's lock, e-mails
 * unique, disabling ends every session and socket at once, the site admin is never disabled or removed, and new
 * accounts get the default role (roles are changed on the roles page only).
 */
@Injectable()
export class ScimUsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: UsersService,
    private readonly sessions: SessionsService,
    private readonly counts: UserCountCache,
    private readonly audit: AuditService,
  ) {}

  private location(id: number): string {
    return `${this.config.publicUrl}/scim/v2/Users/${id}`;
  }

  toResource(u: User): Record<string, unknown> {
    const formatted = `${u.firstName} ${u.lastName}`.trim();
    const resource: Record<string, unknown> = {
      schemas: [SCHEMAS.USER, SCHEMAS.ENTERPRISE_USER],
      id: String(u.id),
      ...(u.externalId ? { externalId: u.externalId } : {}),
      userName: u.directoryUserName?.toLowerCase() === u.email ? u.directoryUserName : u.email,
      name: { formatted, givenName: u.firstName, familyName: u.lastName },
      displayName: formatted || u.email,
      ...(u.jobTitle ? { title: u.jobTitle } : {}),
      active: !u.isDisabled,
      emails: [{ value: u.email, type: 'work', primary: true }],
      [SCHEMAS.ENTERPRISE_USER]: u.department ? { department: u.department } : {},
    };
    resource.meta = {
      resourceType: 'User',
      created: new Date(u.createdAt).toISOString(),
      lastModified: new Date(u.updatedAt).toISOString(),
      location: this.location(u.id),
      version: versionOf(resource),
    };
    return resource;
  }

  private written(u: User): Written {
    const resource = this.toResource(u);
    return { resource, version: (resource.meta as { version: string }).version };
  }

  private find(scim: ScimCaller, id: string, manager: EntityManager = this.users.manager): Promise<User> {
    return findInOrganisation(manager, User, 'User', scim.organisationId, id);
  }

  async get(scim: ScimCaller, id: string, query: Record<string, unknown>): Promise<Written> {
    const w = this.written(await this.find(scim, id));
    return { ...w, resource: this.projected(w.resource, query) };
  }

  private projected(resource: Record<string, unknown>, query: Record<string, unknown>): Record<string, unknown> {
    return project(
      resource,
      attributeList(single(query, 'attributes'), SCHEMAS.USER),
      attributeList(single(query, 'excludedAttributes'), SCHEMAS.USER),
    );
  }

  /** GET /Users: a page of the organisation's accounts in id order, filtered by `eq` on userName, externalId, id. */
  async list(scim: ScimCaller, query: Record<string, unknown>) {
    const page = paging(query);
    const filter = single(query, 'filter');
    const qb = this.users.createQueryBuilder('u').where('u.organisationId = :org', { org: scim.organisationId });
    // Also validates attributes and excludedAttributes before any reading.
    this.projected({}, query);
    let none = false;
    const conditions = filter === undefined ? [] : eqConditions(filter, USER_FILTER_ATTRIBUTES, SCHEMAS.USER);
    conditions.forEach((c, i) => {
      const p = `v${i}`;
      if (c.attribute === 'id') {
        const n = idOf(c.value);
        if (n === null) none = true;
        else qb.andWhere(`u.id = :${p}`, { [p]: n });
      } else if (c.attribute === 'userName') qb.andWhere(`u.email = :${p}`, { [p]: c.value.trim().toLowerCase() });
      else if (c.attribute === 'externalId') qb.andWhere(`u.externalId = :${p}`, { [p]: c.value });
      else qb.andWhere(`(u.firstName || ' ' || u.lastName) = :${p}`, { [p]: c.value });
    });
    if (none) return listResponse([], 0, page);
    const total = await qb.getCount();
    const rows =
      page.count === 0 || page.startIndex > total
        ? []
        : await qb
            .orderBy('u.id', 'ASC')
            .offset(page.startIndex - 1)
            .limit(page.count)
            .getMany();
    return listResponse(
      rows.map((u) => this.projected(this.toResource(u), query)),
      total,
      page,
    );
  }

  /** Reads a User body (POST, PUT, or the resource a PATCH made); `current` gives what an absent `active` keeps. */
  private readInput(doc: Record<string, unknown>, current?: User): UserInput {
    const roles = field(doc, 'roles');
    if (Array.isArray(roles) && roles.length > 0) throw immutable(SCIM_USER_MESSAGES.ROLES);
    const userName = field(doc, 'userName');
    if (typeof userName !== 'string') throw badValue('userName (the e-mail address) is required.');
    const email = userName.trim().toLowerCase();
    const spelled = userName.trim();
    const emailError = newUserEmailError(email);
    if (emailError) throw badValue(`userName: ${emailError}`);
    const name = field(doc, 'name');
    if (name !== undefined && name !== null && !isObject(name)) throw badValue('name must be an object.');
    const enterprise = field(doc, SCHEMAS.ENTERPRISE_USER);
    if (enterprise !== undefined && enterprise !== null && !isObject(enterprise))
      throw badValue(`${SCHEMAS.ENTERPRISE_USER} must be an object.`);
    const externalId = text(field(doc, 'externalId'), 'externalId', EXTERNAL_ID_MAX);
    return {
      email,
      userName: spelled,
      firstName: (name && text(field(name, 'givenName'), 'name.givenName', NAME_MAX)) || '',
      lastName: (name && text(field(name, 'familyName'), 'name.familyName', NAME_MAX)) || '',
      jobTitle: text(field(doc, 'title'), 'title', NAME_MAX) ?? '',
      department: (enterprise && text(field(enterprise, 'department'), 'department', NAME_MAX)) || '',
      externalId: externalId || null,
      active: bool(field(doc, 'active'), 'active') ?? (current ? !current.isDisabled : true),
    };
  }

  /** POST /Users: a new account of the organisation with the default role, inside its active-user limit. */
  async create(scim: ScimCaller, body: unknown, client: RequestContext): Promise<Written> {
    const input = this.readInput(resourceBody(body, SCHEMAS.USER));
    if (await this.users.existsBy({ email: input.email })) throw duplicate();
    try {
      const user = await this.users.manager.transaction(async (tx) => {
        await this.roomFor(tx, scim.organisationId, input.active);
        const repo = tx.getRepository(User);
        const created = await repo.save(
          repo.create({
            organisationId: scim.organisationId,
            email: input.email,
            directoryUserName: input.userName,
            passwordHash: null,
            firstName: input.firstName,
            lastName: input.lastName,
            jobTitle: input.jobTitle,
            department: input.department,
            externalId: input.externalId,
            managedBy: MANAGED_BY_SCIM,
            roleId: BASE_ROLE,
            isAdministrator: false,
            isDisabled: !input.active,
            isMFAEnforced: true,
          }),
        );
        await this.audit.record(tx, {
          type: 'USER_CREATED',
          actor: tokenActor(scim),
          target: created,
          client,
          summary: `User ${created.email} provisioned by the directory as ${roleNames(created.roles)}`,
          changes: { roles: { from: null, to: roleNames(created.roles) }, active: { from: null, to: input.active } },
        });
        return created;
      });
      return this.written(await this.users.findOneByOrFail({ id: user.id }));
    } catch (e) {
      throw uniqueOr(e);
    }
  }

  /** The organisation's lock, and (for an active account) room under its active-user limit. */
  private async roomFor(tx: EntityManager, organisationId: number, active: boolean): Promise<void> {
    try {
      if (active) await this.accounts.assertRoomForActiveUser(tx, organisationId);
      else if (!(await lockRow(tx, Organisation, organisationId))) throw AppException.notFound();
    } catch (e) {
      // The limit is the organisation's, not the request's: 403, so that no directory takes it for a conflict
      // of this user with another (409) and tries to match them.
      if (e instanceof AppException && e.code === ERROR_CODES.ACTIVE_USERS_LIMIT)
        throw scimError(HttpStatus.FORBIDDEN, e.message, undefined, ERROR_CODES.ACTIVE_USERS_LIMIT);
      throw e;
    }
  }

  /** PUT /Users/{id}: the account as the body states it (absent optional attributes are cleared). */
  replace(scim: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, client: RequestContext) {
    const doc = resourceBody(body, SCHEMAS.USER);
    return this.change(scim, id, ifMatch, client, (current) => this.readInput(doc, current));
  }

  /** PATCH /Users/{id}: the operations applied to the account's SCIM resource, then saved as PUT would. */
  patch(scim: ScimCaller, id: string, body: unknown, ifMatch: string | undefined, client: RequestContext) {
    const operations = patchOperations(body, PATCH_RULES);
    return this.change(scim, id, ifMatch, client, (current) =>
      this.readInput(applyPatch(this.toResource(current) as never, operations), current),
    );
  }

  private async change(
    scim: ScimCaller,
    id: string,
    ifMatch: string | undefined,
    client: RequestContext,
    inputOf: (current: User) => UserInput,
  ): Promise<Written> {
    try {
      const saved = await this.users.manager.transaction(async (tx) => {
        const current = await this.find(scim, id, tx);
        checkIfMatch(ifMatch, versionOf(this.toResource(current)));
        const input = inputOf(current);
        const siteAdmin = current.roleId === Role.SITE_ADMIN;
        if (siteAdmin && !input.active && !current.isDisabled) throw immutable(SCIM_USER_MESSAGES.SITE_ADMIN_ACCESS);
        if (siteAdmin && input.email !== current.email) throw immutable(SCIM_USER_MESSAGES.SITE_ADMIN_USERNAME);
        const repo = tx.getRepository(User);
        if (input.email !== current.email && (await repo.existsBy({ email: input.email }))) throw duplicate();
        const enabling = current.isDisabled && input.active;
        const disabling = !current.isDisabled && !input.active;
        if (enabling && !current.isBlocked) await this.roomFor(tx, scim.organisationId, true);
        const next = {
          email: input.email,
          directoryUserName: input.userName,
          firstName: input.firstName,
          lastName: input.lastName,
          jobTitle: input.jobTitle,
          department: input.department,
          externalId: input.externalId,
          isDisabled: !input.active,
          managedBy: MANAGED_BY_SCIM,
        };
        const changes: AuditChanges = {};
        for (const [key, value] of Object.entries(next))
          if (current[key as keyof typeof next] !== value)
            changes[key] = { from: current[key as keyof typeof next], to: value };
        if (Object.keys(changes).length === 0) return current;
        await repo.update({ id: current.id }, next);
        if (disabling) await this.sessions.endAllForUsers([current.id], 'disabled', undefined, tx);
        const actor = tokenActor(scim);
        if (enabling || disabling) {
          await this.audit.record(tx, {
            type: 'ACCESS_CHANGED',
            actor,
            target: current,
            client,
            summary: `Access of ${current.email} ${disabling ? 'disabled' : 'enabled'} by the directory`,
            changes: { disabled: { from: current.isDisabled, to: !input.active } },
          });
          delete changes.isDisabled;
        }
        if (Object.keys(changes).length > 0) {
          await this.audit.record(tx, {
            type: 'PROFILE_CHANGED',
            actor,
            target: current,
            client,
            summary: `Profile of ${current.email} changed by the directory`,
            changes,
          });
        }
        return repo.findOneByOrFail({ id: current.id });
      });
      return this.written(saved);
    } catch (e) {
      throw uniqueOr(e);
    }
  }

  /** DELETE /Users/{id}: every session and socket of the account ends, then the account is removed. */
  async remove(scim: ScimCaller, id: string, ifMatch: string | undefined, client: RequestContext): Promise<void> {
    await this.users.manager.transaction(async (tx) => {
      const current = await this.find(scim, id, tx);
      checkIfMatch(ifMatch, versionOf(this.toResource(current)));
      if (current.roleId === Role.SITE_ADMIN) throw immutable(SCIM_USER_MESSAGES.SITE_ADMIN_ACCESS);
      await this.sessions.endAllForUsers([current.id], 'disabled', undefined, tx);
      await tx.getRepository(User).delete({ id: current.id });
      await this.audit.record(tx, {
        type: 'USER_DELETED',
        actor: tokenActor(scim),
        target: current,
        client,
        summary: `User ${current.email} removed by the directory`,
      });
    });
    this.counts.invalidate();
  }
}

const duplicate = () => scimError(HttpStatus.CONFLICT, SCIM_USER_MESSAGES.DUPLICATE, 'uniqueness');

/** A unique-index violation (two writers of one e-mail at once) as SCIM's 409 uniqueness; anything else as it was. */
function uniqueOr(e: unknown): unknown {
  return e instanceof QueryFailedError && /unique|duplicate/i.test(e.message) ? duplicate() : e;
}

import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppException } from '../../platform/web/app.exception';
import { RequestContext } from '../../platform/web/request-context';
import { APP_CONFIG } from '../../platform/config/app-config.module';
import { AppConfig } from '../../platform/config/env.validation';
import { ScimCaller } from '../../platform/web/scim-caller';
import { ERROR_CODES } from '../../shared/messages';
import { BASE_ROLE, Role, roleNames } from '../../shared/roles';
import { MANAGED_BY_SCIM } from '../../shared/identity/scim';
import { NAME_MAX } from '../../shared/validation';
import { User } from '../../platform/database/entities/user.entity';
import { accountEmail, AccountLifecycleService } from '../users';
import { attributeList, project } from './scim-attributes';
import { badValue, immutable, scimError } from './scim-errors';
import { eqConditions, USER_FILTER_ATTRIBUTES } from './scim-filter';
import { applyPatch, patchOperations, PatchRules } from './scim-patch-ops';
import {
  bool,
  checkIfMatch,
  field,
  findInOrganisation,
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
    private readonly lifecycle: AccountLifecycleService,
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
    const conditions = filter === undefined ? [] : eqConditions(filter, USER_FILTER_ATTRIBUTES, SCHEMAS.USER);
    const { rows, total } = await listRows(qb, 'u', conditions, page, (c, p) => {
      if (c.attribute === 'userName') qb.andWhere(`u.email = :${p}`, { [p]: c.value.trim().toLowerCase() });
      else if (c.attribute === 'externalId') qb.andWhere(`u.externalId = :${p}`, { [p]: c.value });
      else qb.andWhere(`(u.firstName || ' ' || u.lastName) = :${p}`, { [p]: c.value });
    });
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
    const spelled = userName.trim();
    const { email, problem } = accountEmail(userName);
    if (problem !== null) throw badValue(`userName: ${problem}`);
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
    const user = await this.lifecycle
      .create(
        { type: 'scim', scim },
        {
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
        },
        {
          client,
          audit: {
            summary: `User ${input.email} provisioned by the directory as ${roleNames([BASE_ROLE])}`,
            changes: { roles: { from: null, to: roleNames([BASE_ROLE]) }, active: { from: null, to: input.active } },
          },
        },
      )
      .catch((e: unknown) => {
        throw inScimTerms(e);
      });
    return this.written(await this.users.findOneByOrFail({ id: user.id }));
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
    const actor = { type: 'scim', scim } as const;
    let email: string | undefined;
    try {
      const saved = await this.users.manager.transaction(async (tx) => {
        const current = await this.find(scim, id, tx);
        checkIfMatch(ifMatch, versionOf(this.toResource(current)));
        const input = inputOf(current);
        const siteAdmin = current.roleId === Role.SITE_ADMIN;
        if (siteAdmin && !input.active && !current.isDisabled) throw immutable(SCIM_USER_MESSAGES.SITE_ADMIN_ACCESS);
        if (siteAdmin && input.email !== current.email) throw immutable(SCIM_USER_MESSAGES.SITE_ADMIN_USERNAME);
        email = input.email;
        return this.lifecycle.change(
          actor,
          current,
          {
            email: input.email,
            directoryUserName: input.userName,
            firstName: input.firstName,
            lastName: input.lastName,
            jobTitle: input.jobTitle,
            department: input.department,
            externalId: input.externalId,
            isDisabled: !input.active,
            managedBy: MANAGED_BY_SCIM,
          },
          client,
          tx,
        );
      });
      return this.written(saved);
    } catch (e) {
      const raced = email === undefined ? e : await this.lifecycle.addressRace(e, actor, scim.organisationId, email);
      throw inScimTerms(raced);
    }
  }

  /** DELETE /Users/{id}: every session and socket of the account ends, then the account is removed. */
  async remove(scim: ScimCaller, id: string, ifMatch: string | undefined, client: RequestContext): Promise<void> {
    await this.users.manager.transaction(async (tx) => {
      const current = await this.find(scim, id, tx);
      checkIfMatch(ifMatch, versionOf(this.toResource(current)));
      if (current.roleId === Role.SITE_ADMIN) throw immutable(SCIM_USER_MESSAGES.SITE_ADMIN_ACCESS);
      await this.lifecycle.remove({ type: 'scim', scim }, current, client, tx);
    });
  }
}

/**
 * The lifecycle's refusals as SCIM answers them: an address the organisation holds already is 409 uniqueness (the
 * directory may match the two); an address it may not use is 409 without scimType, so that no directory takes it
 * for an account it could match; the active-user limit is the organisation's, not the request's: 403, for the same
 * reason; a bad address is 400 invalidValue.
 */
function inScimTerms(e: unknown): unknown {
  if (!(e instanceof AppException)) return e;
  const message = (e.getResponse() as { message: string }).message;
  switch (e.code) {
    case ERROR_CODES.DUPLICATE_EMAIL:
      return duplicate();
    case ERROR_CODES.EMAIL_UNAVAILABLE:
      return scimError(HttpStatus.CONFLICT, message, undefined, ERROR_CODES.EMAIL_UNAVAILABLE);
    case ERROR_CODES.ACTIVE_USERS_LIMIT:
      return scimError(HttpStatus.FORBIDDEN, message, undefined, ERROR_CODES.ACTIVE_USERS_LIMIT);
    case ERROR_CODES.VALIDATION_FAILED:
      return e.extra.scimType ? e : badValue(`userName: ${message}`);
    default:
      return e;
  }
}

const duplicate = () => scimError(HttpStatus.CONFLICT, SCIM_USER_MESSAGES.DUPLICATE, 'uniqueness');

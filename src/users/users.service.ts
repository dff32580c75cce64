import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, QueryFailedError, Repository, SelectQueryBuilder } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { RequestContext } from '../common/request-context';
import { lockRow } from '../database/locks';
import { BreachedPasswordsService } from '../credentials/breached-passwords.service';
import { PasswordService } from '../credentials/password.service';
import { AppException } from '../common/app.exception';
import { AuthUser, canAccessOrganisation, mfaPending } from '../common/auth-user';
import { temporaryPassword } from '../common/crypto/secrets';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { MailService } from '../mail/mail.service';
import { Organisation } from '../organisations/entities/organisation.entity';
import { SessionsService } from '../sessions/sessions.service';
import {
  NewUserResult,
  OrganisationInfo,
  SingleUser,
  SuccessResult,
  UserListItem,
  UserListPage,
} from '../shared/api-types';
import { LIMITS } from '../shared/limits';
import { ACCOUNT_MESSAGES, ERROR_CODES, PRODUCT_NAME } from '../shared/messages';
import { BASE_ROLE, effectiveRoles, Role, roleNames } from '../shared/roles';
import {
  AddUserDto,
  DisableUserDto,
  EnforceMfaDto,
  UpdatePasswordDto,
  UpdateProfileDto,
  UpdateRoleDto,
  UpdateSsoDto,
} from './dto/user-changes.dto';
import { UserListQueryDto } from './dto/user-list-query.dto';
import { UserCountCache } from './user-count-cache';
import { idListSql, idsFromList, isListText, listTextEntrySql, ListOrder } from './list-order';
import { User } from './entities/user.entity';
import {
  canToggleAdministrator,
  checkAccountAction,
  checkNewUserRole,
  checkRoleChange,
  parseRoleIds,
} from '../shared/account-rules';
import { maySignIn } from '../credentials/may-sign-in';
import { DIRECTORY_OWNED_FIELDS, SCIM_MESSAGES } from '../shared/scim';

export const USER_MESSAGES = {
  NOT_FOUND: 'User not found.',
  ORGANISATION_NOT_FOUND: 'Organisation not found.',
  DUPLICATE_EMAIL: ACCOUNT_MESSAGES.DUPLICATE_EMAIL,
  SSO_NOT_ENABLED: 'Single sign-on is not enabled for this organisation.',
  ONLY_SITE_ADMIN_SSO: 'Only a site admin can turn on single sign-on for a user.',
  ONLY_SITE_ADMIN_MFA: 'Only a site admin can change MFA enforcement.',
  OWN_PROFILE_ONLY: 'You can only change your own profile.',
  CURRENT_PASSWORD_WRONG: ACCOUNT_MESSAGES.CURRENT_PASSWORD_WRONG,
  SAME_PASSWORD: ACCOUNT_MESSAGES.SAME_PASSWORD,
  MFA_PENDING_OWN_ONLY: ACCOUNT_MESSAGES.MFA_ENFORCED,
  USER_ADDED_SUBJECT: `${PRODUCT_NAME}: your new account`,
} as const;

export function activeUsersLimitMessage(allowed: number): string {
  return `Your organisation is allowed only ${allowed} active user(s), and that many are active already. Disable another user first, or contact support to raise the limit.`;
}

/** A deep page of the list starts from the nearest of these keys and skips fewer than this many entries. */
export const PAGE_ANCHOR_STEP = 1000;

interface ListAnchor {
  lastName: string;
  firstName: string;
  email: string;
}

/** What the user list needs of its organisation. */
type ListedOrganisation = Pick<Organisation, 'id' | 'name'>;

/** The user list's columns besides the id (UserListItem). */
const LIST_COLUMNS = [
  'email',
  'isBlocked',
  'isDisabled',
  'roleId',
  'isAdministrator',
  'firstName',
  'lastName',
  'lastLoginAt',
  'isMFAEnforced',
  'isMFAEnabled',
  'hasPasskey',
  'isSSO',
  'managedBy',
] as const;

/** A list row as the database returns it (booleans as 0/1 on SQLite, the date as text there). */
type RawListRow = Record<(typeof LIST_COLUMNS)[number] | 'id', unknown> & {
  email: string;
  firstName: string;
  lastName: string;
};

/** The trigram index finds substrings of three characters or more; shorter text falls back to LIKE. */
export const TRIGRAM_MIN_CHARS = 3;

/**
 * A text search first reads this many matches + 1 from the text index (in id order): fewer, and they are all there
 * are, placed by the cached list order. More (a text many users hold, which an index hardly narrows), and the
 * list's own names and e-mails, cached in its order, are searched in memory instead.
 */
export const SEARCH_PROBE_SIZE = 1000;

/**
 * Lists of this many users and more have their names and e-mails read, and indexed in memory (ListOrder.indexTexts),
 * after a first search however few it matched, so that the next ones are made in memory: at 100,000 users a text of
 * one or two characters is found there without reading any text, a longer one by checking the few users holding its
 * pairs of characters (0-2 ms), against 0.3-1.5 ms for SQLite's FTS5 index to give its first 1,001 matches (then
 * placing them) and 4-10 ms for PostgreSQL's through the table. Smaller lists are searched through their indexes.
 */
const SEARCH_IN_MEMORY_FROM = 5000;

/**
 * PostgreSQL, for the text search's queries (SET LOCAL, inside their transaction): the matches are read through the
 * text indexes, as bitmaps. Left to itself the planner read the first 1,001 matches of "ada" by scanning the table
 * from its start, expecting them early (27 ms against 4.6 ms through the index, at 100,000 users, where the matches
 * lie together); started a parallel worker that cost more than it saved (26 against 18 ms for 40,000 matches of
 * "k"); and compiled the query (JIT: user_search_grams' high cost, which keeps the planner on its index, set it off).
 */
const PG_TEXT_INDEX_ONLY = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'jit']
  .map((setting) => `SET LOCAL ${setting} = off`)
  .concat('SET LOCAL max_parallel_workers_per_gather = 0')
  .join('; ');

/** The search text as one FTS5 phrase: every character literal, a double quote doubled. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** Where and how the SQLite text indexes look a search text up. */
export interface TextMatch {
  table: 'users_search' | 'users_search_short';
  phrase: string;
}

/**
 * The text as a query of the trigram index (3 characters and more) or of the short-text index (1-2, spelled as
 * migration UserSearchShort does); none for a text holding the short index's separator (LIKE reads it).
 */
export function textMatch(text: string): TextMatch | undefined {
  const chars = [...text];
  if (chars.length >= TRIGRAM_MIN_CHARS) return { table: 'users_search', phrase: ftsPhrase(text) };
  if (chars.length === 0 || text.includes('\x01')) return undefined;
  const spelled = chars.length === 1 ? `\x01${chars[0]}\x01` : `${chars[0]}\x01${chars[1]}`;
  return { table: 'users_search_short', phrase: ftsPhrase(spelled) };
}

/** Escapes LIKE wildcards so that the search text is taken literally (ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The list's text filter by LIKE (ILIKE on PostgreSQL): the name or the e-mail of user `u` holds the text. */
export function whereNameOrEmailLike(qb: SelectQueryBuilder<User>, text: string, postgres: boolean): void {
  const like = postgres ? 'ILIKE' : 'LIKE';
  qb.andWhere(`((u.firstName || ' ' || u.lastName) ${like} :q ESCAPE '\\' OR u.email ${like} :q ESCAPE '\\')`, {
    q: likePattern(text),
  });
}

/** The list's access and role filters on user `u`: 'hasAccess' is neither blocked nor disabled; role 3 is the administrator flag. */
export function whereAccessAndRole(
  qb: SelectQueryBuilder<User>,
  query: Pick<UserListQueryDto, 'accessLevel' | 'role'>,
): SelectQueryBuilder<User> {
  if (query.accessLevel === 'hasAccess') qb.andWhere('u.isBlocked = :no AND u.isDisabled = :no', { no: false });
  if (query.accessLevel === 'noAccess') qb.andWhere('(u.isBlocked = :yes OR u.isDisabled = :yes)', { yes: true });
  if (query.role === Role.ADMINISTRATOR) qb.andWhere('u.isAdministrator = :yes', { yes: true });
  else if (query.role) qb.andWhere('u.roleId = :role', { role: query.role });
  return qb;
}

/** Users of an organisation: the list, a user, role and access changes, profile, password, new users. */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Organisation) private readonly organisations: Repository<Organisation>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly counts: UserCountCache,
    private readonly passwords: PasswordService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
    private readonly breached: BreachedPasswordsService,
  ) {}

  /**
   * The user with this id, if the caller may see them: same organisation, or any for E-Support.
   * Another organisation's user is answered exactly like a missing one (404), so ids reveal nothing.
   */
  async findAccessible(caller: AuthUser, userId: number): Promise<User> {
    const user = await this.users.findOneBy({ id: userId });
    if (!user || !canAccessOrganisation(caller, user.organisationId))
      throw AppException.notFound(USER_MESSAGES.NOT_FOUND);
    return user;
  }

  /**
   * The id and name of the organisation a list is of: the caller's own as their sign-in read it (no query on
   * the list's hot path), else (E-Support only) the one asked for.
   */
  private async listedOrganisation(caller: AuthUser, organisationId?: number): Promise<ListedOrganisation> {
    const id = organisationId ?? caller.organisationId;
    if (id === caller.organisationId && caller.organisationName !== undefined)
      return { id, name: caller.organisationName };
    return this.organisationFor(caller, organisationId);
  }

  /** The organisation the caller works on: their own, or (E-Support only) the one asked for. */
  private async organisationFor(caller: AuthUser, organisationId?: number): Promise<Organisation> {
    const id = organisationId ?? caller.organisationId;
    if (!canAccessOrganisation(caller, id)) throw AppException.notFound(USER_MESSAGES.ORGANISATION_NOT_FOUND);
    const org = await this.organisations.findOneBy({ id });
    if (!org) throw AppException.notFound(USER_MESSAGES.ORGANISATION_NOT_FOUND);
    return org;
  }

  /**
   * One page of the user list and the total, filtered and paged in the database (spec 000 §5 filter):
   * the text matches name or e-mail case-insensitively with % _ \ taken literally; 'hasAccess' is neither
   * blocked nor disabled; role 3 is the administrator flag, any other the main role.
   */
  async list(caller: AuthUser, query: UserListQueryDto): Promise<UserListPage> {
    const org = await this.listedOrganisation(caller, query.organisationId);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? LIMITS.DEFAULT_PAGE_SIZE;
    // Only columns of IDX_users_org_search in the filters: the count reads the index alone, the page walks it in order.
    const filtered = (textBy: 'like' | 'none' = 'like') => {
      const qb = this.users.createQueryBuilder('u').where('u.organisationId = :org', { org: org.id });
      const text = query.searchText?.trim();
      if (text && textBy !== 'none') {
        // LIKE: the few SQLite texts its text indexes cannot take (searchPage reads the indexes itself, and
        // PostgreSQL's through postgresMatchingIds).
        whereNameOrEmailLike(qb, text, this.users.manager.connection.options.type === 'postgres');
      }
      return whereAccessAndRole(qb, query);
    };
    const count = () =>
      filtered()
        .select('COUNT(*)', 'n')
        .getRawOne<{ n: number | string }>()
        .then((r) => Number(r?.n ?? 0));
    const text = query.searchText?.trim();
    const cacheKey = `${org.id}|${query.accessLevel ?? 'all'}|${query.role ?? ''}`;
    if (text) return this.searchPage(page, pageSize, org, text, filtered, count, cacheKey);
    const totalRecords = await this.counts.get(cacheKey, count);
    const order = <T extends SelectQueryBuilder<User>>(qb: T): T =>
      qb.orderBy('u.lastName', 'ASC').addOrderBy('u.firstName', 'ASC').addOrderBy('u.email', 'ASC') as T;
    // Bounded paging: without text, every PAGE_ANCHOR_STEP-th sort key of the filtered list is kept with
    // its total, so a deep page starts at the nearest anchor (keyset) and skips fewer than that many
    // index entries, however deep it is.
    let offset = (page - 1) * pageSize;
    let from: ListAnchor | undefined;
    if (offset >= PAGE_ANCHOR_STEP && offset < totalRecords) {
      const anchors = await this.counts.get(`${cacheKey}|anchors`, () => this.pageAnchors(order(filtered())));
      from = anchors[Math.floor(offset / PAGE_ANCHOR_STEP)];
      if (from) offset %= PAGE_ANCHOR_STEP;
    }
    // One query in two steps: the page's ids from the covering index IDX_users_org_search (skipped entries
    // are index entries, never table rows), then those rows alone.
    const idQuery = order(filtered().select('u.id'));
    if (from)
      idQuery.andWhere('(u.lastName, u.firstName, u.email) >= (:aLast, :aFirst, :aEmail)', {
        aLast: from.lastName,
        aFirst: from.firstName,
        aEmail: from.email,
      });
    idQuery.offset(offset).limit(pageSize);
    const items =
      offset >= totalRecords && !from
        ? []
        : await this.listItems(
            order(this.listColumns().where(`u.id IN (${idQuery.getQuery()})`).setParameters(idQuery.getParameters())),
          );
    return {
      items,
      totalRecords,
      page,
      pageSize,
      organisationId: org.id,
      organisationName: org.name,
    };
  }

  /**
   * A page with a text filter and its exact total. A list of SEARCH_IN_MEMORY_FROM users or more, once searched,
   * has its names and e-mails cached in its order and indexed in memory (until a change to the users, or the TTL with
   * no search, then read again; unchanged, its index is kept): every search of it is made there. Otherwise the text
   * index gives the first SEARCH_PROBE_SIZE + 1 matching ids (SQLite: of every organisation, without reading their
   * rows); when they are all there are, the cached list order gives their positions and the page is the matches at
   * the smallest ones. More, and the list's texts are read and searched in memory: reading every match of a text a
   * fifth of 100,000 users hold cost 2-5 times the first page. Only a text holding one of their separators (control
   * characters) reads every match from the index instead.
   */
  private async searchPage(
    page: number,
    pageSize: number,
    org: ListedOrganisation,
    text: string,
    filtered: (textBy?: 'like' | 'none') => SelectQueryBuilder<User>,
    count: () => Promise<number>,
    cacheKey: string,
  ): Promise<UserListPage> {
    const postgres = this.users.manager.connection.options.type === 'postgres';
    const ordered = <T extends SelectQueryBuilder<User>>(qb: T): T =>
      qb.orderBy('u.lastName', 'ASC').addOrderBy('u.firstName', 'ASC').addOrderBy('u.email', 'ASC') as T;
    const base = { page, pageSize, organisationId: org.id, organisationName: org.name };
    const offset = (page - 1) * pageSize;
    const placed = async (order: ListOrder, matches: Uint32Array): Promise<UserListPage> => {
      const positions = order.positionsOf(matches);
      const ids = order.idsAt(positions.subarray(offset, offset + pageSize));
      return { items: await this.rowsInOrder(ids), totalRecords: positions.length, ...base };
    };
    const match = postgres ? undefined : textMatch(text);
    if (!postgres && !match) return this.searchPageExact(page, pageSize, org, filtered, count);
    const textsKey = `${cacheKey}|texts`;
    const listTexts = () =>
      this.listTexts(ordered(filtered('none')), postgres, this.counts.peekLarge<ListOrder | undefined>(textsKey));
    const inMemory = async (withTexts: ListOrder | undefined): Promise<UserListPage | undefined> => {
      const found = withTexts?.find(text, offset, pageSize);
      return (
        found && {
          items: await this.rowsInOrder(withTexts!.idsAt(found.positions)),
          totalRecords: found.total,
          ...base,
        }
      );
    };
    // The list's texts when they are cached (this list was searched lately).
    const cachedTexts = this.counts.getLargeIfCached(textsKey, listTexts);
    const fromCache = cachedTexts && (await inMemory(await cachedTexts));
    if (fromCache) return fromCache;
    // The order first (it is cached): PostgreSQL's search runs in a transaction, which must not wait for another
    // connection of the pool.
    const order = await this.counts.getLarge(`${cacheKey}|order`, () =>
      this.listOrder(ordered(filtered('none')), postgres),
    );
    const probe = match
      ? await this.firstMatchingIds(match, SEARCH_PROBE_SIZE + 1)
      : await this.postgresMatchingIds(text, filtered, SEARCH_PROBE_SIZE + 1);
    if (probe.length <= SEARCH_PROBE_SIZE) {
      const found = await placed(order, probe);
      // A large list's texts are read (and indexed) for the searches that follow (typing a search makes several),
      // after this one.
      if (order.size >= SEARCH_IN_MEMORY_FROM && isListText(text))
        void this.counts.getLarge(textsKey, listTexts).catch(() => undefined);
      return found;
    }
    const searched = isListText(text) && (await inMemory(await this.counts.getLarge(textsKey, listTexts)));
    if (searched) return searched;
    return placed(order, match ? await this.matchingIds(match) : await this.postgresMatchingIds(text, filtered));
  }

  /**
   * PostgreSQL: the ids of the list's users that hold the text, through the text indexes (pg_trgm for 3+
   * characters, user_search_grams for 1-2), the first `limit` of them or all.
   */
  private postgresMatchingIds(
    text: string,
    filtered: (textBy?: 'like' | 'none') => SelectQueryBuilder<User>,
    limit?: number,
  ): Promise<Uint32Array> {
    const qb = filtered('none').select('u.id', 'id');
    if (limit) qb.limit(limit);
    if ([...text].length >= TRIGRAM_MIN_CHARS) whereNameOrEmailLike(qb, text, true);
    else
      qb.andWhere(`user_search_grams(u.firstName || ' ' || u.lastName, u.email) @> ARRAY[lower(:gram)]::text[]`, {
        gram: text,
      });
    return this.users.manager.transaction(async (m) => {
      await m.query(PG_TEXT_INDEX_ONLY);
      return this.idList(qb, m);
    });
  }

  /** The ids a query selects (as `id`), read as one string (a row per id cost several times more). */
  private async idList(qb: SelectQueryBuilder<User>, m: EntityManager = this.users.manager): Promise<Uint32Array> {
    const [sql, params] = qb.getQueryAndParameters();
    const rows = (await m.query(`SELECT ${idListSql('"m"."id"', true)} AS "ids" FROM (${sql}) "m"`, params)) as Array<{
      ids: string | null;
    }>;
    return idsFromList(rows[0]?.ids);
  }

  /** The ids of every organisation's users the text index matches, ascending. */
  private async matchingIds(match: TextMatch): Promise<Uint32Array> {
    const rows = (await this.users.query(
      `SELECT ${idListSql('rowid')} AS "ids" FROM "${match.table}" WHERE "${match.table}" MATCH ?`,
      [match.phrase],
    )) as Array<{ ids: string | null }>;
    return idsFromList(rows[0]?.ids);
  }

  /** The first `limit` of matchingIds. */
  private async firstMatchingIds(match: TextMatch, limit: number): Promise<Uint32Array> {
    const rows = (await this.users.query(
      `SELECT ${idListSql('"m"."id"')} AS "ids" FROM
        (SELECT rowid AS "id" FROM "${match.table}" WHERE "${match.table}" MATCH ? LIMIT ?) "m"`,
      [match.phrase, limit],
    )) as Array<{ ids: string | null }>;
    return idsFromList(rows[0]?.ids);
  }

  /** The ids of this (filtered, ordered) list, in its order, read as one string. */
  private async listOrder(ordered: SelectQueryBuilder<User>, postgres: boolean): Promise<ListOrder> {
    const [sql, params] = ordered.select('u.id', 'id').getQueryAndParameters();
    // SQLite: an aggregate over a subquery with ORDER BY reads it in that order (SQLite does not flatten it).
    // PostgreSQL: an array built from a subquery keeps its order.
    const rows = (await this.users.query(
      postgres
        ? `SELECT array_to_string(ARRAY(${sql}), ',') AS "ids"`
        : `SELECT ${idListSql('"o"."id"')} AS "ids" FROM (${sql}) "o"`,
      params,
    )) as Array<{
      ids: string | null;
    }>;
    return ListOrder.of(idsFromList(rows[0]?.ids));
  }

  /**
   * This (filtered, ordered) list with its users' names and e-mails (ListOrder.withTexts), read as one string;
   * undefined when one of them holds a separator of that string. `previous`: the same list read before, kept when
   * nothing changed (with its index). A list of SEARCH_IN_MEMORY_FROM users or more is indexed in the background.
   */
  private async listTexts(
    ordered: SelectQueryBuilder<User>,
    postgres: boolean,
    previous?: Promise<ListOrder | undefined>,
  ): Promise<ListOrder | undefined> {
    const [sql, params] = ordered
      .select(listTextEntrySql('u', postgres ? 'chr' : 'char'), 'entry')
      .getQueryAndParameters();
    const rows = (await this.users.query(
      postgres
        ? `SELECT array_to_string(ARRAY(${sql}), chr(2)) AS "texts"`
        : `SELECT group_concat("t"."entry", char(2)) AS "texts" FROM (${sql}) "t"`,
      params,
    )) as Array<{ texts: string | null }>;
    const list = ListOrder.withTexts(rows[0]?.texts, await previous?.catch(() => undefined));
    if (list && list.size >= SEARCH_IN_MEMORY_FROM) void list.indexTexts().catch(() => undefined);
    return list;
  }

  /** A page with a text filter: its ids and the exact total in one pass over the matches (the index narrowed them). */
  private async searchPageExact(
    page: number,
    pageSize: number,
    org: ListedOrganisation,
    filtered: () => SelectQueryBuilder<User>,
    count: () => Promise<number>,
  ): Promise<UserListPage> {
    const raw = await filtered()
      .select('u.id', 'id')
      .addSelect('COUNT(*) OVER ()', 'total')
      .orderBy('u.lastName', 'ASC')
      .addOrderBy('u.firstName', 'ASC')
      .addOrderBy('u.email', 'ASC')
      .offset((page - 1) * pageSize)
      .limit(pageSize)
      .getRawMany<{ id: number; total: number | string }>();
    const totalRecords = raw.length > 0 ? Number(raw[0].total) : page > 1 ? await count() : 0;
    return {
      items: await this.rowsInOrder(raw.map((r) => Number(r.id))),
      totalRecords,
      page,
      pageSize,
      organisationId: org.id,
      organisationName: org.name,
    };
  }

  /** The list's columns of `u`, each under its own name (read raw: see listItems). */
  private listColumns(): SelectQueryBuilder<User> {
    const qb = this.users.createQueryBuilder('u').select('u.id', 'id');
    for (const column of LIST_COLUMNS) qb.addSelect(`u.${column}`, column);
    return qb;
  }

  /**
   * The list's rows as the answer's items, read raw: TypeORM's entity hydration cost more than the query.
   * The one date goes through the driver's own conversion, so it reads as the entity would.
   */
  private async listItems(qb: SelectQueryBuilder<User>): Promise<UserListItem[]> {
    const lastLogin = this.users.metadata.findColumnWithPropertyName('lastLoginAt')!;
    const driver = this.users.manager.connection.driver;
    return (await qb.getRawMany<RawListRow>()).map((r) => {
      const lastLoginAt = driver.prepareHydratedValue(r.lastLoginAt, lastLogin) as Date | null;
      return {
        id: Number(r.id),
        userEmail: r.email,
        isBlocked: Boolean(r.isBlocked),
        isDisabled: Boolean(r.isDisabled),
        userRoles: effectiveRoles(Number(r.roleId), Boolean(r.isAdministrator)),
        firstName: r.firstName,
        lastName: r.lastName,
        lastLoginDateTime: lastLoginAt ? new Date(lastLoginAt).toISOString() : null,
        isMFAEnforced: Boolean(r.isMFAEnforced),
        isMFAEnabled: Boolean(r.isMFAEnabled),
        hasPasskey: Boolean(r.hasPasskey),
        isSSO: Boolean(r.isSSO),
        isDirectoryManaged: r.managedBy !== null && r.managedBy !== undefined,
      };
    });
  }

  /** The list's items of these users, in the list's order. */
  private rowsInOrder(ids: number[]): Promise<UserListItem[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.listItems(
      this.listColumns()
        .where('u.id IN (:...ids)', { ids })
        .orderBy('u.lastName', 'ASC')
        .addOrderBy('u.firstName', 'ASC')
        .addOrderBy('u.email', 'ASC'),
    );
  }

  /** The sort keys at positions 0, STEP, 2 STEP, … of the ordered list, in one walk of the index. */
  private async pageAnchors(ordered: SelectQueryBuilder<User>): Promise<ListAnchor[]> {
    const [sql, params] = ordered
      .select('u.lastName', 'lastName')
      .addSelect('u.firstName', 'firstName')
      .addSelect('u.email', 'email')
      .addSelect('ROW_NUMBER() OVER (ORDER BY u.lastName, u.firstName, u.email)', 'rn')
      .getQueryAndParameters();
    return this.users.query(
      `SELECT "lastName", "firstName", "email" FROM (${sql}) t WHERE (t."rn" - 1) % ${PAGE_ANCHOR_STEP} = 0 ORDER BY t."rn"`,
      params,
    );
  }

  /** GET /api/users/byId/{id}: one's own (any role, also while MFA enrolment is due) or, for the roles page, another's. */
  async byId(caller: AuthUser, userId: number): Promise<SingleUser> {
    if (userId !== caller.id) {
      if (mfaPending(caller))
        throw AppException.forbidden(USER_MESSAGES.MFA_PENDING_OWN_ONLY, ERROR_CODES.MFA_ENROLMENT_REQUIRED);
      if (!caller.roles.some((r) => [Role.E_SUPPORT, Role.SITE_ADMIN, Role.ADMINISTRATOR].includes(r)))
        throw AppException.forbidden();
    }
    return toSingleUser(await this.findAccessible(caller, userId));
  }

  /** GET /auth/organisation: the organisation, its limits and a light list of its users. */
  async organisation(caller: AuthUser, organisationId?: number): Promise<OrganisationInfo> {
    const org = await this.organisationFor(caller, organisationId);
    const users = await this.users.find({
      select: { id: true, email: true, isDisabled: true, isBlocked: true },
      where: { organisationId: org.id },
      order: { email: 'ASC' },
    });
    return {
      id: org.id,
      code: org.code,
      name: org.name,
      accountType: org.accountType,
      applications: org.applications,
      isSSOEnabled: org.isSSOEnabled,
      allowedUsersNumber: org.allowedUsersNumber,
      maxConcurrentUsers: org.maxConcurrentUsers,
      activeUsers: users.filter(maySignIn).length,
      users: users.map((u) => ({ id: u.id, userEmail: u.email, isDisabled: u.isDisabled, isBlocked: u.isBlocked })),
    };
  }

  countActive(organisationId: number, manager: EntityManager = this.users.manager): Promise<number> {
    return manager.getRepository(User).countBy({ organisationId, isDisabled: false, isBlocked: false });
  }

  /**
   * Refuses one more active user when the organisation has its allowed number already (the vendor has no
   * limit). Takes the organisation's row lock inside `tx` first, so parallel creations and re-enablings
   * queue and the count they see includes each other's.
   */
  async assertRoomForActiveUser(tx: EntityManager, organisationId: number): Promise<Organisation> {
    const org = await lockRow(tx, Organisation, organisationId);
    if (!org) throw AppException.notFound(USER_MESSAGES.ORGANISATION_NOT_FOUND);
    if (!org.isVendor && (await this.countActive(org.id, tx)) >= org.allowedUsersNumber) {
      throw AppException.conflict(activeUsersLimitMessage(org.allowedUsersNumber), ERROR_CODES.ACTIVE_USERS_LIMIT);
    }
    return org;
  }

  async updateRole(caller: AuthUser, dto: UpdateRoleDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    const choice = parseRoleIds(dto.newUserRoleIds);
    if (typeof choice === 'string') throw AppException.badRequest(choice);
    const refused = checkRoleChange(caller, target, choice);
    if (refused) throw AppException.forbidden(refused);
    const before = roleNames(target.roles);
    const after = roleNames(effectiveRoles(choice.mainRole, choice.isAdministrator));
    await this.users.manager.transaction(async (tx) => {
      await tx
        .getRepository(User)
        .update({ id: target.id }, { roleId: choice.mainRole, isAdministrator: choice.isAdministrator });
      if (before !== after) {
        await this.audit.record(tx, {
          type: 'ROLE_CHANGED',
          actor: caller,
          target,
          client,
          summary: `Roles of ${target.email}: ${before} → ${after}`,
          changes: { roles: { from: before, to: after } },
        });
      }
    });
    return { success: true };
  }

  async enforceMfa(caller: AuthUser, dto: EnforceMfaDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    const refused = checkAccountAction(caller, target, 'mfa');
    if (refused) throw AppException.forbidden(refused);
    if (target.isMFAEnforced !== dto.isMFAEnforced) {
      await this.users.manager.transaction(async (tx) => {
        await tx.getRepository(User).update({ id: target.id }, { isMFAEnforced: dto.isMFAEnforced });
        await this.sessions.endAllForUsers([target.id], 'mfa-changed', undefined, tx);
        await this.audit.record(tx, {
          type: 'MFA_ENFORCEMENT_CHANGED',
          actor: caller,
          target,
          client,
          summary: `MFA ${dto.isMFAEnforced ? 'enforced' : 'no longer enforced'} for ${target.email}`,
          changes: { mfaEnforced: { from: target.isMFAEnforced, to: dto.isMFAEnforced } },
        });
      });
    }
    return { success: true };
  }

  async updateSso(caller: AuthUser, dto: UpdateSsoDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    const refused = checkAccountAction(caller, target, 'sso');
    if (refused) throw AppException.forbidden(refused);
    if (dto.isSSOEnabled) {
      const org = await this.organisations.findOneByOrFail({ id: target.organisationId });
      if (!org.isSSOEnabled) throw AppException.badRequest(USER_MESSAGES.SSO_NOT_ENABLED);
    }
    if (target.isSSO !== dto.isSSOEnabled) {
      await this.users.manager.transaction(async (tx) => {
        await tx.getRepository(User).update({ id: target.id }, { isSSO: dto.isSSOEnabled });
        await this.audit.record(tx, {
          type: 'SSO_CHANGED',
          actor: caller,
          target,
          client,
          summary: `SSO ${dto.isSSOEnabled ? 'enabled' : 'disabled'} for ${target.email}`,
          changes: { sso: { from: target.isSSO, to: dto.isSSOEnabled } },
        });
      });
    }
    return { success: true };
  }

  /** Enables or disables an account; disabling ends its sessions, enabling respects the active-users limit. */
  async disableUser(caller: AuthUser, dto: DisableUserDto, client?: RequestContext): Promise<SuccessResult> {
    const target = await this.findAccessible(caller, dto.userId);
    const refused = checkAccountAction(caller, target, 'access');
    if (refused) throw AppException.forbidden(refused);
    if (target.managedBy)
      throw AppException.forbidden(SCIM_MESSAGES.DIRECTORY_MANAGED_ACCESS, ERROR_CODES.DIRECTORY_MANAGED);
    await this.users.manager.transaction(async (tx) => {
      const current = await tx.getRepository(User).findOneBy({ id: target.id });
      if (!current || current.isDisabled === dto.isDisabled) return;
      if (maySignIn({ isDisabled: dto.isDisabled, isBlocked: current.isBlocked }))
        await this.assertRoomForActiveUser(tx, target.organisationId);
      const changed = await tx
        .getRepository(User)
        .update({ id: target.id, isDisabled: !dto.isDisabled }, { isDisabled: dto.isDisabled });
      if (changed.affected && dto.isDisabled)
        await this.sessions.endAllForUsers([target.id], 'disabled', undefined, tx);
      if (changed.affected) {
        await this.audit.record(tx, {
          type: 'ACCESS_CHANGED',
          actor: caller,
          target,
          client,
          summary: `Access of ${target.email} ${dto.isDisabled ? 'disabled' : 'enabled'}`,
          changes: { disabled: { from: !dto.isDisabled, to: dto.isDisabled } },
        });
      }
    });
    return { success: true };
  }

  async updateProfile(caller: AuthUser, dto: UpdateProfileDto): Promise<SingleUser> {
    if (dto.userId !== undefined && dto.userId !== caller.id)
      throw AppException.forbidden(USER_MESSAGES.OWN_PROFILE_ONLY);
    const changes: Partial<User> = {};
    for (const key of ['firstName', 'lastName', 'jobTitle', 'department', 'location'] as const) {
      if (dto[key] !== undefined) changes[key] = dto[key];
    }
    if (DIRECTORY_OWNED_FIELDS.some((key) => changes[key] !== undefined)) {
      // The directory's fields of an account it manages are its own: the next synchronisation would undo a change.
      const current = await this.users.findOneByOrFail({ id: caller.id });
      if (
        current.managedBy &&
        DIRECTORY_OWNED_FIELDS.some((k) => changes[k] !== undefined && changes[k] !== current[k])
      )
        throw AppException.forbidden(SCIM_MESSAGES.DIRECTORY_MANAGED_PROFILE, ERROR_CODES.DIRECTORY_MANAGED);
    }
    if (Object.keys(changes).length > 0) await this.users.update({ id: caller.id }, changes);
    return toSingleUser(await this.users.findOneByOrFail({ id: caller.id }));
  }

  /**
   * The caller's own password: the current one is required. Every session of the account ends, this one
   * included (CONTRACT 3): whoever else held the old password, or a session opened with it, is out at once.
   */
  async updatePassword(caller: AuthUser, dto: UpdatePasswordDto, client?: RequestContext): Promise<SuccessResult> {
    const user = await this.users.findOneByOrFail({ id: caller.id });
    if (!(await this.passwords.verify(user.passwordHash, dto.currentPassword))) {
      throw AppException.badRequest(USER_MESSAGES.CURRENT_PASSWORD_WRONG, ERROR_CODES.INVALID_CREDENTIALS);
    }
    if (dto.currentPassword === dto.userPassword)
      throw AppException.badRequest(USER_MESSAGES.SAME_PASSWORD, ERROR_CODES.WEAK_PASSWORD);
    await this.breached.assertNotBreached(dto.userPassword, 'userPassword');
    const passwordHash = await this.passwords.hash(dto.userPassword);
    await this.users.manager.transaction(async (tx) => {
      await tx
        .getRepository(User)
        .update({ id: user.id }, { passwordHash, mustChangePassword: false, passwordChangedAt: new Date() });
      await this.sessions.endAllForUsers([user.id], 'password-changed', undefined, tx);
      await this.audit.record(tx, {
        type: 'PASSWORD_CHANGED',
        actor: caller,
        target: user,
        client,
        summary: 'Password changed',
      });
    });
    return { success: true };
  }

  /**
   * Creates a user in the caller's organisation with a temporary password that must be changed at the first
   * sign-in, and e-mails it with the sign-in address. Defaults (spec 000 §9): MFA enforced, no SSO, base role.
   */
  async add(caller: AuthUser, dto: AddUserDto, client?: RequestContext): Promise<NewUserResult> {
    const org = await this.organisationFor(caller);
    const choice = parseRoleIds(dto.userRoleIds ?? [BASE_ROLE]);
    if (typeof choice === 'string') throw AppException.badRequest(choice);
    const refused = checkNewUserRole(caller, choice);
    if (refused) throw AppException.forbidden(refused);
    const isSSO = dto.isSSO ?? false;
    const isMFAEnforced = dto.isMFAEnforced ?? true;
    if (!canToggleAdministrator(caller)) {
      if (isSSO) throw AppException.forbidden(USER_MESSAGES.ONLY_SITE_ADMIN_SSO);
      if (!isMFAEnforced) throw AppException.forbidden(USER_MESSAGES.ONLY_SITE_ADMIN_MFA);
    }
    if (isSSO && !org.isSSOEnabled) throw AppException.badRequest(USER_MESSAGES.SSO_NOT_ENABLED);
    if (await this.users.existsBy({ email: dto.userEmail }))
      throw AppException.conflict(USER_MESSAGES.DUPLICATE_EMAIL, ERROR_CODES.DUPLICATE_EMAIL);

    // Hash before the transaction: argon2 takes tens of milliseconds and needs no lock.
    const password = temporaryPassword();
    const passwordHash = await this.passwords.hash(password);
    let user: User;
    try {
      // The user and the e-mail with the temporary password commit together: neither exists without the other.
      user = await this.users.manager.transaction(async (tx) => {
        await this.assertRoomForActiveUser(tx, org.id);
        const created = await tx.getRepository(User).save(
          tx.getRepository(User).create({
            organisationId: org.id,
            email: dto.userEmail,
            passwordHash,
            roleId: choice.mainRole,
            isAdministrator: choice.isAdministrator,
            isMFAEnforced,
            isSSO,
            mustChangePassword: true,
          }),
        );
        await this.mail.send(
          {
            to: created.email,
            subject: USER_MESSAGES.USER_ADDED_SUBJECT,
            text:
              `An account of ${org.name} has been created for you on ${PRODUCT_NAME}.\n\n` +
              `Sign in at ${this.config.publicUrl}/logIn\n\nEmail: ${created.email}\nTemporary password: ${password}\n\n` +
              'You will be asked to choose a new password when you first sign in.' +
              (isMFAEnforced
                ? ' Your administrator requires multi-factor authentication: you will then set up an authenticator app on your profile page.'
                : ''),
          },
          tx,
        );
        await this.audit.record(tx, {
          type: 'USER_CREATED',
          actor: caller,
          target: created,
          client,
          summary: `User ${created.email} created as ${roleNames(created.roles)}`,
          changes: {
            roles: { from: null, to: roleNames(created.roles) },
            mfaEnforced: { from: null, to: isMFAEnforced },
            sso: { from: null, to: isSSO },
          },
        });
        return created;
      });
    } catch (e) {
      if (e instanceof QueryFailedError && /unique|duplicate/i.test(e.message))
        throw AppException.conflict(USER_MESSAGES.DUPLICATE_EMAIL, ERROR_CODES.DUPLICATE_EMAIL);
      throw e;
    }
    return { success: true, id: user.id };
  }
}

export function toSingleUser(u: User): SingleUser {
  return {
    id: u.id,
    organisationId: u.organisationId,
    isDisabled: u.isDisabled,
    isMFAEnforced: u.isMFAEnforced,
    isMFAEnabled: u.isMFAEnabled,
    hasPasskey: u.hasPasskey,
    isSSO: u.isSSO,
    firstName: u.firstName,
    lastName: u.lastName,
    userEmail: u.email,
    userUserRoleMapping: u.roles.map((roleId) => ({ roleId })),
    jobTitle: u.jobTitle,
    department: u.department,
    location: u.location,
    isDirectoryManaged: u.managedBy !== null,
  };
}

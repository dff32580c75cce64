import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { UserListItem, UserListPage } from '../../../shared/api-types';
import { LIMITS } from '../../../shared/limits';
import { UserListQueryDto } from '../dto/user-list-query.dto';
import { User } from '../../../platform/database/entities/user.entity';
import { UserCountCache } from '../user-count-cache';
import { LIST_COLUMNS, listItemOf, RawListRow } from './list-columns';
import { isListText, ListOrder } from './list-order';
import { whereAccessAndRole, whereNameOrEmailLike } from './text-match';
import { UserSearchStore } from './user-search.store';

/** A deep page of the list starts from the nearest of these keys and skips fewer than this many entries. */
export const PAGE_ANCHOR_STEP = 1000;

interface ListAnchor {
  lastName: string;
  firstName: string;
  email: string;
}

/** What the user list needs of its organisation. */
export type ListedOrganisation = Pick<Organisation, 'id' | 'name'>;

/**
 * A text search first reads this many matches + 1 from the text index (in id order): fewer, and they are all there
 * are, placed by the cached list order. More (a text many users hold, which an index hardly narrows), and the
 * list's own names and e-mails, cached in its order, are searched in memory instead.
 */
export const SEARCH_PROBE_SIZE = 1000;

/**
 * Lists of this many users and more have their names and e-mails read, and indexed in memory (ListOrder.indexTexts),
 * after a first search however few it matched, so that the next ones are made in memory: a text of one or two
 * characters is found there without reading any text, a longer one by checking the few users holding its pairs of
 * characters, which is quicker than either database's index giving its first 1,001 matches to be placed (the figures:
 * docs/decisions/perf-user-list-and-search.md). Smaller lists are searched through their indexes.
 */
const SEARCH_IN_MEMORY_FROM = 5000;

/**
 * The user list of an organisation: filters, the text search through SQLite's FTS5 and PostgreSQL's trigram indexes
 * or in memory for large lists, and bounded deep paging.
 */
@Injectable()
export class UserSearchService {
  private readonly store: UserSearchStore;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly counts: UserCountCache,
  ) {
    this.store = new UserSearchStore(users);
  }

  /**
   * One page of the user list and the total, filtered and paged in the database (spec 000 §5 filter):
   * the text matches name or e-mail case-insensitively with % _ \ taken literally; 'hasAccess' is neither
   * blocked nor disabled; role 3 is the administrator flag, any other the main role.
   */
  async list(org: ListedOrganisation, query: UserListQueryDto): Promise<UserListPage> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? LIMITS.DEFAULT_PAGE_SIZE;
    // Only columns of IDX_users_org_search in the filters: the count reads the index alone, the page walks it in order.
    const filtered = (textBy: 'like' | 'none' = 'like') => {
      const qb = this.users.createQueryBuilder('u').where('u.organisationId = :org', { org: org.id });
      const text = query.searchText?.trim();
      if (text && textBy !== 'none') {
        // LIKE: the few SQLite texts its text indexes cannot take (searchPage reads the indexes itself, and
        // PostgreSQL's through postgresMatchingIds).
        whereNameOrEmailLike(qb, text);
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
    const ordered = <T extends SelectQueryBuilder<User>>(qb: T): T =>
      qb.orderBy('u.lastName', 'ASC').addOrderBy('u.firstName', 'ASC').addOrderBy('u.email', 'ASC') as T;
    const base = { page, pageSize, organisationId: org.id, organisationName: org.name };
    const offset = (page - 1) * pageSize;
    const placed = async (order: ListOrder, matches: Uint32Array): Promise<UserListPage> => {
      const positions = order.positionsOf(matches);
      const ids = order.idsAt(positions.subarray(offset, offset + pageSize));
      return { items: await this.rowsInOrder(ids), totalRecords: positions.length, ...base };
    };
    const lookUp = this.store.textLookup(text, filtered);
    if (!lookUp) return this.searchPageExact(page, pageSize, org, filtered, count);
    const textsKey = `${cacheKey}|texts`;
    const listTexts = () =>
      this.listTexts(ordered(filtered('none')), this.counts.peekLarge<ListOrder | undefined>(textsKey));
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
      this.store.orderedIds(ordered(filtered('none'))).then((ids) => ListOrder.of(ids)),
    );
    const probe = await lookUp(SEARCH_PROBE_SIZE + 1);
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
    return placed(order, await lookUp());
  }

  /**
   * This (filtered, ordered) list with its users' names and e-mails (ListOrder.withTexts), read as one string;
   * undefined when one of them holds a separator of that string. `previous`: the same list read before, kept when
   * nothing changed (with its index). A list of SEARCH_IN_MEMORY_FROM users or more is indexed in the background.
   */
  private async listTexts(
    ordered: SelectQueryBuilder<User>,
    previous?: Promise<ListOrder | undefined>,
  ): Promise<ListOrder | undefined> {
    const texts = await this.store.orderedTexts(ordered);
    const list = ListOrder.withTexts(texts, await previous?.catch(() => undefined));
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
      return listItemOf(r, lastLoginAt ? new Date(lastLoginAt) : null);
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
}

import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { User } from '../../../platform/database/entities/user.entity';
import { idListSql, idsFromList, listTextEntrySql } from './list-order';
import { TextMatch, textMatch, TRIGRAM_MIN_CHARS, whereNameOrEmailLike } from './text-match';

/**
 * PostgreSQL, for the text search's queries (SET LOCAL, inside their transaction): the matches are read through the
 * text indexes, as bitmaps. Left to itself the planner read the first 1,001 matches of a common text by scanning the
 * table from its start, expecting them early, which is slower than the index where the matches lie together; started
 * a parallel worker that cost more than it saved; and compiled the query (JIT: user_search_grams' high cost, which
 * keeps the planner on its index, set it off). The figures: docs/decisions/perf-user-list-and-search.md.
 */
const PG_TEXT_INDEX_ONLY = ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'jit']
  .map((setting) => `SET LOCAL ${setting} = off`)
  .concat('SET LOCAL max_parallel_workers_per_gather = 0')
  .join('; ');

/** The text indexes' matches of one search text: the ids of the users that hold it, the first `limit` or all. */
export type TextLookup = (limit?: number) => Promise<Uint32Array>;

/** The list's filtered query of users `u` (with its text filter, or without: 'none'). */
export type FilteredUsers = (textBy?: 'like' | 'none') => SelectQueryBuilder<User>;

/**
 * The user list's statements that differ between the engines: the text indexes (SQLite's FTS5 tables, PostgreSQL's
 * pg_trgm and user_search_grams), and a list's ids or texts read as one string (group_concat, or an array on
 * PostgreSQL, which keeps the subquery's order).
 */
export class UserSearchStore {
  private readonly postgres: boolean;

  constructor(private readonly users: Repository<User>) {
    this.postgres = users.manager.connection.options.type === 'postgres';
  }

  /**
   * How the text indexes look `text` up; none for a text SQLite's indexes cannot take (a separator of the short
   * index), which the list filters by LIKE instead. On SQLite the matches are of every organisation, in id order;
   * on PostgreSQL of the filtered list.
   */
  textLookup(text: string, filtered: FilteredUsers): TextLookup | undefined {
    if (this.postgres) return (limit) => this.postgresMatchingIds(text, filtered, limit);
    const match = textMatch(text);
    if (!match) return undefined;
    return (limit) => (limit === undefined ? this.matchingIds(match) : this.firstMatchingIds(match, limit));
  }

  /** The ids of this (filtered, ordered) list, in its order, read as one string. */
  async orderedIds(ordered: SelectQueryBuilder<User>): Promise<Uint32Array> {
    const [sql, params] = ordered.select('u.id', 'id').getQueryAndParameters();
    // SQLite: an aggregate over a subquery with ORDER BY reads it in that order (SQLite does not flatten it).
    // PostgreSQL: an array built from a subquery keeps its order.
    const rows = (await this.users.query(
      this.postgres
        ? `SELECT array_to_string(ARRAY(${sql}), ',') AS "ids"`
        : `SELECT ${idListSql('"o"."id"')} AS "ids" FROM (${sql}) "o"`,
      params,
    )) as Array<{
      ids: string | null;
    }>;
    return idsFromList(rows[0]?.ids);
  }

  /** This (filtered, ordered) list's ids, names and e-mails as one string (ListOrder.withTexts reads it). */
  async orderedTexts(ordered: SelectQueryBuilder<User>): Promise<string | null | undefined> {
    const [sql, params] = ordered
      .select(listTextEntrySql('u', this.postgres ? 'chr' : 'char'), 'entry')
      .getQueryAndParameters();
    const rows = (await this.users.query(
      this.postgres
        ? `SELECT array_to_string(ARRAY(${sql}), chr(2)) AS "texts"`
        : `SELECT group_concat("t"."entry", char(2)) AS "texts" FROM (${sql}) "t"`,
      params,
    )) as Array<{ texts: string | null }>;
    return rows[0]?.texts;
  }

  /**
   * PostgreSQL: the ids of the list's users that hold the text, through the text indexes (pg_trgm for 3+
   * characters, user_search_grams for 1-2), the first `limit` of them or all.
   */
  private postgresMatchingIds(text: string, filtered: FilteredUsers, limit?: number): Promise<Uint32Array> {
    const qb = filtered('none').select('u.id', 'id');
    if (limit) qb.limit(limit);
    if ([...text].length >= TRIGRAM_MIN_CHARS) whereNameOrEmailLike(qb, text);
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
  private async idList(qb: SelectQueryBuilder<User>, m: EntityManager): Promise<Uint32Array> {
    const [sql, params] = qb.getQueryAndParameters();
    const rows = (await m.query(`SELECT ${idListSql('"m"."id"', true)} AS "ids" FROM (${sql}) "m"`, params)) as Array<{
      ids: string | null;
    }>;
    return idsFromList(rows[0]?.ids);
  }

  /** SQLite: the ids of every organisation's users the text index matches, ascending. */
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
}

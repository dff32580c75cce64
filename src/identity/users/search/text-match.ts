import { SelectQueryBuilder } from 'typeorm';
import { Role } from '../../../shared/roles';
import { UserListQueryDto } from '../dto/user-list-query.dto';
import { User } from '../../../platform/database/entities/user.entity';
import { caseInsensitiveLike } from '../../../platform/database/raw-sql';

/** The trigram index finds substrings of three characters or more; shorter text falls back to LIKE. */
export const TRIGRAM_MIN_CHARS = 3;

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
export function whereNameOrEmailLike(qb: SelectQueryBuilder<User>, text: string): void {
  const like = caseInsensitiveLike(qb.connection);
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

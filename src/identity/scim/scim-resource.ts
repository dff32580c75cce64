import { HttpStatus } from '@nestjs/common';
import { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { sha256 } from '../../platform/crypto/secrets';
import { lockRow } from '../../platform/database/locks';
import { LIMITS } from '../../shared/limits';
import { badSyntax, badValue, notFound, scimError } from './scim-errors';
import { EqCondition } from './scim-filter';
import { MAX_RESULTS, SCHEMAS } from './scim-schema';

/** Helpers every SCIM resource shares: reading bodies, paging, versions. */

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An attribute of a SCIM object by its name, case-insensitively (RFC 7643 §2.1). */
export function field(doc: Record<string, unknown>, name: string): unknown {
  if (name in doc) return doc[name];
  const lower = name.toLowerCase();
  const key = Object.keys(doc).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : doc[key];
}

/** An optional text attribute: absent or null is '' (or null where `nullable`); too long or not text a 400. */
export function text(value: unknown, name: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badValue(`${name} must be text.`);
  const v = value.trim();
  if (v.length > max) throw badValue(`${name} may have at most ${max} characters.`);
  return v;
}

/** A boolean attribute, also as the text "True"/"False" some directories send. */
export function bool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw badValue(`${name} must be true or false.`);
}

/** A body that must be a resource of the given core schema. */
export function resourceBody(body: unknown, schema: string): Record<string, unknown> {
  if (!isObject(body)) throw badSyntax('The body must be a SCIM resource object.');
  const schemas = field(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.includes(schema)) throw badSyntax(`schemas must hold "${schema}".`);
  return body;
}

/** The id in a resource's path: a stored row's id, else nothing is found under it. */
export function idOf(id: string): number | null {
  return /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null;
}

/**
 * The row a resource path names, if it belongs to the calling organisation; locked when `manager` is inside a
 * transaction (a change reads it under its lock). Any other id, or another organisation's row, is a SCIM 404.
 */
export async function findInOrganisation<T extends { id: number; organisationId: number }>(
  manager: EntityManager,
  entity: new () => T,
  what: 'User' | 'Group',
  organisationId: number,
  id: string,
): Promise<T> {
  const n = idOf(id);
  const row =
    n === null
      ? null
      : manager.queryRunner?.isTransactionActive
        ? await lockRow(manager, entity, n)
        : await manager.getRepository(entity).findOneBy({ id: n } as never);
  if (!row || row.organisationId !== organisationId) throw notFound(what, id);
  return row;
}

export interface Paging {
  startIndex: number;
  count: number;
}

/**
 * startIndex (1-based; less than 1 is 1) and count (0 to MAX_RESULTS; default MAX_RESULTS) of RFC 7644 §3.4.2.4:
 * 32-bit whole numbers in decimal digits, as every numeric query parameter of the product (LIMITS.ID_MAX).
 */
export function paging(query: Record<string, unknown>): Paging {
  const int = (v: unknown, name: string, fallback: number): number => {
    if (v === undefined) return fallback;
    const n = typeof v === 'string' && /^-?\d{1,10}$/.test(v) ? Number(v) : NaN;
    if (!(Math.abs(n) <= LIMITS.ID_MAX))
      throw badValue(`${name} must be a whole number from -${LIMITS.ID_MAX} to ${LIMITS.ID_MAX}.`);
    return n;
  };
  const startIndex = Math.max(1, int(query.startIndex, 'startIndex', 1));
  const count = Math.min(MAX_RESULTS, Math.max(0, int(query.count, 'count', MAX_RESULTS)));
  return { startIndex, count };
}

/**
 * The rows of a list request (RFC 7644 §3.4.2): `qb` (the organisation's rows, as `alias`) narrowed by the filter's
 * `eq` conditions, an `id` here and the others by `where`, then the page asked for (`page`), ordered by id. An id that names
 * no row makes the list empty without reading.
 */
export async function listRows<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  conditions: EqCondition[],
  page: Paging,
  where: (c: EqCondition, param: string) => void,
): Promise<{ rows: T[]; total: number }> {
  let none = false;
  conditions.forEach((c, i) => {
    const param = `v${i}`;
    if (c.attribute !== 'id') return where(c, param);
    const n = idOf(c.value);
    if (n === null) none = true;
    else qb.andWhere(`${alias}.id = :${param}`, { [param]: n });
  });
  if (none) return { rows: [], total: 0 };
  const total = await qb.getCount();
  const rows =
    page.count === 0 || page.startIndex > total
      ? []
      : await qb
          .orderBy(`${alias}.id`, 'ASC')
          .offset(page.startIndex - 1)
          .limit(page.count)
          .getMany();
  return { rows, total };
}

export function listResponse(resources: unknown[], total: number, page: Paging) {
  return {
    schemas: [SCHEMAS.LIST],
    totalResults: total,
    startIndex: page.startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** A weak version of a resource's content (its meta aside): changes exactly when what a directory reads changes. */
export function versionOf(resource: Record<string, unknown>): string {
  const { meta: _meta, ...content } = resource;
  return `W/"${sha256(JSON.stringify(content)).slice(0, 16)}"`;
}

/** If-Match (RFC 7644 §3.14): the change goes ahead only on the version named (or '*'), else 412. */
export function checkIfMatch(ifMatch: string | undefined, current: string): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (!tags.includes(current))
    throw scimError(HttpStatus.PRECONDITION_FAILED, 'The resource has changed since that version was read.');
}

/** A query parameter given once: repeated, it is refused. */
export function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badValue(`${name} may be given once.`);
  return v;
}

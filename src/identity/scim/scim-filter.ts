import { HttpStatus } from '@nestjs/common';
import { Filter, parse } from 'scim2-parse-filter';
import { scimError } from './scim-errors';

/** One `attribute eq "value"` of a filter, the attribute as the resource names it (canonical case). */
export interface EqCondition {
  attribute: string;
  value: string;
}

/** The longest filter taken: a directory's lookups are a line; anything far longer is not one. */
const FILTER_MAX_LENGTH = 1000;

const invalidFilter = (detail: string) => scimError(HttpStatus.BAD_REQUEST, detail, 'invalidFilter');

/**
 * A filter as the conditions it ANDs (RFC 7644 §3.4.2.2, the part directories use to look a resource up before
 * creating it): `eq` on the given attributes, joined by `and`. Attribute names are case-insensitive and may carry the
 * schema's URN. Anything else is a 400 invalidFilter, so that no directory mistakes an unsupported filter for an
 * empty result.
 */
export function eqConditions(text: string, attributes: readonly string[], schema: string): EqCondition[] {
  if (text.length > FILTER_MAX_LENGTH) throw invalidFilter('The filter is too long.');
  let ast: Filter;
  try {
    ast = parse(text);
  } catch {
    throw invalidFilter('The filter is not valid SCIM filter syntax.');
  }
  const out: EqCondition[] = [];
  const walk = (f: Filter): void => {
    if (f.op === 'and') return (f as { filters: Filter[] }).filters.forEach(walk);
    if (f.op !== 'eq') throw invalidFilter(`Only "eq" comparisons joined by "and" are supported (got "${f.op}").`);
    const c = f as { attrPath: string; compValue: unknown };
    const path = c.attrPath.toLowerCase().startsWith(`${schema.toLowerCase()}:`)
      ? c.attrPath.slice(schema.length + 1)
      : c.attrPath;
    const attribute = attributes.find((a) => a.toLowerCase() === path.toLowerCase());
    if (!attribute) throw invalidFilter(`Filtering on "${c.attrPath}" is not supported (${attributes.join(', ')}).`);
    if (typeof c.compValue !== 'string') throw invalidFilter(`"${c.attrPath}" is compared with text.`);
    out.push({ attribute, value: c.compValue });
  };
  walk(ast);
  return out;
}

export const USER_FILTER_ATTRIBUTES = ['id', 'userName', 'externalId', 'displayName'] as const;
export const GROUP_FILTER_ATTRIBUTES = ['id', 'displayName', 'externalId'] as const;

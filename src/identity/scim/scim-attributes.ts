import { badValue } from './scim-errors';

/** Returned whatever `attributes` asks for (RFC 7643 §7: returned "always"). */
const ALWAYS = new Set(['id', 'schemas', 'meta']);

/** A comma-separated attribute list of a query, each name lower-cased and without its core schema's URN. */
export function attributeList(value: unknown, coreSchema: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > 1000) throw badValue('attributes must be a comma-separated list.');
  const prefix = `${coreSchema.toLowerCase()}:`;
  return value
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
    .map((a) => (a.startsWith(prefix) ? a.slice(prefix.length) : a));
}

/**
 * The resource with only the asked attributes (and id, schemas, meta), or without the excluded ones (RFC 7644
 * §3.4.2.5). A name is `attr`, `attr.sub`, or an extension's `urn:…:attr`; matching is case-insensitive.
 */
export function project(
  resource: Record<string, unknown>,
  attributes: string[] | undefined,
  excluded: string[] | undefined,
): Record<string, unknown> {
  if (!attributes?.length && !excluded?.length) return resource;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const k = key.toLowerCase();
    if (ALWAYS.has(key)) {
      out[key] = value;
      continue;
    }
    const subs = (list: string[]) =>
      list.filter((a) => a.startsWith(`${k}.`) || a.startsWith(`${k}:`)).map((a) => a.slice(k.length + 1));
    if (attributes?.length) {
      if (attributes.includes(k)) out[key] = value;
      else if (subs(attributes).length && isObject(value)) out[key] = pick(value, subs(attributes));
    } else if (!excluded!.includes(k)) {
      out[key] = subs(excluded!).length && isObject(value) ? omit(value, subs(excluded!)) : value;
    }
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pick = (v: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(Object.entries(v).filter(([k]) => names.includes(k.toLowerCase())));
const omit = (v: Record<string, unknown>, names: string[]) =>
  Object.fromEntries(Object.entries(v).filter(([k]) => !names.includes(k.toLowerCase())));

import { Filter, parse } from 'scim2-parse-filter';
import { scimPatch, ScimPatchOperation, ScimResource } from 'scim-patch';
import { badPath, badSyntax, badValue, immutable, ScimType, scimError } from './scim-errors';
import { MAX_OPERATIONS, SCHEMAS } from './scim-schema';

type Op = 'add' | 'replace' | 'remove';
interface Operation {
  op: Op;
  path?: string;
  value?: unknown;
}

/** What a PATCH may touch on a resource: its attributes by lower-cased root name, and the read-only ones. */
export interface PatchRules {
  /** The resource's core schema, whose URN a path may carry. */
  schema: string;
  /**
   * Root attributes (lower-cased) an operation may change; others are ignored, as RFC 7644 lets a provider do (Okta
   * sends the group's id beside a new displayName, Entra ID attributes this service does not keep).
   */
  writable: ReadonlySet<string>;
  /** Root attributes (lower-cased) whose change is refused with scimType mutability. */
  readOnly: ReadonlySet<string>;
  /** Root attributes (lower-cased) whose text "True"/"False" is a boolean (Entra ID sends them so). */
  booleans: ReadonlySet<string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The operations of a PATCH body (RFC 7644 §3.5.2) as Microsoft Entra ID and Okta send them, made plain for
 * scim-patch: op names in any case ('Replace'); a path-less add or replace whose value object carries attributes
 * (with dotted names such as "name.givenName", or the enterprise extension's URN) split into one operation per
 * attribute; "True"/"False" for booleans; the core schema's URN dropped from paths. Operations on attributes this
 * service does not keep are dropped; on read-only ones refused.
 */
export function patchOperations(body: unknown, rules: PatchRules): ScimPatchOperation[] {
  if (!isObject(body)) throw badSyntax('The body must be a SCIM PatchOp object.');
  const schemas = body.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(SCHEMAS.PATCH))
    throw badSyntax(`schemas must hold "${SCHEMAS.PATCH}".`);
  const ops = body.Operations ?? body.operations;
  if (!Array.isArray(ops) || ops.length === 0) throw badSyntax('Operations must be a list of operations.');
  if (ops.length > MAX_OPERATIONS) throw badSyntax(`At most ${MAX_OPERATIONS} operations per request.`);
  const out: ScimPatchOperation[] = [];
  for (const raw of ops) {
    if (!isObject(raw)) throw badSyntax('Each operation must be an object.');
    const op = typeof raw.op === 'string' ? raw.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw badSyntax('Each operation\'s "op" must be add, replace or remove.');
    if (raw.path !== undefined && typeof raw.path !== 'string')
      throw badPath('An operation\'s "path" must be an attribute path.');
    for (const split of splitPathless({ op, path: raw.path as string | undefined, value: raw.value })) {
      const kept = checked(split, rules);
      if (kept) out.push(kept as ScimPatchOperation);
    }
  }
  return out;
}

/** A path-less add or replace as one operation per attribute of its value. */
function splitPathless(o: Operation): Operation[] {
  if (o.path !== undefined) return [o];
  if (o.op === 'remove') throw badSyntax('A remove operation needs a path.');
  if (!isObject(o.value)) throw badSyntax('An operation without a path carries an object of attributes.');
  const out: Operation[] = [];
  for (const [key, value] of Object.entries(o.value)) {
    if (key.toLowerCase() === SCHEMAS.ENTERPRISE_USER.toLowerCase() && isObject(value)) {
      for (const [sub, v] of Object.entries(value))
        out.push({ op: o.op, path: `${SCHEMAS.ENTERPRISE_USER}:${sub}`, value: v });
    } else out.push({ op: o.op, path: key, value });
  }
  return out;
}

/** The root attribute a path names, lower-cased ("name.givenName" → "name", "members[value eq …]" → "members"). */
export function rootOf(path: string, schema: string): { root: string; path: string } {
  let p = path;
  if (p.toLowerCase().startsWith(`${schema.toLowerCase()}:`)) p = p.slice(schema.length + 1);
  if (p.toLowerCase().startsWith(SCHEMAS.ENTERPRISE_USER.toLowerCase()))
    return { root: SCHEMAS.ENTERPRISE_USER.toLowerCase(), path: p };
  const root = /^[^.[]+/.exec(p)?.[0] ?? p;
  return { root: root.toLowerCase(), path: p };
}

/**
 * Names that reach JavaScript's object machinery rather than an attribute: the patch library follows a path such as
 * `name.__proto__.x` or `name.constructor.prototype.x` onto Object.prototype. No SCIM schema has them; a path or a
 * value that names one is refused.
 */
const OBJECT_MACHINERY = new Set(['__proto__', 'constructor', 'prototype']);

/** A key of the value of an operation, at any depth, that names the object machinery; found without recursion. */
function machineryKey(value: unknown): string | undefined {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    for (const [key, child] of Object.entries(v)) {
      if (OBJECT_MACHINERY.has(key.toLowerCase())) return key;
      stack.push(child);
    }
  }
  return undefined;
}

/** An attribute name (RFC 7643 §2.1: ALPHA *(nameChar)); `__proto__` is none. */
const ATTRIBUTE = '[A-Za-z][A-Za-z0-9_-]*';
/** [URN ":"] attribute ["[" value filter "]"] ["." sub-attribute] (RFC 7644 §3.5.2's PATH). */
const PATH = new RegExp(`^(?:urn:[^[]*:)?(${ATTRIBUTE})(?:\\[(.*)\\])?(?:\\.(${ATTRIBUTE}))?$`, 'i');
const PATH_MAX_LENGTH = 500;

/** A PATCH path as its parts: the attribute, its value filter parsed, its sub-attribute. */
export interface ParsedPath {
  attribute: string;
  filter?: Filter;
  subAttribute?: string;
}

/**
 * Every PATCH path, read by one rule before anything acts on it: the grammar of RFC 7644 §3.5.2, the value filter
 * by the filter parser the queries use. Anything else (a bad escape, an unbalanced bracket, a name that is no
 * attribute name) is a 400 invalidPath.
 */
export function parsePath(path: string): ParsedPath {
  const invalid = () => badPath(`"${path.slice(0, 100)}" is not a valid attribute path.`);
  if (path.trim() === '' || path.length > PATH_MAX_LENGTH) throw invalid();
  const m = PATH.exec(path);
  if (!m || [m[1], m[3]].some((name) => name !== undefined && OBJECT_MACHINERY.has(name.toLowerCase())))
    throw invalid();
  let filter: Filter | undefined;
  if (m[2] !== undefined)
    try {
      filter = parse(m[2]);
    } catch {
      throw invalid();
    }
  return { attribute: m[1], filter, subAttribute: m[3] };
}

function checked(o: Operation, rules: PatchRules): Operation | null {
  parsePath(o.path!);
  const key = machineryKey(o.value);
  if (key !== undefined) throw badValue(`"${key}" is not an attribute name.`);
  const { root, path } = rootOf(o.path!, rules.schema);
  if (rules.readOnly.has(root)) throw immutable(`"${o.path}" cannot be changed through SCIM.`);
  if (!rules.writable.has(root)) return null;
  let value = o.value;
  if (rules.booleans.has(root) && typeof value === 'string' && /^(true|false)$/i.test(value))
    value = value.toLowerCase() === 'true';
  return o.op === 'remove' && value === undefined ? { op: o.op, path } : { op: o.op, path, value };
}

const LIBRARY_SCIM_TYPES = new Set<ScimType>(['invalidSyntax', 'invalidPath', 'invalidValue', 'noTarget']);

/** The resource after the operations (a copy), or a 400 saying what the library refused, with its scimType. */
export function applyPatch<T extends ScimResource>(resource: T, operations: ScimPatchOperation[]): T {
  try {
    return scimPatch(resource, operations, { mutateDocument: false, treatMissingAsAdd: true });
  } catch (e) {
    const code = (e as { scimCode?: unknown }).scimCode as ScimType;
    const scimType = LIBRARY_SCIM_TYPES.has(code) ? code : 'invalidValue';
    throw scimError(400, `The operations cannot be applied: ${(e as Error).message}`, scimType);
  }
}

/** The member id a `members[value eq "id"]` path names, or null when the path names no single member so. */
function memberFilterValue(path: string): string | null {
  const { attribute, filter, subAttribute } = parsePath(path);
  if (attribute.toLowerCase() !== 'members' || !filter || subAttribute !== undefined || filter.op !== 'eq') return null;
  const c = filter as { attrPath: string; compValue: unknown };
  if (c.attrPath.toLowerCase() !== 'value') return null;
  if (typeof c.compValue !== 'string') throw badValue('A member is named by the text of its id.');
  return c.compValue;
}

/**
 * A group's member ids after one operation on `members`, applied here rather than by scim-patch, which compares
 * whole member objects: Entra ID removes `{"$ref": null, "value": id}` from members answered with display and $ref,
 * and Okta removes `members[value eq "id"]` of a member already gone (a no-op, not an error).
 */
export function applyMemberOperation(ids: string[], op: ScimPatchOperation): string[] {
  const values = (v: unknown): string[] => {
    if (!Array.isArray(v)) throw badValue('members must be a list of {value: user id}.');
    return v.map((m) => {
      const value = isObject(m) ? m.value : undefined;
      if (typeof value !== 'string') throw badValue('Each member needs the value of a user id.');
      return value;
    });
  };
  const path = op.path ?? '';
  const filtered = memberFilterValue(path);
  if (op.op.toLowerCase() === 'remove') {
    if (filtered !== null) return ids.filter((id) => id !== filtered);
    if (path.toLowerCase() !== 'members') throw badValue(`Unsupported members path "${path}".`);
    if (op.value === undefined) return [];
    const gone = new Set(values(op.value));
    return ids.filter((id) => !gone.has(id));
  }
  if (path.toLowerCase() !== 'members') throw badValue(`Unsupported members path "${path}".`);
  const given = values(op.value);
  return op.op.toLowerCase() === 'add' ? [...new Set([...ids, ...given])] : [...new Set(given)];
}

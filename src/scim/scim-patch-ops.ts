import { scimPatch, ScimPatchOperation, ScimResource } from 'scim-patch';
import { badSyntax, badValue, immutable } from './scim-errors';
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
    if (raw.path !== undefined && (typeof raw.path !== 'string' || raw.path.trim() === '' || raw.path.length > 500))
      throw badSyntax('An operation\'s "path" must be an attribute path.');
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

function checked(o: Operation, rules: PatchRules): Operation | null {
  const { root, path } = rootOf(o.path!, rules.schema);
  if (rules.readOnly.has(root)) throw immutable(`"${o.path}" cannot be changed through SCIM.`);
  if (!rules.writable.has(root)) return null;
  let value = o.value;
  if (rules.booleans.has(root) && typeof value === 'string' && /^(true|false)$/i.test(value))
    value = value.toLowerCase() === 'true';
  return o.op === 'remove' && value === undefined ? { op: o.op, path } : { op: o.op, path, value };
}

/** The resource after the operations (a copy), or a 400 saying what the library refused. */
export function applyPatch<T extends ScimResource>(resource: T, operations: ScimPatchOperation[]): T {
  try {
    return scimPatch(resource, operations, { mutateDocument: false, treatMissingAsAdd: true });
  } catch (e) {
    throw badValue(`The operations cannot be applied: ${(e as Error).message}`);
  }
}

const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\]$/i;

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
  const filtered = MEMBER_FILTER.exec(path);
  if (op.op.toLowerCase() === 'remove') {
    if (filtered) return ids.filter((id) => id !== JSON.parse(`"${filtered[1]}"`));
    if (path.toLowerCase() !== 'members') throw badValue(`Unsupported members path "${path}".`);
    if (op.value === undefined) return [];
    const gone = new Set(values(op.value));
    return ids.filter((id) => !gone.has(id));
  }
  if (path.toLowerCase() !== 'members') throw badValue(`Unsupported members path "${path}".`);
  const given = values(op.value);
  return op.op.toLowerCase() === 'add' ? [...new Set([...ids, ...given])] : [...new Set(given)];
}

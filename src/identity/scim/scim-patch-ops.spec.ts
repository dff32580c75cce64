import { applyMemberOperation, applyPatch, parsePath, patchOperations, PatchRules } from './scim-patch-ops';
import { eqConditions } from './scim-filter';
import { project } from './scim-attributes';
import { SCHEMAS } from './scim-schema';

const RULES: PatchRules = {
  schema: SCHEMAS.USER,
  writable: new Set(['active', 'name', 'title', SCHEMAS.ENTERPRISE_USER.toLowerCase()]),
  readOnly: new Set(['roles']),
  booleans: new Set(['active']),
};
const body = (...Operations: unknown[]) => ({ schemas: [SCHEMAS.PATCH], Operations });

describe('patchOperations: PATCH bodies as Entra ID and Okta send them', () => {
  it('lower-cases ops, turns "True"/"False" into booleans, and splits a path-less object per attribute', () => {
    expect(
      patchOperations(
        body(
          { op: 'Replace', path: 'active', value: 'False' },
          {
            op: 'Add',
            value: { 'name.givenName': 'Ada', [SCHEMAS.ENTERPRISE_USER]: { department: 'Tax' }, nickName: 'x' },
          },
        ),
        RULES,
      ),
    ).toEqual([
      { op: 'replace', path: 'active', value: false },
      { op: 'add', path: 'name.givenName', value: 'Ada' },
      { op: 'add', path: `${SCHEMAS.ENTERPRISE_USER}:department`, value: 'Tax' },
    ]);
  });

  it('drops the core schema URN from paths and ignores attributes the service does not keep', () => {
    expect(patchOperations(body({ op: 'replace', path: `${SCHEMAS.USER}:title`, value: 'T' }), RULES)).toEqual([
      { op: 'replace', path: 'title', value: 'T' },
    ]);
    expect(
      patchOperations(body({ op: 'replace', path: 'phoneNumbers[type eq "work"].value', value: '1' }), RULES),
    ).toEqual([]);
  });

  it('refuses read-only attributes (mutability) and malformed bodies (invalidSyntax)', () => {
    const scimType = (b: unknown) => {
      try {
        patchOperations(b, RULES);
        return 'none';
      } catch (e) {
        return (e as { extra: { scimType: string } }).extra.scimType;
      }
    };
    expect(scimType(body({ op: 'add', path: 'roles', value: [] }))).toBe('mutability');
    expect(scimType({ Operations: [] })).toBe('invalidSyntax');
    expect(scimType(body())).toBe('invalidSyntax');
    expect(scimType(body({ op: 'copy', path: 'title' }))).toBe('invalidSyntax');
    expect(scimType(body({ op: 'remove' }))).toBe('invalidSyntax');
    expect(scimType(body({ op: 'add', value: [1] }))).toBe('invalidSyntax');
    expect(scimType(body({ op: 'add', path: 7, value: 1 }))).toBe('invalidPath');
  });

  it('reads every path by one grammar: malformed paths and names that are no attribute names are invalidPath', () => {
    const scimType = (path: string, value: unknown = 'x') => {
      try {
        patchOperations(body({ op: 'replace', path, value }), RULES);
        return 'none';
      } catch (e) {
        return (e as { extra?: { scimType: string } }).extra?.scimType ?? `threw ${String(e)}`;
      }
    };
    for (const path of [
      '',
      ' ',
      '[',
      'title]',
      'emails[type eq "work"',
      'emails[type eq "\\x]',
      'emails[type eq ].value',
      '__proto__',
      'name.__proto__',
      'name.constructor.prototype',
      'name.constructor',
      'constructor',
      'name.__proto__.polluted',
      'name.givenName.extra',
      '1title',
      'title;drop table users',
      'x'.repeat(501),
    ])
      expect({ path, scimType: scimType(path) }).toEqual({ path, scimType: 'invalidPath' });
    // The paths directories send are all read.
    for (const path of [
      'title',
      'name.givenName',
      'emails[type eq "work"].value',
      'phoneNumbers[type eq "mobile"].value',
      `${SCHEMAS.ENTERPRISE_USER}:department`,
      `${SCHEMAS.ENTERPRISE_USER}:manager.value`,
      SCHEMAS.ENTERPRISE_USER,
      'urn:ietf:params:scim:schemas:extension:Custom:2.0:User:costCode',
    ])
      expect({ path, scimType: scimType(path, path === SCHEMAS.ENTERPRISE_USER ? {} : 'x') }).toEqual({
        path,
        scimType: 'none',
      });
  });

  it('refuses values whose keys reach the object machinery (invalidValue), and pollutes nothing', () => {
    for (const value of [
      '{"__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"givenName":"a","x":[{"__proto__":{"polluted":"yes"}}]}',
    ]) {
      expect(() =>
        patchOperations(body({ op: 'add', path: 'name', value: JSON.parse(value) as unknown }), RULES),
      ).toThrow(expect.objectContaining({ extra: { scimType: 'invalidValue' } }));
      expect(() => patchOperations(body({ op: 'add', value: { name: JSON.parse(value) as unknown } }), RULES)).toThrow(
        expect.objectContaining({ extra: { scimType: 'invalidValue' } }),
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parsePath gives the attribute, the value filter as the filter parser reads it, and the sub-attribute', () => {
    expect(parsePath('emails[type eq "work"].value')).toEqual({
      attribute: 'emails',
      filter: { op: 'eq', attrPath: 'type', compValue: 'work' },
      subAttribute: 'value',
    });
    expect(parsePath(`${SCHEMAS.USER}:title`)).toEqual({
      attribute: 'title',
      filter: undefined,
      subAttribute: undefined,
    });
  });

  it('applies operations to a copy; a value the library refuses is a 400 invalidValue', () => {
    const user = { schemas: [SCHEMAS.USER], title: 'Old', meta: { created: new Date(), lastModified: new Date() } };
    expect(applyPatch(user, [{ op: 'replace', path: 'title', value: 'New' }]).title).toBe('New');
    expect(user.title).toBe('Old');
  });
});

describe('applyMemberOperation', () => {
  it('adds without duplicates, removes by value list or by filter (a missing member is no error), replaces', () => {
    expect(
      applyMemberOperation(['1'], { op: 'add', path: 'members', value: [{ value: '2' }, { value: '1' }] }),
    ).toEqual(['1', '2']);
    expect(
      applyMemberOperation(['1', '2'], { op: 'remove', path: 'members', value: [{ $ref: null, value: '1' }] }),
    ).toEqual(['2']);
    expect(applyMemberOperation(['1', '2'], { op: 'remove', path: 'members[value eq "2"]' })).toEqual(['1']);
    expect(applyMemberOperation(['1'], { op: 'remove', path: 'members[value eq "9"]' })).toEqual(['1']);
    expect(applyMemberOperation(['1'], { op: 'remove', path: 'members' })).toEqual([]);
    expect(applyMemberOperation(['1'], { op: 'replace', path: 'members', value: [{ value: '3' }] })).toEqual(['3']);
    expect(() => applyMemberOperation([], { op: 'add', path: 'members', value: [{ display: 'x' }] })).toThrow();
  });

  it('reads a member filter as the filter parser reads a query: a bad escape is a 400 or a literal, never a crash', () => {
    expect(applyMemberOperation(['a"b', '2'], { op: 'remove', path: 'members[value eq "a\\"b"]' })).toEqual(['2']);
    // A backslash before anything but a quote is itself, as in a query's filter: no member has that id.
    expect(applyMemberOperation(['1'], { op: 'remove', path: 'members[value eq "\\x"]' })).toEqual(['1']);
    for (const path of [
      'members[value eq "\\\\"]',
      'members[value eq "\\"]',
      'members[value eq "1"',
      'members[value eq "1"] or 1',
      'members[value eq 5]',
    ])
      expect(() => applyMemberOperation(['1'], { op: 'remove', path })).toThrow(
        expect.objectContaining({ extra: expect.objectContaining({ scimType: expect.any(String) }) }),
      );
  });
});

describe('eqConditions', () => {
  const attrs = ['id', 'userName', 'externalId'];
  it('takes eq joined by and, attribute names in any case or with the schema URN', () => {
    expect(eqConditions('USERNAME eq "a@b.c" and externalId eq "x"', attrs, SCHEMAS.USER)).toEqual([
      { attribute: 'userName', value: 'a@b.c' },
      { attribute: 'externalId', value: 'x' },
    ]);
    expect(eqConditions(`${SCHEMAS.USER}:userName eq "a"`, attrs, SCHEMAS.USER)).toEqual([
      { attribute: 'userName', value: 'a' },
    ]);
  });
  it('refuses other operators, attributes, or syntax with invalidFilter', () => {
    for (const f of [
      'userName co "a"',
      'userName eq "a" or id eq "1"',
      'title eq "x"',
      'userName eq',
      'not (id eq "1")',
      'id eq 1',
    ])
      expect(() => eqConditions(f, attrs, SCHEMAS.USER)).toThrow(
        expect.objectContaining({ extra: { scimType: 'invalidFilter' } }),
      );
  });
});

describe('project', () => {
  const r = { schemas: ['s'], id: '1', meta: {}, userName: 'u', name: { givenName: 'g', familyName: 'f' }, title: 't' };
  it('keeps asked attributes (and sub-attributes) or drops excluded ones; id, schemas, meta always stay', () => {
    expect(project(r, ['username', 'name.givenname'], undefined)).toEqual({
      schemas: ['s'],
      id: '1',
      meta: {},
      userName: 'u',
      name: { givenName: 'g' },
    });
    expect(project(r, undefined, ['title', 'name.familyname', 'id'])).toEqual({
      schemas: ['s'],
      id: '1',
      meta: {},
      userName: 'u',
      name: { givenName: 'g' },
    });
  });
});

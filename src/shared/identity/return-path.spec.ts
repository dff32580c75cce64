import { providerReturnPath, RETURN_PATH_MAX, safeReturnPath } from './return-path';

const ORIGIN = 'https://portal.example.com';

describe('safeReturnPath: a returnTo is only ever a path of this origin, judged after resolution', () => {
  it.each([
    ['/users', '/users'],
    ['/users?page=2#top', '/users?page=2#top'],
    ['/profile/../users', '/users'],
    ['/profile/%2e%2e/users', '/users'],
    ['/a/./b', '/a/b'],
    ['/audit?searchText=a%20b', '/audit?searchText=a%20b'],
    ['/users?next=//evil.example', '/users?next=//evil.example'],
    ['/..', '/'],
  ])('keeps %j as %j', (value, kept) => {
    expect(safeReturnPath(value, ORIGIN)).toBe(kept);
  });

  it.each([
    // Dot segments that resolve to a protocol-relative address.
    '/..//evil.example',
    '/../..//evil.example',
    '/a/../..//evil.example',
    '/.%2e//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2E//evil.example',
    '/a/%2e%2e/%2e%2e//evil.example',
    '/./%2e/..//evil.example',
    // Encoded separators and control characters.
    '/%2f%2fevil.example',
    '/%2F/evil.example',
    '/%5cevil.example',
    '/%5C%5Cevil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    '/%0D%0ALocation:%20https://evil.example',
    '/%00',
    '/%7f',
    // Backslashes, which browsers read as slashes.
    '/\\evil.example',
    '\\/evil.example',
    '\\\\evil.example',
    '/a\\..\\..\\\\evil.example',
    // Control characters, which browsers drop.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    // Another origin, a scheme, or no leading slash.
    '//evil.example',
    '///evil.example',
    'https://evil.example/',
    'https:evil.example',
    'https:/evil.example',
    'http://portal.example.com/users',
    'javascript:alert(1)',
    'data:text/html,hi',
    'users',
    '.',
    '',
    ' /users',
    `/${'a'.repeat(RETURN_PATH_MAX)}`,
  ])('refuses %j', (value) => {
    expect(safeReturnPath(value, ORIGIN)).toBeNull();
  });

  it.each([null, undefined, 42, {}, ['/users']])('refuses a value that is not a string (%j)', (value) => {
    expect(safeReturnPath(value, ORIGIN)).toBeNull();
  });

  it('never answers something that resolves elsewhere', () => {
    const parts = ['/', '..', '.', '%2e', '%2E', '/', '//', 'x', '?', '#', '@', ':', 'evil.example'];
    for (let i = 0; i < 3000; i++) {
      let v = '/';
      for (let j = 0; j < 6; j++) v += parts[(i * 7 + j * 13 + ((i >> j) & 7)) % parts.length];
      const kept = safeReturnPath(v, ORIGIN);
      if (kept === null) continue;
      expect(kept.startsWith('/') && !kept.startsWith('//')).toBe(true);
      expect(new URL(kept, ORIGIN).origin).toBe(ORIGIN);
    }
  });
});

describe("providerReturnPath: only the OpenID provider's sign-in, under /oidc/", () => {
  it.each(['/oidc/interaction/abc', '/oidc/auth/x?y=1'])('keeps %s', (value) => {
    expect(providerReturnPath(value, ORIGIN)).toBe(value);
  });
  it.each([
    '/',
    '/users',
    '/oidcx/a',
    '/oidc',
    '/a/../oidc/../users',
    '//evil.example/oidc/x',
    'https://evil.example/oidc/x',
  ])('drops %s', (value) => {
    expect(providerReturnPath(value, ORIGIN)).toBeNull();
  });
});

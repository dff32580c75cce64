import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './LoginPage';

const ORIGIN = 'https://portal.example.com';

describe('safeReturnPath: returnTo is only ever a path of this origin', () => {
  it.each([
    ['/users', '/users'],
    ['/users?page=2#top', '/users?page=2#top'],
    ['/profile/../users', '/users'],
    ['/audit?searchText=a%20b', '/audit?searchText=a%20b'],
  ])('keeps %s', (value, kept) => {
    expect(safeReturnPath(value, ORIGIN)).toBe(kept);
  });

  it.each([
    // What the scanners sent (as URLSearchParams decodes them), and their relatives.
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    '\\/evil.example',
    '//evil.example',
    '///evil.example',
    '/%09/evil.example'.replace('%09', '\t'),
    'https://evil.example/',
    'javascript:alert(1)',
    'users',
    '',
    '/logIn',
    '/logIn?returnTo=/users',
    '/LOGIN/',
    // Dot segments and encodings that resolve to another site.
    '/..//evil.example',
    '/%2e%2e//evil.example',
    '/a/%2E%2E/%2e%2e//evil.example',
    '/%2f%2fevil.example',
    '/%5cevil.example',
  ])('ignores %j', (value) => {
    expect(safeReturnPath(value, ORIGIN)).toBeNull();
  });

  it('ignores a missing value', () => {
    expect(safeReturnPath(null, ORIGIN)).toBeNull();
  });
});

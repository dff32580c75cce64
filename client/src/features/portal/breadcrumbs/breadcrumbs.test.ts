import { describe, expect, it } from 'vitest';
import { breadcrumbs, humanise, isIdLike } from './breadcrumbs';

const labels = (p: string) => breadcrumbs(p).map((c) => c.label);

describe('breadcrumbs (spec 001 §2.3)', () => {
  it('shows nothing after the home icon on the home page', () => {
    expect(breadcrumbs('/')).toEqual([]);
  });

  it('shows each segment with hyphens as spaces, capitalised', () => {
    expect(labels('/external-data')).toEqual(['External data']);
    expect(labels('/user-security-management')).toEqual(['User security management']);
    expect(labels('/users/user-sessions')).toEqual(['Users', 'User sessions']);
    expect(labels('/users/sso')).toEqual(['Users', 'Single Sign-On']);
    expect(labels('/about')).toEqual(['About']);
  });

  it('skips numeric and id-like segments', () => {
    expect(labels('/portfolios/42/sub-portfolios')).toEqual(['Portfolios', 'Sub portfolios']);
    expect(labels('/portfolios/3f2b8c1e-9a4d-4e7f-8b2a-1c2d3e4f5a6b/user-groups')).toEqual([
      'Portfolios',
      'User groups',
    ]);
    expect(labels('/users/507f1f77bcf86cd799439011/user-groups')).toEqual(['Users', 'User groups']);
    expect(isIdLike('123')).toBe(true);
    expect(isIdLike('deadbeefdeadbeef')).toBe(true);
    expect(isIdLike('reports')).toBe(false);
    expect(isIdLike('user-transactions-import')).toBe(false);
  });

  it.each([
    ['/cgtview', 'CGT View'],
    ['/cpi-data', 'CPI Data'],
    ['/logIn', 'Log In'],
    ['/user-transactions', 'User Transactions'],
    ['/user-transactions-import', 'Import User Transactions'],
    ['/userSecurityAdmin', 'User Securities'],
    ['/dividend-calc', 'Dividend Calculator'],
  ])('gives %s its special label %s', (path, label) => {
    expect(labels(path)).toEqual([label]);
  });

  it("shows 'details' for the profile and roles subpaths", () => {
    expect(labels('/users/profile/17')).toEqual(['Users', 'Profile', 'details']);
    expect(labels('/users/roles/17')).toEqual(['Users', 'Roles', 'details']);
  });

  it("shows 'edit' for the security admin edit path", () => {
    expect(labels('/userSecurityAdmin/edit')).toEqual(['User Securities', 'edit']);
  });

  it('links every crumb but the last, and only to paths that are pages', () => {
    expect(breadcrumbs('/users/user-sessions')).toEqual([{ label: 'Users', to: '/users' }, { label: 'User sessions' }]);
    expect(breadcrumbs('/users/profile/5', (p) => p === '/users')).toEqual([
      { label: 'Users', to: '/users' },
      { label: 'Profile', to: undefined },
      { label: 'details' },
    ]);
  });

  it('humanise capitalises only the first letter', () => {
    expect(humanise('activities-no-clients')).toBe('Activities no clients');
  });
});

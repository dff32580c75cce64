import request from 'supertest';
import { Organisation } from '../../src/organisations/entities/organisation.entity';
import { User } from '../../src/users/entities/user.entity';
import { Role } from '../../src/shared/roles';
import { SEARCH_COUNT_CAP } from '../../src/users/users.service';
import { createOrganisation, createUser, login, LoggedIn } from '../utils/factories';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * A text search with many matches (issue 16): when more than SEARCH_COUNT_CAP match and the page lies near the top
 * of the list, the page is found by walking the top of the list (SQLite: its ordered index; PostgreSQL: its first
 * entries by id) and the total said to be capped; otherwise every match is placed by the cached list order and
 * counted exactly. Either way the page must be exactly the one a full sort of every match gives.
 */
describe('GET /api/users: a text search with more matches than the count cap', () => {
  let t: TestApp;
  let org: Organisation;
  let s: LoggedIn;
  let all: User[];
  const postgres = process.env.E2E_DATABASE === 'postgres';
  const DENSE = SEARCH_COUNT_CAP + 150;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t, { name: 'Dense Ltd', allowedUsersNumber: 5000 });
    const admin = await createUser(t, org, {
      roleId: Role.SITE_ADMIN,
      firstName: 'Site',
      lastName: 'Admin',
      email: 'site.admin@dense.example',
    });
    s = await login(t, admin.email);
    const rows: Array<Partial<User>> = [];
    // Matches of "zeb" interleaved in the list's order with users that do not match; some in upper case;
    // "Müller" (non-ASCII) on the dense ones too; 600 "quill" users (fewer than the cap).
    for (let i = 0; i < DENSE + 400; i++) {
      const dense = i % 3 !== 0 || i >= DENSE + 300;
      rows.push({
        organisationId: org.id,
        firstName: ['Ann', 'Bob', 'Cy'][i % 3],
        lastName: `${dense ? (i % 5 === 0 ? 'ZEBRA' : 'zebra') : 'Horse'} Müller ${(i * 7919) % 997}`,
        email: `${i < 600 ? 'quill' : 'p'}${i}@dense.test`,
        roleId: i % 4 === 0 ? Role.VIEWER : Role.ANALYST,
        isDisabled: i % 7 === 0,
      });
    }
    for (let i = 0; i < rows.length; i += 400) await t.db.getRepository(User).insert(rows.slice(i, i + 400));
    all = await t.db
      .getRepository(User)
      .find({ where: { organisationId: org.id }, order: { lastName: 'ASC', firstName: 'ASC', email: 'ASC' } });
  });
  afterAll(() => t.close());

  const list = (query: Record<string, unknown>) => request(t.http).get('/api/users').query(query).set(s.auth);
  const ids = (res: request.Response) => res.body.items.map((u: { id: number }) => u.id);
  const matching = (text: string, keep: (u: User) => boolean = () => true) =>
    all.filter(
      (u) =>
        (`${u.firstName} ${u.lastName}`.toLowerCase().includes(text) || u.email.toLowerCase().includes(text)) &&
        keep(u),
    );

  it('gives exactly the pages a full sort gives, whatever the case of the text, walked or placed', async () => {
    const expected = matching('zeb');
    expect(expected.length).toBeGreaterThan(SEARCH_COUNT_CAP);
    for (const text of ['zeb', 'ZEB', 'ebr']) {
      for (const [page, pageSize] of [
        [1, 50],
        [2, 50],
        [7, 100],
        [20, 50],
      ]) {
        const res = await list({ searchText: text, page, pageSize }).expect(200);
        expect(ids(res)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id));
        // Walked (when cheaper): "more than 1,000"; placed: exact.
        expect([res.body.totalRecords, res.body.totalIsCapped]).toEqual(
          res.body.totalIsCapped ? [SEARCH_COUNT_CAP, true] : [expected.length, false],
        );
      }
    }
  });

  it('walks the top of the list when the matches are spread through it (a capped total), places them deeper', async () => {
    const expected = matching('ller');
    expect(expected.length).toBeGreaterThan(SEARCH_COUNT_CAP);
    for (const text of ['ller', 'LLER']) {
      for (const [page, pageSize, walked] of [
        [1, 50, true],
        [3, 100, true],
        [20, 50, false],
      ] as const) {
        const res = await list({ searchText: text, page, pageSize }).expect(200);
        expect(ids(res)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id));
        if (walked) expect(res.body).toMatchObject({ totalRecords: SEARCH_COUNT_CAP, totalIsCapped: true });
        else expect(res.body).toMatchObject({ totalRecords: expected.length, totalIsCapped: false });
      }
    }
  });

  it('applies the other filters as well', async () => {
    const expected = matching('zeb', (u) => !u.isDisabled && !u.isBlocked && u.roleId === Role.ANALYST);
    expect(expected.length).toBeGreaterThan(SEARCH_COUNT_CAP / 2);
    const res = await list({
      searchText: 'zebra',
      accessLevel: 'hasAccess',
      role: Role.ANALYST,
      page: 3,
      pageSize: 25,
    }).expect(200);
    expect(ids(res)).toEqual(expected.slice(50, 75).map((u) => u.id));
  });

  it('finds the pages of non-ASCII text with many matches in any case (SQLite: LIKE cannot walk it, every match placed)', async () => {
    const expected = matching('müller');
    expect(expected.length).toBeGreaterThan(SEARCH_COUNT_CAP);
    for (const text of ['müller', 'MÜLLER', 'ü', 'Ü']) {
      for (const [page, pageSize] of [
        [3, 50],
        [16, 100],
      ]) {
        const res = await list({ searchText: text, page, pageSize }).expect(200);
        expect(ids(res)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id));
        // PostgreSQL's ILIKE folds every letter, so it walks the top of the list there (page 3 of 50).
        if (postgres && page === 3)
          expect(res.body).toMatchObject({ totalRecords: SEARCH_COUNT_CAP, totalIsCapped: true });
        else expect(res.body).toMatchObject({ totalRecords: expected.length, totalIsCapped: false });
      }
    }
  });

  it('places every match when they lie too deep in the list to walk: exact total and pages, 1-2 characters too', async () => {
    // "Horse" users come first in the list; "p1" and "n" match many, beyond the walk for deep pages.
    for (const text of ['p1', 'n', 'y ']) {
      const expected = matching(text.trim());
      expect(expected.length).toBeGreaterThan(200);
      const res = await list({ searchText: text, page: 2, pageSize: 100 }).expect(200);
      expect(ids(res)).toEqual(expected.slice(100, 200).map((u) => u.id));
      if (expected.length <= SEARCH_COUNT_CAP) expect(res.body).toMatchObject({ totalRecords: expected.length });
    }
  });

  it('counts exactly up to the cap', async () => {
    const expected = matching('quill');
    expect(expected.length).toBe(600);
    const res = await list({ searchText: 'quill', page: 2, pageSize: 100 }).expect(200);
    expect(res.body).toMatchObject({ totalRecords: 600, totalIsCapped: false });
    expect(ids(res)).toEqual(expected.slice(100, 200).map((u) => u.id));
  });
});

import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { SEARCH_PROBE_SIZE } from '../../../src/identity/users/search/user-search.service';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * A text search with many matches: when more than SEARCH_PROBE_SIZE match, the list's names and e-mails,
 * cached in its order, are searched in memory; fewer, and the text index's matches are placed by the cached list
 * order. Either way the page must be exactly the one a full sort of every match gives, and the total exact.
 */
describe('GET /api/users: a text search with more matches than the text index is asked for', () => {
  let t: TestApp;
  let org: Organisation;
  let s: LoggedIn;
  let all: User[];
  const DENSE = SEARCH_PROBE_SIZE + 150;

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

  it('gives exactly the pages a full sort gives, and the exact total, whatever the case of the text', async () => {
    const expected = matching('zeb');
    expect(expected.length).toBeGreaterThan(SEARCH_PROBE_SIZE);
    for (const text of ['zeb', 'ZEB', 'ebr']) {
      for (const [page, pageSize] of [
        [1, 50],
        [2, 50],
        [7, 100],
        [20, 50],
      ]) {
        const res = await list({ searchText: text, page, pageSize }).expect(200);
        expect(ids(res)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id));
        expect(res.body.totalRecords).toBe(expected.length);
        expect(res.body).not.toHaveProperty('totalIsCapped');
      }
    }
  });

  it('pages matches spread through the whole list, from the first page to the last', async () => {
    const expected = matching('ller');
    expect(expected.length).toBeGreaterThan(SEARCH_PROBE_SIZE);
    for (const text of ['ller', 'LLER']) {
      for (const [page, pageSize] of [
        [1, 50],
        [3, 100],
        [20, 50],
        [Math.ceil(expected.length / 25), 25],
      ]) {
        const res = await list({ searchText: text, page, pageSize }).expect(200);
        expect(ids(res)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id));
        expect(res.body.totalRecords).toBe(expected.length);
      }
    }
  });

  it('applies the other filters as well', async () => {
    const expected = matching('zeb', (u) => !u.isDisabled && !u.isBlocked && u.roleId === Role.ANALYST);
    expect(expected.length).toBeGreaterThan(SEARCH_PROBE_SIZE / 2);
    const res = await list({
      searchText: 'zebra',
      accessLevel: 'hasAccess',
      role: Role.ANALYST,
      page: 3,
      pageSize: 25,
    }).expect(200);
    expect(ids(res)).toEqual(expected.slice(50, 75).map((u) => u.id));
  });

  it('finds the pages of non-ASCII text with many matches in any case', async () => {
    const expected = matching('müller');
    expect(expected.length).toBeGreaterThan(SEARCH_PROBE_SIZE);
    for (const text of ['müller', 'MÜLLER', 'ü', 'Ü']) {
      for (const [page, pageSize] of [
        [3, 50],
        [16, 100],
      ]) {
        const res = await list({ searchText: text, page, pageSize }).expect(200);
        expect(ids(res)).toEqual(expected.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id));
        expect(res.body.totalRecords).toBe(expected.length);
      }
    }
  });

  it("finds 1-2 characters and digits, never in the users' ids", async () => {
    // "Horse" users come first in the list; "p1", "1" and "n" match many. Some users' ids hold "1" where neither
    // their name nor their e-mail does: the search must not find them.
    expect(all.some((u) => String(u.id).includes('1') && !matching('1').includes(u))).toBe(true);
    for (const text of ['p1', 'n', 'y ', '1', '@dense.test']) {
      const expected = matching(text.trim());
      expect(expected.length).toBeGreaterThan(200);
      const res = await list({ searchText: text, page: 2, pageSize: 100 }).expect(200);
      expect(ids(res)).toEqual(expected.slice(100, 200).map((u) => u.id));
      expect(res.body.totalRecords).toBe(expected.length);
    }
  });

  it('counts the matches of a rarer text through the text index', async () => {
    const expected = matching('quill');
    expect(expected.length).toBe(600);
    const res = await list({ searchText: 'quill', page: 2, pageSize: 100 }).expect(200);
    expect(res.body).toMatchObject({ totalRecords: 600 });
    expect(ids(res)).toEqual(expected.slice(100, 200).map((u) => u.id));
  });

  it('shows a user added, renamed or removed in the very next search of many matches', async () => {
    const repo = t.db.getRepository(User);
    const before = matching('zeb');
    await list({ searchText: 'zeb', page: 1, pageSize: 50 }).expect(200);
    const added = await createUser(t, org, { firstName: 'Aaron', lastName: 'Abzeb', email: 'aaron@dense.test' });
    let res = await list({ searchText: 'zeb', page: 1, pageSize: 50 }).expect(200);
    expect(res.body.totalRecords).toBe(before.length + 1);
    expect(ids(res)).toContain(added.id);
    await repo.update(added.id, { lastName: 'Aardvark' });
    res = await list({ searchText: 'zeb', page: 1, pageSize: 50 }).expect(200);
    expect(res.body.totalRecords).toBe(before.length);
    expect(ids(res)).not.toContain(added.id);
    res = await list({ searchText: 'aardvark', page: 1, pageSize: 50 }).expect(200);
    expect(ids(res)).toEqual([added.id]);
    await repo.delete(added.id);
    res = await list({ searchText: 'dense.test', page: 1, pageSize: 50 }).expect(200);
    expect(res.body.totalRecords).toBe(matching('dense.test').length);
  });

  it('finds every match of a list whose names hold control characters (read from the database, not memory)', async () => {
    const odd = await createOrganisation(t, { name: 'Odd Ltd', allowedUsersNumber: 5000 });
    const rows: Array<Partial<User>> = Array.from({ length: SEARCH_PROBE_SIZE + 60 }, (_, i) => ({
      organisationId: odd.id,
      firstName: 'Odd',
      lastName: i === 7 ? 'Sep\x02ar\x03ator' : `Fellow ${i}`,
      email: `odd${i}@odd.test`,
      roleId: Role.ANALYST,
    }));
    for (let i = 0; i < rows.length; i += 400) await t.db.getRepository(User).insert(rows.slice(i, i + 400));
    const oddAdmin = await createUser(t, odd, { roleId: Role.SITE_ADMIN, email: 'admin@odd.example' });
    const o = await login(t, oddAdmin.email);
    const everyone = await t.db
      .getRepository(User)
      .find({ where: { organisationId: odd.id }, order: { lastName: 'ASC', firstName: 'ASC', email: 'ASC' } });
    const expected = everyone.filter((u) => u.email.includes('odd.test'));
    const res = await request(t.http)
      .get('/api/users')
      .query({ searchText: 'odd.test', page: 2, pageSize: 100 })
      .set(o.auth)
      .expect(200);
    expect(res.body.totalRecords).toBe(expected.length);
    expect(ids(res)).toEqual(expected.slice(100, 200).map((u) => u.id));
  });
});

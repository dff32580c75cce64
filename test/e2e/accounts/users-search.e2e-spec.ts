import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login, LoggedIn } from '../../utils/factories';
import { expectErrorBody } from '../../utils/error-body';
import { createTestApp, TestApp } from '../../utils/test-app';

/**
 * The user list's text search through the trigram index: 3+ characters go through FTS5, which must
 * match exactly what LIKE '%text%' matched, take every character literally and stay in step with changes;
 * deep pages start from cached anchors and totals follow every change.
 */
describe('GET /api/users: search through the trigram index, bounded paging', () => {
  let t: TestApp;
  let org: Organisation;
  let s: LoggedIn;
  let odd: User;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganisation(t, { name: 'Search Ltd', allowedUsersNumber: 5000 });
    const admin = await createUser(t, org, {
      roleId: Role.SITE_ADMIN,
      firstName: 'Site',
      lastName: 'Admin',
      email: 'site.admin@search.test',
    });
    odd = await createUser(t, org, {
      firstName: 'Mary "Q"',
      lastName: `O'Brien 50%_\\x`,
      email: 'mary.obrien@search.test',
      roleId: Role.VIEWER,
    });
    await createUser(t, org, { firstName: 'Renée', lastName: 'Ærø', email: 'renee@search.test', roleId: Role.VIEWER });
    s = await login(t, admin.email);
  });
  afterAll(() => t.close());

  const list = (query: Record<string, unknown> = {}) => request(t.http).get('/api/users').query(query).set(s.auth);
  const emails = (res: request.Response) => res.body.items.map((u: { userEmail: string }) => u.userEmail);

  it('takes quotes, %, _ and \\ literally in texts of 3 characters and more, and never errors', async () => {
    for (const text of ['"Q"', `O'Bri`, '50%_', '%_\\', '\\x', 'y "Q', `"Q" O'`]) {
      expect(emails(await list({ searchText: text }).expect(200))).toEqual(['mary.obrien@search.test']);
    }
    for (const text of ['"', '""', '"""', 'AND', 'NEAR(', '*', 'a OR b', '^ma', 'col:x', '50%x', '_\\y']) {
      const res = await list({ searchText: text }).expect(200);
      expect(res.body.items.length).toBeLessThanOrEqual(1);
    }
    expect(emails(await list({ searchText: '"' }).expect(200))).toEqual(['mary.obrien@search.test']);
    // SQLite's LIKE and FTS5 read a NUL as the end of the text (the list answered 500, the export matched
    // everyone): refused on every database, with the error body, by the list, its export and the audit.
    for (const text of ['\u0000', 'a\u0000', 'ma\u0000ry']) {
      for (const path of ['/api/users', '/api/users/export', '/api/audit-events']) {
        const res = await request(t.http).get(path).query({ searchText: text }).set(s.auth);
        expectErrorBody(res, 400);
        expect(res.body.message).toBe('searchText must not contain a NUL character.');
      }
    }
  });

  it('ignores case, across the space between first and last name, and in the e-mail', async () => {
    expect(emails(await list({ searchText: 'MARY "q" o' }).expect(200))).toEqual(['mary.obrien@search.test']);
    expect(emails(await list({ searchText: 'OBRIEN@SEARCH' }).expect(200))).toEqual(['mary.obrien@search.test']);
    expect(emails(await list({ searchText: 'renée ærø' }).expect(200))).toEqual(['renee@search.test']);
  });

  it('finds 1 and 2 character texts through their own index: any case, literally, never across name and e-mail', async () => {
    expect(emails(await list({ searchText: 'Æ' }).expect(200))).toEqual(['renee@search.test']);
    expect(emails(await list({ searchText: 'æR' }).expect(200))).toEqual(['renee@search.test']);
    expect(emails(await list({ searchText: "'B" }).expect(200))).toEqual(['mary.obrien@search.test']);
    expect(emails(await list({ searchText: 'q"' }).expect(200))).toEqual(['mary.obrien@search.test']);
    for (const text of ['%', '_', '\\', '"', '%_', '_\\'])
      expect(emails(await list({ searchText: text }).expect(200))).toEqual(['mary.obrien@search.test']);
    // "Renée Ærø" then "renee@…": the name's last and the e-mail's first character are no pair.
    expect(emails(await list({ searchText: 'ør' }).expect(200))).toEqual([]);
    expect(emails(await list({ searchText: 'zq' }).expect(200))).toEqual([]);
    // Another organisation's user holding the text is neither listed nor counted.
    const other = await createOrganisation(t, { name: 'Elsewhere Ltd' });
    await createUser(t, other, { firstName: 'Zq', lastName: 'Æx', email: 'zq@elsewhere.test', roleId: Role.VIEWER });
    for (const text of ['zq', 'æ', 'Q']) {
      const res = await list({ searchText: text }).expect(200);
      expect(res.body.items.map((u: { organisationId?: number; userEmail: string }) => u.userEmail)).not.toContain(
        'zq@elsewhere.test',
      );
      expect(res.body.totalRecords).toBe(res.body.items.length);
    }
  });

  it('keeps the index in step with renames and e-mail changes', async () => {
    const users = t.db.getRepository(User);
    await users.update({ id: odd.id }, { lastName: 'Renamed', email: 'mary.renamed@search.test' });
    expect(emails(await list({ searchText: 'obrien' }).expect(200))).toEqual([]);
    expect(emails(await list({ searchText: 'renamed' }).expect(200))).toEqual(['mary.renamed@search.test']);
    expect(emails(await list({ searchText: "'b" }).expect(200))).toEqual([]);
    expect(emails(await list({ searchText: 'D@' }).expect(200))).toEqual(['mary.renamed@search.test']);
    await users.delete({ id: odd.id });
    expect(emails(await list({ searchText: 'renamed' }).expect(200))).toEqual([]);
    expect(emails(await list({ searchText: 'D@' }).expect(200))).toEqual([]);
  });

  it('pages deep lists from anchors exactly as offsets would, and the totals follow new users at once', async () => {
    const rows: Array<Partial<User>> = [];
    for (let i = 0; i < 2345; i++)
      rows.push({
        organisationId: org.id,
        firstName: ['Ann', 'Bob', 'Cy'][i % 3],
        lastName: `L${(i * 7919) % 1000}`,
        email: `p${i}@search.test`,
        roleId: Role.VIEWER,
      });
    for (let i = 0; i < rows.length; i += 400) await t.db.getRepository(User).insert(rows.slice(i, i + 400));
    const all = await t.db
      .getRepository(User)
      .find({ where: { organisationId: org.id }, order: { lastName: 'ASC', firstName: 'ASC', email: 'ASC' } });
    expect((await list().expect(200)).body.totalRecords).toBe(all.length);
    for (const [page, pageSize] of [
      [21, 50],
      [41, 50],
      [47, 50],
      [11, 100],
      [24, 100],
      [93, 25],
    ]) {
      const res = await list({ page, pageSize }).expect(200);
      expect(res.body.items.map((u: { id: number }) => u.id)).toEqual(
        all.slice((page - 1) * pageSize, page * pageSize).map((u) => u.id),
      );
    }
    await createUser(t, org, { firstName: 'Late', lastName: 'Comer', email: 'late@search.test', roleId: Role.VIEWER });
    expect((await list().expect(200)).body.totalRecords).toBe(all.length + 1);
    const deep = await list({ page: 24, pageSize: 100 }).expect(200);
    expect(deep.body.items).toHaveLength((all.length + 1) % 100);
  });
});

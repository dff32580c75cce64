import { Organisation } from '../../../platform/database/entities/organisation.entity';
import { UserListItem } from '../../../shared/api-types';
import { Role } from '../../../shared/roles';
import { User } from '../../../platform/database/entities/user.entity';
import { UserListQueryDto } from '../dto/user-list-query.dto';
import { createOrganisation } from '../../../../test/utils/factories';
import { SERVICE_DATABASES, serviceApp } from '../../../../test/utils/service-tier';
import { PAGE_ANCHOR_STEP, SEARCH_PROBE_SIZE, UserSearchService } from './user-search.service';
import { testSecret } from '../../../../test/utils/secrets';

interface Person {
  firstName: string;
  lastName: string;
  email: string;
  isDisabled?: boolean;
  isBlocked?: boolean;
  isAdministrator?: boolean;
}

/** The list's order and filters as the specification states them, computed here without the database. */
function expected(people: Person[], text?: string, accessLevel?: 'hasAccess' | 'noAccess'): string[] {
  const needle = text?.toLowerCase();
  return people
    .filter(
      (p) =>
        !needle ||
        `${p.firstName} ${p.lastName}`.toLowerCase().includes(needle) ||
        p.email.toLowerCase().includes(needle),
    )
    .filter((p) => {
      const noAccess = !!p.isDisabled || !!p.isBlocked;
      return accessLevel === 'hasAccess' ? !noAccess : accessLevel === 'noAccess' ? noAccess : true;
    })
    .sort((a, b) => cmp(a.lastName, b.lastName) || cmp(a.firstName, b.firstName) || cmp(a.email, b.email))
    .map((p) => p.email);
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe.each(SERVICE_DATABASES)('UserSearchService: the user list and its search on %s', (database) => {
  const t = serviceApp(database);
  const search = () => t().app.get(UserSearchService);
  let run = 0;

  /** An organisation holding these people (inserted in bulk), and one more organisation holding their twins. */
  async function organisationOf(people: Person[]): Promise<Organisation> {
    run += 1;
    const org = await createOrganisation(t(), { allowedUsersNumber: 100_000, maxConcurrentUsers: 100 });
    const other = await createOrganisation(t());
    const repo = t().db.getRepository(User);
    const rows = (o: Organisation, prefix: string) =>
      people.map((p) => ({
        organisationId: o.id,
        passwordHash: testSecret('hash'),
        roleId: Role.STANDARD_ADMIN,
        isDisabled: false,
        isBlocked: false,
        isAdministrator: false,
        ...p,
        email: `${prefix}${p.email}`,
      }));
    for (const [o, prefix] of [
      [org, ''],
      [other, `other${run}.`],
    ] as const) {
      const all = rows(o, prefix);
      for (let i = 0; i < all.length; i += 500)
        await repo
          .createQueryBuilder()
          .insert()
          .into(User)
          .values(all.slice(i, i + 500))
          .execute();
    }
    return org;
  }

  const emails = (items: UserListItem[]) => items.map((u) => u.userEmail);
  const page = (org: Organisation, query: Partial<UserListQueryDto>) =>
    search().list({ id: org.id, name: org.name }, query as UserListQueryDto);

  it('orders by last name, first name, e-mail; pages; filters by access and role; never shows another organisation', async () => {
    const tag = `r${Date.now().toString(36)}`;
    const people: Person[] = [
      { firstName: 'Ada', lastName: 'Lovelace', email: `ada.${tag}@example.com` },
      { firstName: 'Alan', lastName: 'Turing', email: `alan.${tag}@example.com`, isDisabled: true },
      { firstName: 'Grace', lastName: 'Hopper', email: `grace.${tag}@example.com`, isAdministrator: true },
      { firstName: 'Ada', lastName: 'Hopper', email: `a.hopper.${tag}@example.com`, isBlocked: true },
      { firstName: 'Edsger', lastName: 'Dijkstra', email: `edsger.${tag}@example.com` },
    ];
    const org = await organisationOf(people);
    const all = await page(org, { pageSize: 25 });
    expect(all.totalRecords).toBe(5);
    expect(emails(all.items)).toEqual(expected(people));
    expect(all).toMatchObject({ organisationId: org.id, organisationName: org.name, page: 1, pageSize: 25 });
    expect(emails((await page(org, { accessLevel: 'hasAccess' })).items)).toEqual(expected(people, '', 'hasAccess'));
    expect(emails((await page(org, { accessLevel: 'noAccess' })).items)).toEqual(expected(people, '', 'noAccess'));
    expect(emails((await page(org, { role: Role.ADMINISTRATOR })).items)).toEqual([`grace.${tag}@example.com`]);
    // A page past the end is empty but keeps the total.
    expect(await page(org, { page: 2, pageSize: 25 })).toMatchObject({ items: [], totalRecords: 5 });
  });

  it.each([
    ['a text of one character', 'y'],
    ['two characters', 'op'],
    ['three and more, any case', 'HOPP'],
    ['a part of the e-mail', '.hopper.'],
    ['first and last name together', 'ada lov'],
  ])('finds %s in names and e-mails', async (_what, text) => {
    const tag = `s${Date.now().toString(36)}${run}`;
    const people: Person[] = [
      { firstName: 'Ada', lastName: 'Lovelace', email: `ada.${tag}@example.com` },
      { firstName: 'Grace', lastName: 'Hopper', email: `grace.${tag}@example.com` },
      { firstName: 'Ada', lastName: 'Hopper', email: `a.hopper.${tag}@example.com` },
      { firstName: 'Edsger', lastName: 'Dijkstra', email: `edsger.${tag}@example.com` },
    ];
    const org = await organisationOf(people);
    const found = await page(org, { searchText: text });
    expect(emails(found.items)).toEqual(expected(people, text));
    expect(found.totalRecords).toBe(expected(people, text).length);
  });

  it('takes %, _ and \\ in a search literally', async () => {
    const tag = `w${Date.now().toString(36)}`;
    const people: Person[] = [
      { firstName: '100%', lastName: 'Sure', email: `pct.${tag}@example.com` },
      { firstName: 'under_score', lastName: 'Name', email: `us.${tag}@example.com` },
      { firstName: 'back\\slash', lastName: 'Name', email: `bs.${tag}@example.com` },
      { firstName: 'Plain', lastName: 'Person', email: `plain.${tag}@example.com` },
    ];
    const org = await organisationOf(people);
    for (const text of ['%', '0%', '_', 'r_s', '\\', 'k\\s'])
      expect(emails((await page(org, { searchText: text })).items)).toEqual(expected(people, text));
  });

  it(`a deep page (past ${PAGE_ANCHOR_STEP}) and a text more than ${SEARCH_PROBE_SIZE} users hold read as the whole list would`, async () => {
    const tag = `d${Date.now().toString(36)}`;
    const people: Person[] = [...Array(2 * PAGE_ANCHOR_STEP + 150)].map((_, i) => ({
      firstName: `F${(i * 7919) % 1000}`,
      lastName: `L${(i * 104729) % 300}`,
      email: `${i % 3 !== 0 ? 'many' : 'some'}${i}.${tag}@example.com`,
    }));
    const org = await organisationOf(people);
    const order = expected(people);
    const deep = await page(org, { page: 83, pageSize: 25 });
    expect(deep.totalRecords).toBe(people.length);
    expect(emails(deep.items)).toEqual(order.slice(82 * 25, 83 * 25));
    const common = expected(people, 'many');
    expect(common.length).toBeGreaterThan(SEARCH_PROBE_SIZE);
    for (const p of [1, 20]) {
      const found = await page(org, { searchText: 'many', page: p, pageSize: 25 });
      expect(found.totalRecords).toBe(common.length);
      expect(emails(found.items)).toEqual(common.slice((p - 1) * 25, p * 25));
    }
  });

  it('a large list, searched in memory after its first search, sees a change to its users at the next search', async () => {
    const tag = `m${Date.now().toString(36)}`;
    const people: Person[] = [...Array(5200)].map((_, i) => ({
      firstName: `Given${i % 97}`,
      lastName: `Family${i % 211}`,
      email: `u${i}.${tag}@example.com`,
    }));
    const org = await organisationOf(people);
    for (const text of ['Family13', 'y1', 'u5', 'nope-nothing']) {
      const want = expected(people, text);
      // The first search reads the index; those that follow are made in memory once the texts are read.
      for (let i = 0; i < 3; i += 1) {
        const found = await page(org, { searchText: text, pageSize: 25, page: 2 });
        expect(found.totalRecords).toBe(want.length);
        expect(emails(found.items)).toEqual(want.slice(25, 50));
      }
    }
    const newcomer = { firstName: 'Zed', lastName: 'Family13', email: `aaa-new.${tag}@example.com` };
    await t()
      .db.getRepository(User)
      .insert({ organisationId: org.id, passwordHash: 'x', roleId: Role.STANDARD_ADMIN, ...newcomer });
    const after = await page(org, { searchText: 'Family13', pageSize: 100 });
    expect(emails(after.items)).toEqual(expected([...people, newcomer], 'Family13').slice(0, 100));
    expect(after.totalRecords).toBe(expected([...people, newcomer], 'Family13').length);
  });
});

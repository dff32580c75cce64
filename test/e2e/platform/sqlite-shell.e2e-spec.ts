import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Organisation } from '../../../src/platform/database/entities/organisation.entity';
import { User } from '../../../src/platform/database/entities/user.entity';
import { Role } from '../../../src/shared/roles';
import { createOrganisation, createUser, login } from '../../utils/factories';
import { createTestApp, TestApp } from '../../utils/test-app';
import { listFixtures, loadRows, loadSchema, openSqlite, readFixture } from '../../utils/servers/upgrade-fixtures';

/**
 * The SQLite file opens in the sqlite3 shell operators have: the distributions' (Debian 12's 3.40, Ubuntu 22.04's
 * 3.37), not only the SQLite the sqlite3 module bundles (docs/operating.md). A schema entry an older SQLite cannot
 * parse makes every command of that shell answer "malformed database schema", `.dump` included. Checked on a
 * freshly migrated file and on the previous release's file after the upgrade: `.tables`, `PRAGMA integrity_check`,
 * `.dump` (and the dump restored by the same shell), and writes made through the shell keep the search in step.
 */
const SQLITE3 = '/usr/bin/sqlite3';
const present = existsSync(SQLITE3);
const onSqlite = process.env.E2E_DATABASE !== 'postgres';

/** The oldest SQLite the schema must open in (Ubuntu 22.04's shell). */
const OLDEST_SUPPORTED = [3, 37, 0];
/** The first SQLite that reads the constructs the schema must not hold (FTS5's contentless_delete). */
const NEWER_THAN_THE_DISTRIBUTIONS = [3, 43, 0];

if (onSqlite && !present) {
  console.warn(
    `${SQLITE3} is missing: the sqlite3 shell checks ${process.env.CI ? 'fail (CI installs it: .ci/run)' : 'are skipped (apt-get install sqlite3)'}.`,
  );
}
const describeWithShell = onSqlite && (present || process.env.CI) ? describe : describe.skip;

/** The shell's answer on stdout; its stderr in the error when it fails. */
function shell(file: string, ...args: string[]): string {
  try {
    return execFileSync(SQLITE3, ['-bail', file, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const { stderr, status } = e as { stderr?: string; status?: number };
    throw new Error(`sqlite3 ${args.join(' ')} exited ${status}: ${stderr}`, { cause: e });
  }
}

/** What the shell prints for a command that fails ('' when it succeeds). */
function shellError(file: string, ...args: string[]): string {
  try {
    shell(file, ...args);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

function version(): number[] {
  return execFileSync(SQLITE3, ['-version'], { encoding: 'utf8' }).split(' ')[0].split('.').map(Number);
}

const compareVersions = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * SQL of the schema (tables, indexes, triggers, views) that SQLite 3.37 cannot read, with the release that first
 * reads it: the shell here (3.40) would accept what came in 3.38-3.40, so the schema's text is checked as well.
 */
const NEWER_CONSTRUCTS: Array<[RegExp, string]> = [
  [/contentless_delete/i, 'FTS5 contentless_delete (3.43)'],
  [/contentless_unindexed/i, 'FTS5 contentless_unindexed (3.47)'],
  [/fts5\([^)]*\b(tokendata|locale)\s*=/i, 'FTS5 tokendata and locale (3.45, 3.47)'],
  [/->/, 'the -> and ->> JSON operators (3.38)'],
  [/\b(unixepoch|format)\s*\(/i, 'unixepoch() and format() (3.38)'],
  [/\bis\s+(not\s+)?distinct\s+from\b/i, 'IS [NOT] DISTINCT FROM (3.39)'],
  [/\b(right|full)\s+(outer\s+)?join\b/i, 'RIGHT and FULL JOIN (3.39)'],
  [/\bunhex\s*\(/i, 'unhex() (3.41)'],
  [/\b(octet_length|timediff)\s*\(/i, 'octet_length() and timediff() (3.43)'],
  [/\b(concat|concat_ws|string_agg)\s*\(/i, 'concat(), concat_ws() and string_agg() (3.44)'],
  [/\bjsonb\w*\s*\(/i, 'JSONB functions (3.45)'],
  [/\b(json_pretty|median|percentile\w*)\s*\(/i, 'json_pretty(), median() and percentile() (3.46, 3.47)'],
  [/\bif\s*\(/i, 'if() (3.48)'],
  [/\bunistr\s*\(/i, 'unistr() (3.50)'],
];

/** `ORDER BY` directly in the arguments of an aggregate call (SQLite 3.44), not in a subquery inside them. */
function orderedAggregates(sql: string): string[] {
  const found: string[] = [];
  for (const m of sql.matchAll(/\b(group_concat|json_group_array|json_group_object)\s*\(/gi)) {
    let depth = 0;
    let args = '';
    for (let i = m.index + m[0].length; i < sql.length; i++) {
      const c = sql[i];
      if (c === ')' && depth === 0) break;
      if (c === '(') depth++;
      if (c === ')') depth--;
      if (depth === 0 && c !== ')') args += c;
    }
    if (/\border\s+by\b/i.test(args)) found.push(`${m[1]}(… ORDER BY …) (3.44)`);
  }
  return found;
}

interface SchemaEntry {
  type: string;
  name: string;
  sql: string;
}

/** Every schema construct newer than SQLite 3.37, by the entry that holds it. */
function newerThan337(schema: SchemaEntry[]): string[] {
  return schema.flatMap(({ type, name, sql }) =>
    [...NEWER_CONSTRUCTS.filter(([re]) => re.test(sql)).map(([, what]) => what), ...orderedAggregates(sql)].map(
      (what) => `${type} ${name}: ${what}`,
    ),
  );
}

const SCHEMA_SQL = `SELECT "type", "name", "sql" FROM "sqlite_schema" WHERE "sql" IS NOT NULL ORDER BY "name"`;

/** The schema as the shell reads it. */
function schemaOf(file: string): SchemaEntry[] {
  const rows = JSON.parse(shell(file, '-json', SCHEMA_SQL) || '[]') as SchemaEntry[];
  expect(rows.length).toBeGreaterThan(20);
  return rows;
}

/** The file opens in the shell: tables listed, integrity ok, dumped whole, and the dump restores in that shell. */
function expectReadableByTheShell(file: string): void {
  const tables = shell(file, '.tables').split(/\s+/);
  expect(tables).toEqual(expect.arrayContaining(['users', 'organisations', 'users_search', 'users_search_short']));
  expect(shell(file, 'PRAGMA integrity_check').trim()).toBe('ok');
  expect(newerThan337(schemaOf(file))).toEqual([]);

  const dump = shell(file, '.dump');
  expect(dump).toMatch(/^PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n/);
  expect(dump.trimEnd().endsWith('COMMIT;')).toBe(true);
  const restoredDir = mkdtempSync(join(tmpdir(), 'tax-portal-restored-'));
  try {
    const restored = join(restoredDir, 'restored.sqlite');
    execFileSync(SQLITE3, ['-bail', restored], { input: dump, encoding: 'utf8' });
    expect(shell(restored, 'PRAGMA integrity_check').trim()).toBe('ok');
    expect(shell(restored, '.tables')).toBe(shell(file, '.tables'));
    expect(shell(restored, 'SELECT count(*) FROM "users"')).toBe(shell(file, 'SELECT count(*) FROM "users"'));
  } finally {
    rmSync(restoredDir, { recursive: true, force: true });
  }
}

describeWithShell("The SQLite file in the distributions' sqlite3 shell", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it(`runs ${SQLITE3}, a shell older than SQLite 3.43 (Debian 12's), as operators do`, () => {
    expect({ [SQLITE3]: existsSync(SQLITE3) }).toEqual({ [SQLITE3]: true });
    const v = version();
    console.info(`${SQLITE3} is SQLite ${v.join('.')}`);
    expect(compareVersions(v, OLDEST_SUPPORTED)).toBeGreaterThanOrEqual(0);
    expect(compareVersions(v, NEWER_THAN_THE_DISTRIBUTIONS)).toBeLessThan(0);
  });

  it('opens a freshly migrated file; a name fixed and a user removed through the shell are searched as such', async () => {
    let t: TestApp | undefined = await createTestApp({}, 'sqlite');
    const { dataDir } = t;
    dirs.push(dataDir);
    const file = join(dataDir, 'app.sqlite');
    let org: Organisation;
    let admin: User;
    try {
      org = await createOrganisation(t, { name: 'Shell Ltd' });
      admin = await createUser(t, org, {
        roleId: Role.SITE_ADMIN,
        firstName: 'Ada',
        lastName: 'Quill',
        email: 'ada.quill@shell.test',
      });
      await createUser(t, org, {
        firstName: 'Mary "Q"',
        lastName: `O'Brien`,
        email: 'mary.obrien@shell.test',
        roleId: Role.VIEWER,
      });
      await createUser(t, org, { firstName: 'Renée', lastName: 'Ærø', email: 'renee@shell.test', roleId: Role.VIEWER });
      await createUser(t, org, { firstName: 'Gone', lastName: 'Soon', email: 'gone@shell.test', roleId: Role.VIEWER });
    } finally {
      await t.app.close();
    }

    expectReadableByTheShell(file);

    // An operator corrects a name and removes an account with the shell: its SQLite runs the search triggers.
    shell(
      file,
      `UPDATE "users" SET "lastName" = 'Byrne', "email" = 'mary.byrne@shell.test' WHERE "email" = 'mary.obrien@shell.test'`,
    );
    shell(file, `DELETE FROM "users" WHERE "email" = 'gone@shell.test'`);
    expect(shell(file, 'PRAGMA integrity_check').trim()).toBe('ok');

    t = await createTestApp({}, 'sqlite', dataDir);
    try {
      // The server's SQLite checks the text indexes' structure as well (FTS5 in integrity_check).
      expect(await t.db.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const s = await login(t, admin.email);
      const emails = async (searchText: string) => {
        const res = await request(t!.http).get('/api/users').query({ searchText }).set(s.auth).expect(200);
        return (res.body.items as Array<{ userEmail: string }>).map((u) => u.userEmail);
      };
      for (const text of ['byrne', 'BYR', 'yr', 'ry "q" b', 'ne@']) {
        expect({ text, found: await emails(text) }).toEqual({ text, found: ['mary.byrne@shell.test'] });
      }
      for (const text of ["o'brien", 'obrien', "'b", 'gone', 'soon', 'oo']) {
        expect({ text, found: await emails(text) }).toEqual({ text, found: [] });
      }
      expect(await emails('ÆR')).toEqual(['renee@shell.test']);
      expect(await emails('é')).toEqual(['renee@shell.test']);
      expect(await emails('qu')).toEqual(['ada.quill@shell.test']);
    } finally {
      await t.app.close();
    }
  });

  it("opens the previous release's file once upgraded, whose shell could not read it before", async () => {
    const fixture = readFixture(listFixtures().at(-1)!.name);
    const dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-shell-upgrade-'));
    dirs.push(dataDir);
    writeFileSync(join(dataDir, 'jwt-secret'), fixture.manifest.testOnlyKeys.JWT_SECRET, { mode: 0o600 });
    writeFileSync(join(dataDir, 'encryption-key'), fixture.manifest.testOnlyKeys.ENCRYPTION_KEY, { mode: 0o600 });
    const file = join(dataDir, 'app.sqlite');
    const conn = await openSqlite(file);
    try {
      await loadSchema(conn, fixture.schema('sqlite'));
      await loadRows(conn, fixture.data, Date.now() - new Date(fixture.manifest.generatedAt).getTime());
      // What the shell cannot read, found by the schema check too (read here by the bundled SQLite).
      expect(newerThan337((await conn.query(SCHEMA_SQL)) as unknown as SchemaEntry[])).toEqual([
        'table users_search: FTS5 contentless_delete (3.43)',
        'table users_search_short: FTS5 contentless_delete (3.43)',
        'trigger users_search_short_insert: group_concat(… ORDER BY …) (3.44)',
        'trigger users_search_short_insert: group_concat(… ORDER BY …) (3.44)',
        'trigger users_search_short_update: group_concat(… ORDER BY …) (3.44)',
        'trigger users_search_short_update: group_concat(… ORDER BY …) (3.44)',
      ]);
    } finally {
      await conn.close();
    }
    expect(shellError(file, '.tables')).toMatch(/malformed database schema \(users_search_short_insert\)/);

    const t = await createTestApp({}, 'sqlite', dataDir);
    try {
      const { accounts } = fixture.manifest;
      const s = await login(t, accounts.admin, accounts.password);
      const emails = async (searchText: string) => {
        const res = await request(t.http).get('/api/users').query({ searchText }).set(s.auth).expect(200);
        return (res.body.items as Array<{ userEmail: string }>).map((u) => u.userEmail).sort();
      };
      // The release's users are found through the rebuilt text indexes (3+ characters, and 1-2).
      expect(await emails('okafor')).toEqual(['tom.totp@acme.test']);
      expect(await emails('Ok')).toEqual(['tom.totp@acme.test']);
      expect(await emails('ya')).toEqual(['priya.passkey@acme.test']);
      expect(await emails('nia')).toEqual([]);
    } finally {
      await t.app.close();
    }

    expectReadableByTheShell(file);
  });
});

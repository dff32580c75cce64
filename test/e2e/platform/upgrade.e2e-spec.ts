import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/platform/database/data-source-options';
import { RENAMED_MIGRATIONS } from '../../../src/platform/database/migrate';
import { createTestApp, freshPostgresDatabase, TestApp } from '../../utils/test-app';
import {
  dataTables,
  FixtureConnection,
  listFixtures,
  loadRows,
  loadSchema,
  openPostgres,
  openSqlite,
  readFixture,
  readRows,
  UpgradeFixture,
} from '../../utils/servers/upgrade-fixtures';

/**
 * The database of each earlier release (test/fixtures/upgrade/, made from that release's own migrations by
 * scripts/make-upgrade-fixtures.js) migrated by the current code as a start does it: nothing lost, and the accounts,
 * sessions and audit trail still work. Then every migration undone in turn: those that would delete data refuse.
 */
const ENGINE = process.env.E2E_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** Tables whose rows a start of the current release changes by design. */
const CHANGED_BY_START: Record<string, string> = {
  migrations: 'the current release records its own migrations (and a renamed one under its current name)',
  system_information: 'every start records the deployment (one row)',
};

/** A row of the migrations table ([id, timestamp, name]) as the current release records it. */
function underCurrentName(row: string): string {
  const [id, timestamp, name] = JSON.parse(row) as [number, number, string];
  const renamed = RENAMED_MIGRATIONS.find((r) => r.from === name);
  return JSON.stringify(renamed ? [id, renamed.timestamp, renamed.to] : [id, timestamp, name]);
}

interface Loaded {
  dataDir: string;
  env: Record<string, string>;
  databaseUrl?: string;
  open: () => Promise<FixtureConnection>;
  drop: () => Promise<void>;
}

/** A fresh database of this engine holding the fixture, its dates moved to now; DATA_DIR and keys as it had them. */
async function load(fixture: UpgradeFixture): Promise<Loaded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-upgrade-'));
  const shift = Date.now() - new Date(fixture.manifest.generatedAt).getTime();
  const keys = fixture.manifest.testOnlyKeys;
  if (ENGINE === 'sqlite') {
    // The first releases kept their generated keys in DATA_DIR, as the current one does.
    writeFileSync(join(dataDir, 'jwt-secret'), keys.JWT_SECRET, { mode: 0o600 });
    writeFileSync(join(dataDir, 'encryption-key'), keys.ENCRYPTION_KEY, { mode: 0o600 });
    const file = join(dataDir, 'app.sqlite');
    const conn = await openSqlite(file);
    try {
      await loadSchema(conn, fixture.schema('sqlite'));
      await loadRows(conn, fixture.data, shift);
    } finally {
      await conn.close();
    }
    return { dataDir, env: {}, open: () => openSqlite(file), drop: async () => {} };
  }
  const database = await freshPostgresDatabase();
  const conn = await openPostgres(database.url);
  try {
    await loadSchema(conn, fixture.schema('postgres'));
    await loadRows(conn, fixture.data, shift);
  } finally {
    await conn.close();
  }
  return {
    dataDir,
    databaseUrl: database.url,
    env: { DATABASE_URL: database.url, JWT_SECRET: keys.JWT_SECRET, ENCRYPTION_KEY: keys.ENCRYPTION_KEY },
    open: () => openPostgres(database.url),
    drop: database.drop,
  };
}

/** Every row of every table, by table, each row as a JSON text (so they compare as sets). */
async function snapshot(conn: FixtureConnection, columnsOf?: Map<string, string[]>) {
  const tables = new Map<string, { columns: string[]; rows: string[] }>();
  for (const table of await dataTables(conn)) {
    const columns = columnsOf?.get(table) ?? (await columnNames(conn, table));
    const rows = (await readRows(conn, table, columns)).map((r) => JSON.stringify(r));
    tables.set(table, { columns, rows });
  }
  return tables;
}

async function columnNames(conn: FixtureConnection, table: string): Promise<string[]> {
  if (conn.engine === 'sqlite') return (await conn.query(`PRAGMA table_info("${table}")`)).map((c) => String(c.name));
  const rows = await conn.query(
    `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((c) => String(c.name));
}

const fixtures = listFixtures();

describe(`Upgrades from every released schema (${ENGINE})`, () => {
  it.each(fixtures.map((f) => [f.name, f.lastMigration] as const))(
    'from %s (last migration %s): every row kept, sign-in, TOTP, session and audit trail work',
    async (name) => {
      const fixture = readFixture(name);
      const loaded = await load(fixture);
      let t: TestApp | undefined;
      try {
        const before = await withConnection(loaded, (c) => snapshot(c));
        t = await createTestApp(loaded.env, 'sqlite', loaded.dataDir);
        const after = await withConnection(loaded, (c) =>
          snapshot(c, new Map([...before].map(([table, { columns }]) => [table, columns]))),
        );

        // Every table of the release is still there with every row and every value it had (new tables may exist).
        for (const [table, { rows }] of before) {
          const now = after.get(table);
          expect({ table, present: now !== undefined }).toEqual({ table, present: true });
          if (table in CHANGED_BY_START) {
            const kept = table === 'migrations' ? rows.map(underCurrentName) : rows;
            expect(now!.rows).toEqual(expect.arrayContaining(kept));
            continue;
          }
          expect({ table, rows: now!.rows }).toEqual({ table, rows });
        }
        expect(after.get('system_information')!.rows.length).toBe(
          (before.get('system_information')?.rows.length ?? 0) + 1,
        );
        const counts = Object.fromEntries([...before].map(([table, { rows }]) => [table, rows.length]));
        expect(counts).toEqual(fixture.manifest.rowCounts[ENGINE]);

        const { accounts, session } = fixture.manifest;
        // Sign-in with the password (an administrator without a second factor).
        const admin = await request(t.http)
          .post('/auth/login')
          .send({ username: accounts.admin, password: accounts.password, acceptToS: true });
        expect(admin.status).toBe(200);
        const auth = { Authorization: `Bearer ${admin.body.accessToken as string}` };

        // Password then TOTP: the secret sealed by the release decrypts with its key.
        const first = await request(t.http)
          .post('/auth/login')
          .send({ username: accounts.totp.email, password: accounts.password, acceptToS: true });
        expect(first.body.code).toBe('TOTP_REQUIRED');
        const totp = await request(t.http)
          .post('/auth/login')
          .set('Authorization', `Bearer ${first.body.challengeToken as string}`)
          .send({
            username: accounts.totp.email,
            password: accounts.password,
            acceptToS: true,
            mfaToken: await generate({ secret: accounts.totp.secret }),
          });
        expect(totp.status).toBe(200);
        expect(typeof totp.body.accessToken).toBe('string');

        // The session open before the upgrade: its refresh token still refreshes.
        const refreshed = await request(t.http).post('/refresh').set('Cookie', `refreshToken=${session.refreshToken}`);
        expect(refreshed.status).toBe(200);
        expect(typeof refreshed.body.newAccessToken).toBe('string');

        // The release's audit events of the administrator's organisation are listed.
        const fixtureEvents = fixture.data.tables.find((x) => x.name === 'audit_events');
        if (fixtureEvents) {
          const events = await request(t.http).get('/api/audit-events?pageSize=100').set(auth);
          expect(events.status).toBe(200);
          const listed = (events.body.items as Array<{ id: number; type: string }>).map((e) => e.id);
          const ids = fixtureEvents.columns.indexOf('id');
          const org = fixtureEvents.columns.indexOf('organisationId');
          const ofAcme = fixtureEvents.rows.filter((r) => r[org] === 2).map((r) => r[ids] as number);
          expect(ofAcme.length).toBeGreaterThan(0);
          expect(listed).toEqual(expect.arrayContaining(ofAcme));
        }
      } finally {
        await t?.close();
        await loaded.drop();
      }
    },
  );
});

describe(`Undoing migrations (${ENGINE})`, () => {
  it('undoes every migration in turn; one whose down() would delete data refuses and says so', async () => {
    const newest = fixtures.at(-1)!;
    const loaded = await load(readFixture(newest.name));
    // Migrated by a start of the current release, then closed: the migrations are undone on a data source of their own.
    const t = await createTestApp(loaded.env, 'sqlite', loaded.dataDir);
    const { dataDir } = loaded;
    await t.app.close();
    const ds = new DataSource({
      ...dataSourceOptions({ dataDir, databaseUrl: loaded.databaseUrl }),
      migrationsRun: false,
      migrationsTransactionMode: 'each',
    });
    await ds.initialize();
    const refused: string[] = [];
    try {
      // A directory's id on an account: the data a column of the last migration holds.
      await ds.query(`UPDATE "users" SET "externalId" = 'entra-00u1sam' WHERE "id" = 5`);
      for (;;) {
        const executed = (await ds.query(`SELECT "name" FROM "migrations" ORDER BY "id" DESC`)) as Array<{
          name: string;
        }>;
        if (executed.length === 0) break;
        const last = executed[0].name;
        const counts = await rowCountsOf(ds);
        const error = await ds.undoLastMigration().then(
          () => undefined,
          (e: Error) => e,
        );
        if (error) {
          // A clear refusal, naming the migration and what it would delete, with the data left as it was.
          expect(error.message).toMatch(
            new RegExp(`^${last} cannot be undone: its down\\(\\) would delete the data in `),
          );
          expect(await rowCountsOf(ds)).toEqual(counts);
          refused.push(last);
          // The operator who accepts the loss empties what it names; then the migration undoes.
          for (const named of /would delete the data in (.+?)\. Restore/.exec(error.message)![1].split(', ')) {
            const [table, column] = named.split('.');
            await ds.query(column ? `UPDATE ${table} SET ${column} = NULL` : `DELETE FROM ${table}`);
          }
          await ds.undoLastMigration();
        } else {
          // Undone without a refusal: no table that remains lost a row.
          const now = await rowCountsOf(ds);
          for (const [table, n] of Object.entries(now)) {
            if (table !== 'migrations') expect({ table, n }).toEqual({ table, n: counts[table] });
          }
        }
      }
    } finally {
      await ds.destroy();
      await loaded.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(refused).toEqual([
      'ScimProvisioning1765100000000',
      'OrganisationDomains1765050000000',
      'SsoConnections1765000000000',
      'Passkeys1764200000000',
      'RecoveryCodesTrustedDevices1764100000000',
      'AuditEvents1763900000000',
      'StoredFiles1763850000000',
      'MailOutbox1763830000000',
      'Notifications1763820000000',
      'OrganisationAdmin1763810000000',
      'ShellTables1763800000000',
      'UserAdministration1763790000000',
      'InitialSchema1763780000000',
    ]);
  });
});

async function withConnection<T>(loaded: Loaded, use: (c: FixtureConnection) => Promise<T>): Promise<T> {
  const conn = await loaded.open();
  try {
    return await use(conn);
  } finally {
    await conn.close();
  }
}

async function rowCountsOf(ds: DataSource): Promise<Record<string, number>> {
  const tables =
    ds.options.type === 'postgres'
      ? ((await ds.query(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`)) as Array<{
          name: string;
        }>)
      : ((await ds.query(
          `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'`,
        )) as Array<{ name: string }>);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = (await ds.query(`SELECT COUNT(*) AS "n" FROM "${name}"`)) as Array<{ n: string | number }>;
    counts[name] = Number(row.n);
  }
  return counts;
}

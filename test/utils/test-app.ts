import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AbstractLoader, ExpressLoader } from '@nestjs/serve-static';
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app/app.module';
import type { OpenAPIObject } from '@nestjs/swagger';
import { configureApp } from '../../src/app/configure-app';
import { openApiDocument } from '../../src/platform/openapi/document';
import { ResponseValidator } from './openapi-validation';
import { useOutboxDatabase } from './outbox';
import { APP_CONFIG } from '../../src/platform/config/app-config.module';
import { AppConfig } from '../../src/platform/config/env.validation';
import { Logger as PinoLogger } from 'nestjs-pino';
import { pino } from 'pino';
import { loggerOptions, ROOT_LOGGER } from '../../src/platform/logging/logging.module';
import { dataSourceOptions } from '../../src/platform/database/data-source-options';
import { runMigrations } from '../../src/platform/database/migrate';

/**
 * Every line an app writes to its log (pino's JSON lines and Nest's own through it), for a test that reads them:
 * pass one to createTestApp with LOG_LEVEL set (it is silent otherwise).
 */
export class LogCapture {
  readonly lines: string[] = [];
  readonly stream = { write: (line: string) => void this.lines.push(line) };
}

export interface TestApp {
  app: INestApplication;
  /** The HTTP server, for supertest. */
  http: ReturnType<INestApplication['getHttpServer']>;
  db: DataSource;
  dataDir: string;
  /** The configuration this app was started with (DATA_DIR, keys, database), for tests that need its keys. */
  config: AppConfig;
  close: () => Promise<void>;
}

/** The databases a test runs on: SQLite, and PostgreSQL on the server of TEST_DATABASE_URL. */
export type TestDatabase = 'sqlite' | 'postgres';

/**
 * The whole application on a real SQLite file in a fresh DATA_DIR, migrated like production (or on a fresh
 * PostgreSQL database: `database`, by default from E2E_DATABASE). `env` sets extra configuration for this app only.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  database: TestDatabase = process.env.E2E_DATABASE === 'postgres' ? 'postgres' : 'sqlite',
  /** A DATA_DIR prepared by the test (an earlier release's database in it); removed at close like a fresh one. */
  preparedDataDir?: string,
  /** Where the app's log lines go instead of standard output. */
  logs?: LogCapture,
): Promise<TestApp> {
  const dataDir = preparedDataDir ?? mkdtempSync(join(tmpdir(), 'tax-portal-e2e-'));
  const postgres = database === 'postgres' ? await freshPostgresDatabase({ migrated: true }) : undefined;
  if (!preparedDataDir && !postgres && !env.DATABASE_URL)
    copyFileSync(await migratedSqliteFile(), join(dataDir, SQLITE_FILE));
  const saved = { ...process.env };
  Object.assign(process.env, {
    ...(postgres
      ? {
          DATABASE_URL: postgres.url,
          JWT_SECRET: randomBytes(48).toString('base64'),
          ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        }
      : {}),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_SUPPORT_EMAIL: 'support@vendor.test',
    BOOTSTRAP_SUPPORT_PASSWORD: 'Support-Pass-1',
    PUBLIC_URL: 'http://portal.test',
    SERVICE_API_KEY: 'test-service-api-key-0123456789',
    // A suite's sign-ins in beforeAll must still count as recent when a loaded machine reaches its last test; the
    // step-up suite moves each session's mark past it (and checks the 5-minute default on an app of its own).
    STEP_UP_MINUTES: '60',
    ...env,
  });
  try {
    let testing = Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(AbstractLoader)
      .useClass(ExpressLoader);
    if (logs)
      testing = testing.overrideProvider(ROOT_LOGGER).useFactory({
        factory: (config: AppConfig) => pino(loggerOptions(config, false), logs.stream),
        inject: [APP_CONFIG],
      });
    const moduleRef = await testing.compile();
    const app = moduleRef.createNestApplication({ logger: process.env.E2E_LOG ? ['error', 'warn'] : false });
    // As the server does (src/app/serve.ts): Nest's own lines through the one pino logger.
    if (logs) app.useLogger(app.get(PinoLogger));
    // First, before the app's own middlewares: every answer is checked against the OpenAPI document.
    const validator = new ResponseValidator();
    app.use(validator.middleware);
    validator.use(configureApp(app, await documentOf(app)));
    await app.init();
    useOutboxDatabase(dataDir, app.get<AppConfig>(APP_CONFIG).databaseUrl);
    return {
      app,
      http: app.getHttpServer(),
      db: app.get(DataSource),
      dataDir,
      config: app.get<AppConfig>(APP_CONFIG),
      close: async () => {
        await app.close();
        await postgres?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } finally {
    process.env = saved;
  }
}

/**
 * Another instance of the application on `first`'s database and DATA_DIR (where SQLite and the generated keys
 * live), as a second server behind a load balancer. Close it with `.app.close()`: the database and the folder are
 * the first one's to remove.
 */
export function createInstanceBeside(first: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp(
    {
      ...(first.config.databaseUrl ? { DATABASE_URL: first.config.databaseUrl } : {}),
      JWT_SECRET: first.config.jwtSecret,
      ENCRYPTION_KEY: first.config.encryptionKey.toString('base64'),
      ...env,
    },
    'sqlite',
    first.dataDir,
  );
}

/** The SQLite file's name in DATA_DIR (src/platform/database/data-source-options.ts). */
const SQLITE_FILE = 'app.sqlite';

let migrations: string | undefined;

/**
 * What the migrations are: the files that decide the schema a fresh database gets. A migrated template is used only
 * while they are the ones it was built from.
 */
function migrationsDigest(): string {
  if (migrations) return migrations;
  const database = join(__dirname, '..', '..', 'src', 'platform', 'database');
  const files = [
    ...readdirSync(join(database, 'migrations')).map((f) => join(database, 'migrations', f)),
    join(database, 'migration-shapes.ts'),
    join(database, 'migrate.ts'),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update(readFileSync(file));
  migrations = hash.digest('hex').slice(0, 12);
  return migrations;
}

/** Runs every migration on the database `config` names, as the app's start does, and closes it. */
async function migrate(config: { dataDir: string; databaseUrl?: string }): Promise<void> {
  const dataSource = new DataSource({ ...dataSourceOptions(config), migrationsRun: false });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * A file in the system's temporary folder that depends only on what `digest` covers, made by the first test app that
 * needs it and kept for the test files and runs after it. Written under a name of its own, then renamed, so that no
 * test reads half of one; the files of other digests under the same prefix go when one is made.
 */
async function keptFile(prefix: string, digest: string, make: (path: string) => Promise<void>): Promise<string> {
  const file = join(tmpdir(), `${prefix}${digest}`);
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial`;
  await make(partial);
  renameSync(partial, file);
  for (const other of readdirSync(tmpdir()))
    if (other.startsWith(prefix) && join(tmpdir(), other) !== file) rmSync(join(tmpdir(), other), { force: true });
  return file;
}

/**
 * A SQLite file with every migration run: each fresh DATA_DIR starts with a copy, and the app's own start finds no
 * migration left to run (migrating a fresh file is what the upgrade spec proves).
 */
function migratedSqliteFile(): Promise<string> {
  return keptFile('tax-portal-e2e-migrated-', `${migrationsDigest()}.sqlite`, async (path) => {
    const building = mkdtempSync(join(tmpdir(), 'tax-portal-e2e-migrating-'));
    try {
      await migrate({ dataDir: building });
      renameSync(join(building, SQLITE_FILE), path);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  });
}

/** Every file of src/ and the lock file: what the OpenAPI document is made from. */
function codeDigest(): string {
  const root = join(__dirname, '..', '..');
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(root, 'src'));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex').slice(0, 12);
}

let builtDocument: OpenAPIObject | undefined;

/**
 * The OpenAPI document of this code. It depends on the code alone, and building it is most of a test file's first
 * app start (jest gives each test file modules of its own), so the first test file builds it and the others read it.
 */
async function documentOf(app: INestApplication): Promise<OpenAPIObject> {
  if (builtDocument) return builtDocument;
  const file = await keptFile('tax-portal-e2e-openapi-', `${codeDigest()}.json`, async (path) => {
    writeFileSync(path, JSON.stringify(openApiDocument(app)));
  });
  builtDocument = JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
  return builtDocument;
}

/** Runs `sql` on the server of `url`, on a connection of its own. */
async function runOn(url: string, sql: string, params: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

/** `url` with another database's name. */
function onDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

let postgresTemplate: Promise<string> | undefined;

/**
 * A PostgreSQL database with every migration run, shared by the test processes of every run while the migrations are
 * the same (named by their digest): each migrated fresh database is a copy (CREATE DATABASE … TEMPLATE). Built under
 * an advisory lock and renamed to its name only when complete, so a process never copies a half-migrated one;
 * templates of other migrations are dropped then.
 */
function migratedPostgresTemplate(admin: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `e2e_template_${migrationsDigest()}`;
    const exists = async () => (await runOn(admin, 'SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
    if (await exists()) return name;
    const { Client } = await import('pg');
    const lock = new Client({ connectionString: admin });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', ['tax-portal e2e template']);
      if (await exists()) return name;
      const building = `${name}_building`;
      await runOn(admin, `DROP DATABASE IF EXISTS ${building}`);
      await runOn(admin, `CREATE DATABASE ${building}`);
      await migrate({ dataDir: tmpdir(), databaseUrl: onDatabase(admin, building) });
      // A template no session may connect to (autovacuum included) is never busy when it is copied.
      await runOn(admin, `ALTER DATABASE ${building} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      await runOn(admin, `ALTER DATABASE ${building} RENAME TO ${name}`);
      const stale = await runOn(
        admin,
        "SELECT datname FROM pg_database WHERE datname LIKE 'e2e\\_template\\_%' AND datname <> $1",
        [name],
      );
      for (const { datname } of stale) {
        await runOn(admin, `ALTER DATABASE ${String(datname)} WITH IS_TEMPLATE false`);
        await runOn(admin, `DROP DATABASE IF EXISTS ${String(datname)}`);
      }
      return name;
    } finally {
      await lock.end();
    }
  })();
  return postgresTemplate;
}

/**
 * On PostgreSQL (`npm run test:e2e:pg`, the service specs with TEST_DATABASE_URL), each test app gets a database
 * of its own on the server of TEST_DATABASE_URL (a user that may create databases), created here and dropped at close:
 * empty, or with every migration run (`migrated`, a copy of a migrated template).
 */
export async function freshPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin)
    throw new Error('PostgreSQL tests need TEST_DATABASE_URL (a PostgreSQL URL whose user may create databases).');
  const name = `e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const run = (sql: string) => runOn(admin, sql);
  const template = options.migrated ? ` TEMPLATE ${await migratedPostgresTemplate(admin)}` : '';
  await run(`CREATE DATABASE ${name}${template}`);
  const url = onDatabase(admin, name);
  // Not DROP … WITH (FORCE): it also signals an autovacuum worker that happens to be in the database, which a
  // role without pg_signal_backend may not do (a suite failed to close on CI that way). End this role's own
  // connections, then a plain DROP, which makes autovacuum workers leave by itself.
  const drop = async () => {
    await run(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND usename = current_user AND pid <> pg_backend_pid()`,
    );
    await run(`DROP DATABASE IF EXISTS ${name}`);
  };
  return { url, drop };
}

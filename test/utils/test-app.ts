import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AbstractLoader, ExpressLoader } from '@nestjs/serve-static';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
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

let builtDocument: OpenAPIObject | undefined;

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
  const postgres = database === 'postgres' ? await freshPostgresDatabase() : undefined;
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
    // The OpenAPI document depends on the code alone: built once in each test process.
    builtDocument ??= openApiDocument(app);
    validator.use(configureApp(app, builtDocument));
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

/**
 * On PostgreSQL (`npm run test:e2e:pg`, the service specs with TEST_DATABASE_URL), each test app gets a database
 * of its own on the server of TEST_DATABASE_URL (a user that may create databases), created here and dropped at close.
 */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin)
    throw new Error('PostgreSQL tests need TEST_DATABASE_URL (a PostgreSQL URL whose user may create databases).');
  const { Client } = await import('pg');
  const name = `e2e_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  // Not DROP … WITH (FORCE): it also signals an autovacuum worker that happens to be in the database, which a
  // role without pg_signal_backend may not do (a suite failed to close on CI that way). End this role's own
  // connections, then a plain DROP, which makes autovacuum workers leave by itself.
  const drop = async () => {
    await run(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND usename = current_user AND pid <> pg_backend_pid()`,
    );
    await run(`DROP DATABASE IF EXISTS ${name}`);
  };
  return { url: url.toString(), drop };
}

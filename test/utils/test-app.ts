import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AbstractLoader, ExpressLoader } from '@nestjs/serve-static';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { configureApp } from '../../src/configure-app';

export interface TestApp {
  app: INestApplication;
  /** The HTTP server, for supertest. */
  http: ReturnType<INestApplication['getHttpServer']>;
  db: DataSource;
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * The whole application on a real SQLite file in a fresh DATA_DIR, migrated like production.
 * `env` sets extra configuration for this app only.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-e2e-'));
  const saved = { ...process.env };
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    BOOTSTRAP_SUPPORT_EMAIL: 'support@vendor.test',
    BOOTSTRAP_SUPPORT_PASSWORD: 'Support-Pass-1',
    PUBLIC_URL: 'http://portal.test',
    SERVICE_API_KEY: 'test-service-api-key-0123456789',
    ...env,
  });
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(AbstractLoader)
      .useClass(ExpressLoader)
      .compile();
    const app = moduleRef.createNestApplication({ logger: false });
    configureApp(app);
    await app.init();
    return {
      app,
      http: app.getHttpServer(),
      db: app.get(DataSource),
      dataDir,
      close: async () => {
        await app.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } finally {
    process.env = saved;
  }
}

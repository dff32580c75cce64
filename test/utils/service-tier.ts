import { randomUUID } from 'node:crypto';
import { AuthUser } from '../../src/platform/web/auth-user';
import { User } from '../../src/platform/database/entities/user.entity';
import { TestApp, TestDatabase, createTestApp } from './test-app';

/**
 * The service tier: a service's rules tested on the real application module graph and a real database, without
 * HTTP. Every spec runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 */
export const SERVICE_DATABASES: TestDatabase[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

// A rule's test runs real transactions (argon2 hashes for the factory users included): more than the unit default.
jest.setTimeout(30_000);

/**
 * One application per database for a spec file (started in beforeAll, closed in afterAll): `t()` is the running
 * one. Each test makes its own organisation, so tests in a file never see each other's rows.
 */
export function serviceApp(database: TestDatabase, env: Record<string, string> = {}): () => TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(env, database);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });
  return () => {
    if (!app) throw new Error('the service app is not running (used outside a test?)');
    return app;
  };
}

/** The caller as the JWT guard hands it to a service, for an account the test made. */
export function callerOf(user: User, sessionId: string = randomUUID()): AuthUser {
  return {
    id: user.id,
    email: user.email,
    organisationId: user.organisationId,
    sessionId,
    roles: user.roles,
    isMFAEnforced: user.isMFAEnforced,
    isMFAEnabled: user.isMFAEnabled,
    hasPasskey: false,
    authenticatedAt: new Date(),
    signInMethod: 'password',
  };
}

/** A service call's refusal as the HTTP layer would answer it (status and error code), or null when it succeeded. */
export function refusalOf(p: Promise<unknown>): Promise<{ status: number; code: string | undefined } | null> {
  return p.then(
    () => null,
    (e: { getStatus(): number; getResponse(): unknown }) => ({
      status: e.getStatus(),
      code: (e.getResponse() as { code?: string }).code,
    }),
  );
}

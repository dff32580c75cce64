import * as argon2 from 'argon2';
import { generate } from 'otplib';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { encrypt } from '../../src/platform/crypto/secrets';
import { SsoConnection } from '../../src/identity/federation/entities/sso-connection.entity';
import { Organisation } from '../../src/platform/database/entities/organisation.entity';
import { User } from '../../src/platform/database/entities/user.entity';
import { Role } from '../../src/shared/roles';
import { TestApp } from './test-app';

let seq = 0;
const next = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/** Passwords of factory users: one cheap hash shared by all of them. */
export const PASSWORD = 'Correct-Horse-9';
let passwordHash: Promise<string> | undefined;

export async function createOrganisation(t: TestApp, overrides: Partial<Organisation> = {}): Promise<Organisation> {
  const repo = t.db.getRepository(Organisation);
  const code = overrides.code ?? `ORG${next()}`.slice(0, 25).toUpperCase();
  return repo.save(
    repo.create({
      code,
      name: `Organisation ${code}`,
      allowedUsersNumber: 100,
      maxConcurrentUsers: 100,
      maxPortfolios: 10,
      applications: ['TAX_MANAGER', 'CA_VIEWER'],
      ...overrides,
    }),
  );
}

export interface UserOptions extends Partial<User> {
  /** A base32 TOTP secret: the user gets MFA enabled with it. */
  totpSecret?: string;
  password?: string;
}

export async function createUser(t: TestApp, org: Organisation, options: UserOptions = {}): Promise<User> {
  const { totpSecret, password, ...fields } = options;
  passwordHash ??= argon2.hash(PASSWORD, { type: argon2.argon2id });
  const repo = t.db.getRepository(User);
  const key = t.config.encryptionKey;
  return repo.save(
    repo.create({
      organisationId: org.id,
      email: `user-${next()}@example.com`,
      passwordHash: password ? await argon2.hash(password, { type: argon2.argon2id }) : await passwordHash,
      firstName: 'Test',
      lastName: 'User',
      roleId: Role.STANDARD_ADMIN,
      isMFAEnforced: false,
      ...(totpSecret ? { isMFAEnabled: true, mfaSecret: encrypt(totpSecret, key) } : {}),
      ...fields,
    }),
  );
}

/** A TOTP code for the secret, as an authenticator app would show it now. */
export function totp(secret: string, epoch?: number): Promise<string> {
  return generate({ secret, ...(epoch ? { epoch } : {}) });
}

export interface LoggedIn {
  accessToken: string;
  cookie: string;
  auth: { Authorization: string };
}

/** Signs in through the real endpoint (user without MFA or forced change). */
export async function login(t: TestApp, email: string, password = PASSWORD): Promise<LoggedIn> {
  const res = await request(t.http).post('/auth/login').send({ username: email, password, acceptToS: true });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return fromResponse(res);
}

export function fromResponse(res: request.Response): LoggedIn {
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie.find((c) => c.startsWith('refreshToken='))?.split(';')[0] ?? '';
  return { accessToken: res.body.accessToken, cookie, auth: { Authorization: `Bearer ${res.body.accessToken}` } };
}

/**
 * An OpenID Connect connection of `org`: enabled, named 'Corporate', at https://idp.example as the client `portal`;
 * `fields` over these.
 */
export function createOidcConnection(
  t: TestApp,
  org: Organisation,
  fields: Partial<SsoConnection> = {},
): Promise<SsoConnection> {
  const repo = t.db.getRepository(SsoConnection);
  return repo.save(
    repo.create({
      organisationId: org.id,
      protocol: 'oidc',
      name: 'Corporate',
      enabled: true,
      oidcIssuer: 'https://idp.example',
      oidcClientId: 'portal',
      ...fields,
    }),
  );
}

export function repo<T extends object>(db: DataSource, entity: new () => T) {
  return db.getRepository(entity);
}

import * as argon2 from 'argon2';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { BROWSER_DATA_DIR } from './server';

/**
 * Arranges data for a browser test by writing to the running server's SQLite file, as a fixture
 * would; everything the test then checks goes through the browser and the real server.
 */
function run(sql: string, params: unknown[]): Promise<number> {
  const db = new Database(join(seedDataDir, 'app.sqlite'));
  db.configure('busyTimeout', 5000);
  return new Promise((resolve, reject) =>
    db.run(sql, params, function (this: { lastID: number }, err: Error | null) {
      db.close();
      if (err) reject(err);
      else resolve(this.lastID);
    }),
  );
}

/** Runs one statement on the running server's SQLite file, as a fixture would (e.g. to age a session). */
export async function writeSql(sql: string, params: unknown[]): Promise<void> {
  await run(sql, params);
}

/** The server whose database the seeds write to: the suite's, unless a test starts a server of its own (passkeys). */
let seedDataDir = BROWSER_DATA_DIR;
export function seedInto(dataDir: string): void {
  seedDataDir = dataDir;
}

let n = 0;
const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

export async function seedOrganisation(
  fields: {
    code?: string;
    name?: string;
    allowedUsersNumber?: number;
    maxConcurrentUsers?: number;
    isSSOEnabled?: boolean;
    applications?: string[];
  } = {},
) {
  const code = fields.code ?? `B${unique()}`.toUpperCase().slice(0, 25);
  const name = fields.name ?? `Browser Org ${code}`;
  const id = await run(
    `INSERT INTO organisations (code, name, allowedUsersNumber, maxConcurrentUsers, maxPortfolios, applications, isSSOEnabled) VALUES (?, ?, ?, ?, 5, ?, ?)`,
    [
      code,
      name,
      fields.allowedUsersNumber ?? 100,
      fields.maxConcurrentUsers ?? 100,
      JSON.stringify(fields.applications ?? ['TAX_MANAGER', 'CA_VIEWER']),
      fields.isSSOEnabled ? 1 : 0,
    ],
  );
  return { id, code, name };
}

export interface SeedUser {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  roleId?: number;
  isAdministrator?: boolean;
  isMFAEnforced?: boolean;
  mustChangePassword?: boolean;
  isSSO?: boolean;
}

export async function seedUser(organisationId: number, u: SeedUser = {}) {
  const email = u.email ?? `browser-${unique()}@example.com`;
  const password = u.password ?? 'Browser-Pass-1';
  const id = await run(
    `INSERT INTO users (organisationId, email, passwordHash, firstName, lastName, roleId, isAdministrator, isMFAEnforced, mustChangePassword, isSSO) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      organisationId,
      email,
      await argon2.hash(password, { type: argon2.argon2id }),
      u.firstName ?? 'Brow',
      u.lastName ?? 'Ser',
      u.roleId ?? 4,
      u.isAdministrator ? 1 : 0,
      u.isMFAEnforced ? 1 : 0,
      u.mustChangePassword ? 1 : 0,
      u.isSSO ? 1 : 0,
    ],
  );
  return { id, email, password };
}

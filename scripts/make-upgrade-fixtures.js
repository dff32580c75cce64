#!/usr/bin/env node
// `npm run upgrade-fixtures [-- <commit>...]`: makes test/fixtures/upgrade/, the databases of earlier releases that
// test/e2e/platform/upgrade.e2e-spec.ts migrates with the current code (docs/decisions/upgrade-fixtures.md). Run it when a
// release changes the schema: add that release's commit to RELEASES and run it (needs git history, the sqlite3 and
// pg modules, pg_dump, and TEST_DATABASE_URL: a PostgreSQL user that may create databases).
//
// For each release: its src/ at that commit (git archive) into a scratch folder; its own migrations run on a fresh
// SQLite file and a fresh PostgreSQL database; each schema written as it stands (schema.sqlite.sql,
// schema.postgres.sql, with the rows the migrations wrote); then rows for every table, made the way that commit's
// code made them (its argon2 parameters, its sha256 of tokens, its AES-GCM sealing of TOTP secrets with a key
// generated here), written once (data.json), loaded into both schemas and read back to prove the load faithful.
// The key material is generated per run and is test-only; it is in manifest.json because the test needs it.
'use strict';
const { execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const fixtures = require('../test/utils/servers/upgrade-fixtures');

const ROOT = resolve(__dirname, '..');

/**
 * The released schemas a fixture is made for: the state of main after each of these commits (its last migration
 * first). Chosen where the data model changed materially; docs/decisions/upgrade-fixtures.md says why.
 */
const RELEASES = [
  { commit: 'ae7a6ee', note: 'the first release: organisations, users, sessions, refresh and reset tokens' },
  { commit: '13e7658', note: 'user groups, organisation administration, notifications and the shell tables' },
  { commit: 'c72bc78', note: 'stored files under their first migration name (renamed one commit later)' },
  { commit: 'b1ce8e7', note: 'the mail outbox, user search indexes and the audit trail' },
  { commit: '60eefa2', note: 'recovery codes, trusted devices, passkeys and refresh rotation' },
  { commit: 'd2ac744', note: 'the short search indexes and the user list index, before corporate sign-in' },
  { commit: '20dad66', note: 'the release before the current one: SSO connections, domains and step-up' },
];

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });

/** TypeScript of the extracted tree compiled on require, as the test runner compiles it (decorators, CommonJS). */
function compileTypeScriptOnRequire() {
  const swc = require('@swc/core');
  require.extensions['.ts'] = (module, filename) => {
    const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
      filename,
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
}

/** The commit's src/ in a scratch folder inside the project, so that its imports of packages resolve here. */
function extract(commit) {
  const dir = join(ROOT, 'node_modules', '.cache', 'upgrade-fixtures', commit);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} src | tar -x -C "${dir}"`], { cwd: ROOT });
  return join(dir, 'src');
}

/** The migration classes of the extracted tree, in the order of their timestamps. */
function migrationsOf(src) {
  const dir = join(src, 'database', 'migrations');
  const classes = [];
  for (const file of readdirSync(dir)
    .filter((f) => /^\d+-.*\.ts$/.test(f))
    .sort()) {
    for (const value of Object.values(require(join(dir, file)))) {
      if (typeof value === 'function' && typeof value.prototype?.up === 'function') classes.push(value);
    }
  }
  return classes;
}

async function migrate(options, migrations) {
  const { DataSource } = require('typeorm');
  const ds = new DataSource({ ...options, migrations, synchronize: false, logging: false });
  await ds.initialize();
  try {
    const ran = await ds.runMigrations();
    return ran.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/** A scratch PostgreSQL database on the server of TEST_DATABASE_URL. */
async function scratchPostgres(admin, name) {
  const { Client } = require('pg');
  const run = async (sql) => {
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`DROP DATABASE IF EXISTS ${name}`);
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name}`) };
}

/** The SQLite schema as statements in the order SQLite recorded them (full-text indexes' own tables left out). */
async function sqliteSchema(conn) {
  const shadow = new Set(
    (await conn.query(`SELECT name FROM pragma_table_list WHERE type = 'shadow'`)).map((r) => r.name),
  );
  const objects = await conn.query(
    `SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`,
  );
  const statements = objects.filter((o) => !shadow.has(o.name)).map((o) => `${o.sql};`);
  // The rows the migrations wrote themselves (their bookkeeping, lookup tables).
  for (const table of await fixtures.dataTables(conn)) {
    const rows = await conn.query(`SELECT * FROM "${table}"`);
    for (const row of rows) {
      const values = Object.values(row).map((v) =>
        v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`,
      );
      statements.push(
        `INSERT INTO "${table}" (${Object.keys(row)
          .map((c) => `"${c}"`)
          .join(', ')}) VALUES (${values.join(', ')});`,
      );
    }
  }
  return `${statements.join('\n')}\n`;
}

/** pg_dump of the database, schema and the migrations' own rows, without owners, grants, comments or psql commands. */
function postgresSchema(url) {
  const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--no-comments', '--inserts', url], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return dump
    .split('\n')
    .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .concat('\n');
}

/** The password of every fixture account (test-only). */
const PASSWORD = 'Upgrade-Fixture-Pass-1';

/** RFC 4648 base32, as authenticator apps take TOTP secrets. */
function base32(bytes) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i + 5 <= bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5), 2)];
  return out;
}

/**
 * Rows for every table a release may have, parents first. Columns a release lacks are left out for it; a table
 * of a release without rows here, or a required column without a value, stops the script (so a new table gets
 * rows when its release is added). `c` holds that commit's own hashing and sealing, the keys and the times.
 */
function templates(c) {
  const ago = (minutes) => new Date(c.now - minutes * 60_000).toISOString();
  const ahead = (minutes) => new Date(c.now + minutes * 60_000).toISOString();
  const json = (v) => JSON.stringify(v);
  const hex = (n) => randomBytes(n).toString('hex');
  const b64url = (n) => randomBytes(n).toString('base64url');
  const user = (id, organisationId, email, firstName, lastName, roleId, extra = {}) => ({
    id,
    organisationId,
    email,
    passwordHash: c.passwordHash,
    firstName,
    lastName,
    jobTitle: 'Tax Analyst',
    department: 'Capital Gains',
    location: 'London',
    roleId,
    isAdministrator: false,
    isDisabled: false,
    isBlocked: false,
    isMFAEnforced: false,
    isMFAEnabled: false,
    mfaSecret: null,
    mfaPendingSecret: null,
    mfaLastUsedStep: null,
    emailMfaCodeHash: null,
    emailMfaCodeExpiresAt: null,
    isSSO: false,
    mustChangePassword: false,
    passwordChangedAt: ago(60 * 24 * 30),
    lastLoginAt: ago(60),
    createdAt: ago(60 * 24 * 90),
    updatedAt: ago(60 * 24),
    hasPasskey: false,
    ...extra,
  });
  return [
    [
      'organisations',
      [
        {
          id: 1,
          code: 'VENDOR',
          name: 'Vendor Support',
          accountType: 'ORGANIZATION',
          isVendor: true,
          allowedUsersNumber: 1000,
          maxConcurrentUsers: 1000,
          maxPortfolios: 0,
          applications: json(['TAX_MANAGER', 'CA_VIEWER']),
          isSSOEnabled: false,
          ssoLogoutUrl: null,
          logoPath: null,
          createdAt: ago(60 * 24 * 120),
          updatedAt: ago(60 * 24 * 120),
        },
        {
          id: 2,
          code: 'ACMECGT',
          name: 'Acme Capital Gains Ltd',
          accountType: 'ORGANIZATION',
          isVendor: false,
          allowedUsersNumber: 40,
          maxConcurrentUsers: 12,
          maxPortfolios: 25,
          applications: json(['TAX_MANAGER']),
          isSSOEnabled: true,
          ssoLogoutUrl: 'https://idp.acme.test/logout',
          logoPath: 'logos/2-acme.png',
          createdAt: ago(60 * 24 * 100),
          updatedAt: ago(60 * 24 * 3),
        },
        {
          id: 3,
          code: 'NORTHWIND',
          name: 'Northwind Fund Services',
          accountType: 'ORGANIZATION',
          isVendor: false,
          allowedUsersNumber: 5,
          maxConcurrentUsers: 2,
          maxPortfolios: 3,
          applications: json(['TAX_MANAGER', 'CA_VIEWER']),
          isSSOEnabled: false,
          ssoLogoutUrl: null,
          logoPath: null,
          createdAt: ago(60 * 24 * 80),
          updatedAt: ago(60 * 24 * 80),
        },
      ],
    ],
    [
      'users',
      [
        user(1, 1, 'support@vendor.test', 'Support', 'Admin', 1),
        user(2, 2, 'alice.admin@acme.test', 'Alice', 'Adeyemi', 3, { isAdministrator: true, jobTitle: 'Head of Tax' }),
        user(3, 2, 'tom.totp@acme.test', 'Tom', 'Okafor', 4, {
          isMFAEnforced: true,
          isMFAEnabled: true,
          mfaSecret: c.sealedTotpSecret,
          mfaLastUsedStep: Math.floor(c.now / 30_000) - 100,
        }),
        user(4, 2, 'dana.disabled@acme.test', 'Dana', 'Lindqvist', 6, { isDisabled: true, lastLoginAt: null }),
        user(5, 2, 'sam.sso@acme.test', 'Sam', 'Brennan', 7, { passwordHash: null, isSSO: true, isMFAEnforced: false }),
        user(6, 3, 'nia.viewer@northwind.test', 'Nia', 'Castellanos', 7, {
          mustChangePassword: true,
          passwordChangedAt: null,
          lastLoginAt: null,
        }),
        user(7, 2, 'priya.passkey@acme.test', 'Priya', 'Raman', 5, { hasPasskey: true }),
      ],
    ],
    [
      'user_groups',
      [
        { id: 1, organisationId: 2, name: 'Year-end team', nameKey: 'year-end team', createdAt: ago(60 * 24 * 20) },
        { id: 2, organisationId: 3, name: 'Reviewers', nameKey: 'reviewers', createdAt: ago(60 * 24 * 10) },
      ],
    ],
    [
      'user_group_members',
      [
        { groupId: 1, userId: 2, createdAt: ago(60 * 24 * 20) },
        { groupId: 1, userId: 3, createdAt: ago(60 * 24 * 19) },
        { groupId: 2, userId: 6, createdAt: ago(60 * 24 * 10) },
      ],
    ],
    [
      'sessions',
      [
        {
          id: c.sessionId,
          userId: 2,
          organisationId: 2,
          createdAt: ago(30),
          lastRefreshAt: ago(5),
          endedAt: null,
          endReason: null,
          ip: '203.0.113.10',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
          method: 'password',
          authenticatedAt: ago(30),
        },
        {
          id: '5f0c6e1a-8d1e-4c55-9e59-2b7c1d4a9e10',
          userId: 3,
          organisationId: 2,
          createdAt: ago(60 * 24),
          lastRefreshAt: ago(60 * 24 - 10),
          endedAt: ago(60 * 24 - 20),
          endReason: 'logout',
          ip: '198.51.100.7',
          userAgent: 'Mozilla/5.0 (Macintosh) Safari/17.0',
          method: 'password',
          authenticatedAt: ago(60 * 24),
        },
        {
          id: 'a3d9b7e2-41c8-4f0e-8b6a-7c2e9f1d3b54',
          userId: 5,
          organisationId: 2,
          createdAt: ago(120),
          lastRefreshAt: ago(120),
          endedAt: null,
          endReason: null,
          ip: '203.0.113.22',
          userAgent: 'Mozilla/5.0 (Windows NT 10.0) Edge/130.0',
          method: 'sso',
          authenticatedAt: ago(120),
        },
      ],
    ],
    [
      'refresh_tokens',
      [
        // The first token of the live session, used when the second replaced it (as rotation leaves them).
        {
          id: 1,
          sessionId: c.sessionId,
          tokenHash: c.sha256(b64url(32)),
          createdAt: ago(30),
          expiresAt: ahead(60 * 24 * 7 - 30),
          usedAt: ago(5),
          replacesId: null,
        },
        {
          id: 2,
          sessionId: c.sessionId,
          tokenHash: c.sha256(c.refreshToken),
          createdAt: ago(5),
          expiresAt: ahead(60 * 24 * 7 - 5),
          usedAt: null,
          replacesId: 1,
        },
        {
          id: 3,
          sessionId: '5f0c6e1a-8d1e-4c55-9e59-2b7c1d4a9e10',
          tokenHash: c.sha256(b64url(32)),
          createdAt: ago(60 * 24),
          expiresAt: ahead(60 * 24 * 6),
          usedAt: null,
          replacesId: null,
        },
        {
          id: 4,
          sessionId: 'a3d9b7e2-41c8-4f0e-8b6a-7c2e9f1d3b54',
          tokenHash: c.sha256(b64url(32)),
          createdAt: ago(120),
          expiresAt: ahead(60 * 24 * 7 - 120),
          usedAt: null,
          replacesId: null,
        },
      ],
    ],
    [
      'password_reset_tokens',
      [
        {
          id: 1,
          userId: 6,
          tokenHash: c.sha256(b64url(32)),
          createdAt: ago(60 * 48),
          expiresAt: ago(60 * 47),
          usedAt: null,
        },
      ],
    ],
    [
      'announcements',
      [
        {
          id: 1,
          title: 'Scheduled maintenance',
          content: 'The portal is unavailable on Saturday from 06:00 to 08:00 UTC.',
          organisationId: null,
          createdById: 1,
          createdAt: ago(60 * 24 * 2),
        },
        {
          id: 2,
          title: 'Year-end reports',
          content: 'Year-end capital gains reports are ready for review.',
          organisationId: 2,
          createdById: 2,
          createdAt: ago(60 * 24),
        },
      ],
    ],
    ['announcement_dismissals', [{ id: 1, announcementId: 1, userId: 2, createdAt: ago(60 * 24) }]],
    [
      'contact_profiles',
      [
        {
          id: 1,
          organisationId: 2,
          kind: 'PRIMARY',
          fullName: 'Alice Adeyemi',
          jobTitle: 'Head of Tax',
          department: 'Tax',
          basedIn: 'London',
          email: 'alice.admin@acme.test',
          mobile: '+44 7700 900123',
          createdAt: ago(60 * 24 * 50),
          updatedAt: ago(60 * 24 * 50),
        },
        {
          id: 2,
          organisationId: 2,
          kind: 'BILLING',
          fullName: 'Accounts Payable',
          jobTitle: '',
          department: 'Finance',
          basedIn: 'Leeds',
          email: 'ap@acme.test',
          mobile: '',
          createdAt: ago(60 * 24 * 50),
          updatedAt: ago(60 * 24 * 40),
        },
      ],
    ],
    [
      'logo_uploads',
      [
        {
          nonce: hex(16),
          organisationId: 2,
          storedName: '2-acme.png',
          expiresAt: ago(60 * 24 * 3 - 10),
          usedAt: ago(60 * 24 * 3),
          createdAt: ago(60 * 24 * 3 + 1),
        },
      ],
    ],
    [
      'stored_files',
      [
        {
          key: 'logos/2-acme.png',
          contentType: 'image/png',
          size: 67,
          data: {
            base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==',
          },
          createdAt: ago(60 * 24 * 3),
        },
      ],
    ],
    [
      'notifications',
      [
        {
          id: 1,
          organisationId: 2,
          userId: null,
          type: 'REPORT',
          content: json({
            status: 'COMPLETED',
            message: 'Capital gains report for FY2025 is ready.',
            portfolioName: 'Main Fund',
          }),
          createdAt: ago(60 * 6),
        },
        {
          id: 2,
          organisationId: 2,
          userId: 3,
          type: 'PORTFOLIO_PROCESSING',
          content: json({ status: 'FAILED', message: 'Portfolio import stopped at row 118.', portfolioCode: 'MF-01' }),
          createdAt: ago(60 * 3),
        },
      ],
    ],
    ['notification_receipts', [{ notificationId: 1, userId: 2, read: true, dismissed: false, updatedAt: ago(60 * 5) }]],
    ['notification_watermarks', [{ userId: 3, dismissedThroughId: 1, updatedAt: ago(60 * 4) }]],
    [
      'user_feedback',
      [
        {
          id: 1,
          title: 'Export to CSV',
          content: 'Could the disposal schedule export include the acquisition date?',
          userId: 3,
          organisationId: 2,
          createdAt: ago(60 * 24 * 5),
        },
      ],
    ],
    [
      'system_information',
      [
        {
          id: 1,
          eventType: 'application-deployment',
          status: 'completed',
          version: c.version,
          message: `Application started (version ${c.version}).`,
          startDateTime: ago(60 * 24 * 7),
          modified: ago(60 * 24 * 7),
        },
      ],
    ],
    [
      'mail_outbox',
      [
        // Sent within the week the outbox keeps sent messages.
        {
          id: 1,
          kind: 'mail',
          payload: null,
          to: 'tom.totp@acme.test',
          replyTo: null,
          subject: 'Your account is ready',
          text: 'An account was created for you on the tax portal.',
          attempts: 1,
          nextAttemptAt: ago(60 * 24 * 3),
          claimedUntil: null,
          sentAt: ago(60 * 24 * 3),
          lastError: null,
          createdAt: ago(60 * 24 * 3),
        },
        {
          id: 2,
          kind: 'mail',
          payload: null,
          to: 'nia.viewer@northwind.test',
          replyTo: 'support@vendor.test',
          subject: 'Password reset',
          text: 'A password reset was asked for your account.',
          attempts: 2,
          nextAttemptAt: ago(60 * 48),
          claimedUntil: null,
          sentAt: ago(60 * 47),
          lastError: 'connect ETIMEDOUT',
          createdAt: ago(60 * 48),
        },
      ],
    ],
    [
      'audit_events',
      [
        {
          id: 1,
          occurredAt: ago(60 * 24 * 90),
          type: 'USER_CREATED',
          organisationId: 2,
          actorKind: 'user',
          actorId: 2,
          actorEmail: 'alice.admin@acme.test',
          actorOrganisationId: 2,
          targetId: 3,
          targetEmail: 'tom.totp@acme.test',
          targetOrganisationId: 2,
          ip: '203.0.113.10',
          userAgent: 'Mozilla/5.0 Firefox/128.0',
          summary: 'User tom.totp@acme.test created with the role Standard Admin',
          changes: null,
        },
        {
          id: 2,
          occurredAt: ago(60 * 24 * 30),
          type: 'ROLE_CHANGED',
          organisationId: 2,
          actorKind: 'user',
          actorId: 2,
          actorEmail: 'alice.admin@acme.test',
          actorOrganisationId: 2,
          targetId: 7,
          targetEmail: 'priya.passkey@acme.test',
          targetOrganisationId: 2,
          ip: '203.0.113.10',
          userAgent: 'Mozilla/5.0 Firefox/128.0',
          summary: 'Role of priya.passkey@acme.test changed',
          changes: json({ roleId: { from: 6, to: 5 } }),
        },
        {
          id: 3,
          occurredAt: ago(30),
          type: 'SIGN_IN_SUCCEEDED',
          organisationId: 2,
          actorKind: 'user',
          actorId: 2,
          actorEmail: 'alice.admin@acme.test',
          actorOrganisationId: 2,
          targetId: null,
          targetEmail: null,
          targetOrganisationId: null,
          ip: '203.0.113.10',
          userAgent: 'Mozilla/5.0 Firefox/128.0',
          summary: 'Signed in with a password',
          changes: null,
        },
        {
          id: 4,
          occurredAt: ago(20),
          type: 'SIGN_IN_FAILED',
          organisationId: null,
          actorKind: 'anonymous',
          actorId: null,
          actorEmail: 'unknown@acme.test',
          actorOrganisationId: null,
          targetId: null,
          targetEmail: null,
          targetOrganisationId: null,
          ip: '192.0.2.99',
          userAgent: 'curl/8.5.0',
          summary: 'Sign-in failed: unknown account',
          changes: null,
        },
        {
          id: 5,
          occurredAt: ago(60 * 24 * 10),
          type: 'USER_CREATED',
          organisationId: 3,
          actorKind: 'user',
          actorId: 1,
          actorEmail: 'support@vendor.test',
          actorOrganisationId: 1,
          targetId: 6,
          targetEmail: 'nia.viewer@northwind.test',
          targetOrganisationId: 3,
          ip: '203.0.113.1',
          userAgent: 'Mozilla/5.0 Chrome/131.0',
          summary: 'User nia.viewer@northwind.test created with the role Viewer',
          changes: null,
        },
      ],
    ],
    [
      'mfa_recovery_codes',
      [
        { id: 1, userId: 3, codeHash: hex(32), usedAt: null, createdAt: ago(60 * 24 * 60) },
        { id: 2, userId: 3, codeHash: hex(32), usedAt: ago(60 * 24 * 2), createdAt: ago(60 * 24 * 60) },
      ],
    ],
    [
      'mfa_trusted_devices',
      [
        {
          id: 1,
          userId: 3,
          tokenHash: c.sha256(b64url(32)),
          label: 'Firefox on Linux',
          createdAt: ago(60 * 24 * 2),
          lastUsedAt: ago(60 * 24),
          expiresAt: ahead(60 * 24 * 28),
        },
      ],
    ],
    [
      'passkeys',
      [
        {
          id: 1,
          userId: 7,
          credentialId: b64url(32),
          publicKey: b64url(77),
          counter: 12,
          transports: json(['internal', 'hybrid']),
          name: 'MacBook Touch ID',
          deviceType: 'multiDevice',
          backedUp: true,
          createdAt: ago(60 * 24 * 14),
          lastUsedAt: ago(60 * 24),
        },
      ],
    ],
    ['webauthn_challenges', [{ challenge: b64url(32), purpose: 'authentication', userId: null, expiresAt: ahead(5) }]],
    [
      'sso_connections',
      [
        {
          id: 1,
          organisationId: 2,
          protocol: 'oidc',
          name: 'Acme Entra ID',
          enabled: true,
          jitProvisioning: true,
          defaultRoleId: 7,
          oidcIssuer: 'https://login.acme.test/tenant/v2.0',
          oidcClientId: 'tax-portal',
          oidcClientSecret: c.encrypt('oidc-client-secret-of-the-fixture'),
          samlMetadataXml: null,
          samlEntityId: null,
          samlSsoUrl: null,
          samlSloUrl: null,
          samlCertificates: null,
          createdAt: ago(60 * 24 * 7),
          updatedAt: ago(60 * 24 * 7),
        },
      ],
    ],
    ['sso_identities', [{ id: 1, connectionId: 1, subject: 'entra|00u1sam', userId: 5, createdAt: ago(60 * 24 * 6) }]],
    [
      'sso_sessions',
      [
        {
          sessionId: 'a3d9b7e2-41c8-4f0e-8b6a-7c2e9f1d3b54',
          connectionId: 1,
          subject: 'entra|00u1sam',
          providerSessionId: 'sid-7d1f',
          idToken: c.encrypt('eyJhbGciOiJSUzI1NiJ9.e30.c2ln'),
          nameIdFormat: null,
        },
      ],
    ],
    ['sso_one_time_values', [{ key: `state:${b64url(16)}`, value: b64url(24), expiresAt: ahead(10) }]],
    [
      'organisation_domains',
      [
        {
          id: 1,
          organisationId: 2,
          domain: 'acme.test',
          txtValue: `tax-portal-verification=${hex(16)}`,
          verifiedDomain: 'acme.test',
          verifiedAt: ago(60 * 24 * 6),
          createdAt: ago(60 * 24 * 7),
        },
      ],
    ],
  ];
}

/** The commit's own crypto helpers and password parameters, from its extracted tree. */
async function cryptoOf(src, keys) {
  const secrets = require(join(src, 'common', 'crypto', 'secrets.ts'));
  const argon2 = require('argon2');
  const file = ['auth', 'credentials'].map((d) => join(src, d, 'password.service.ts')).find((f) => existsSync(f));
  const service = readFileSync(file, 'utf8');
  const cost = (name) => Number(new RegExp(`${name}: (\\d+)`).exec(service)?.[1]);
  const options = {
    type: argon2.argon2id,
    memoryCost: cost('memoryCost'),
    timeCost: cost('timeCost'),
    parallelism: cost('parallelism'),
  };
  if (Object.values(options).some((v) => Number.isNaN(v)))
    throw new Error('argon2 parameters not found at this commit');
  return {
    sha256: secrets.sha256,
    encrypt: (plain) => secrets.encrypt(plain, keys.encryptionKey),
    passwordHash: await argon2.hash(PASSWORD, options),
  };
}

/** data.json: per table its columns and rows, one row per line. */
function dataJson(tables) {
  const body = tables
    .map((t) => {
      const rows = t.rows.map((r) => `      ${JSON.stringify(r)}`).join(',\n');
      return `    {\n      "name": ${JSON.stringify(t.name)},\n      "columns": ${JSON.stringify(t.columns)},\n      "rows": [\n${rows}\n      ]\n    }`;
    })
    .join(',\n');
  return `{\n  "tables": [\n${body}\n  ]\n}\n`;
}

/** The rows of the templates this schema can hold, checked against it. */
async function rowsFor(conn, all) {
  const tables = [];
  const present = new Set(await fixtures.dataTables(conn));
  const covered = new Set(['migrations', 'search_positions']);
  for (const [name, rows] of all) {
    if (!present.has(name)) continue;
    covered.add(name);
    const info = await conn.query(`PRAGMA table_info("${name}")`);
    const columns = info.map((c) => c.name);
    for (const c of info) {
      if (c.notnull && c.dflt_value === null && !c.pk && !(c.name in rows[0]))
        throw new Error(`${name}.${c.name} is required and the fixture gives it no value`);
    }
    const used = columns.filter((c) => rows.some((r) => c in r));
    tables.push({ name, columns: used, rows: rows.map((r) => used.map((c) => (c in r ? r[c] : null))) });
  }
  const missing = [...present].filter((t) => !covered.has(t));
  if (missing.length) throw new Error(`no fixture rows for: ${missing.join(', ')} (add them to templates())`);
  return { tables };
}

/** Loads the rows into a schema and reads them back: they must be what data.json says, on both engines. */
async function loadAndCheck(conn, data) {
  await fixtures.loadRows(conn, data);
  for (const t of data.tables) {
    const back = await fixtures.readRows(conn, t.name, t.columns);
    const meant = [...t.rows].sort((a, b) => compareRows(a, b));
    const normal = (rows) =>
      JSON.stringify(
        rows.map((r) =>
          r.map((v) => (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? new Date(v).toISOString() : v)),
        ),
      );
    if (normal(back) !== normal(meant))
      throw new Error(`${conn.engine}: ${t.name} read back differs:\n${normal(back)}\n${normal(meant)}`);
  }
}

function compareRows(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (a[i] === null) return -1;
    if (b[i] === null) return 1;
    return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

async function makeFixture(release, admin) {
  const src = extract(release.commit);
  const migrations = migrationsOf(src);
  const last = migrations.at(-1);
  const lastName = new last().name ?? last.name;
  const name = `${String(RELEASES.indexOf(release) + 1).padStart(2, '0')}-${release.commit}`;
  const scratch = join(ROOT, 'node_modules', '.cache', 'upgrade-fixtures', `${release.commit}.sqlite`);
  rmSync(scratch, { force: true });
  const ran = await migrate({ type: 'sqlite', database: scratch }, migrations);
  const pg = await scratchPostgres(admin, `upgrade_fixture_${release.commit}`);
  try {
    await migrate({ type: 'postgres', url: pg.url }, migrations);
    const sqlite = await fixtures.openSqlite(scratch);
    const postgres = await fixtures.openPostgres(pg.url);
    try {
      const schemas = { sqlite: await sqliteSchema(sqlite), postgres: postgresSchema(pg.url) };
      const keys = { jwtSecret: randomBytes(48).toString('base64'), encryptionKey: randomBytes(32) };
      const totpSecret = base32(randomBytes(20));
      const refreshToken = randomBytes(32).toString('base64url');
      const sessionId = '0b7e4c3e-2f6a-4d1b-9a8c-5e3f1a2b7c90';
      const crypto = await cryptoOf(src, keys);
      const now = Date.now();
      const all = templates({
        ...crypto,
        now,
        sessionId,
        refreshToken,
        sealedTotpSecret: crypto.encrypt(totpSecret),
        version: JSON.parse(git('show', `${release.commit}:package.json`)).version,
      });
      const data = await rowsFor(sqlite, all);
      await loadAndCheck(sqlite, data);
      await loadAndCheck(postgres, data);
      const counts = {
        sqlite: await fixtures.rowCounts(sqlite, await fixtures.dataTables(sqlite)),
        postgres: await fixtures.rowCounts(postgres, await fixtures.dataTables(postgres)),
      };
      const dir = join(fixtures.FIXTURES_DIR, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'schema.sqlite.sql'), schemas.sqlite);
      writeFileSync(join(dir, 'schema.postgres.sql'), schemas.postgres);
      writeFileSync(join(dir, 'data.json'), dataJson(data.tables));
      const manifest = {
        commit: git('rev-parse', release.commit).trim(),
        subject: git('log', '-1', '--format=%s', release.commit).trim().slice(0, 120),
        release: release.note,
        lastMigration: lastName,
        migrations: ran,
        generatedAt: new Date(now).toISOString(),
        testOnlyKeys: { JWT_SECRET: keys.jwtSecret, ENCRYPTION_KEY: keys.encryptionKey.toString('base64') },
        accounts: {
          password: PASSWORD,
          admin: 'alice.admin@acme.test',
          totp: { email: 'tom.totp@acme.test', secret: totpSecret },
        },
        session: { id: sessionId, refreshToken },
        rowCounts: counts,
      };
      writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      console.log(`${name}: ${lastName}, ${data.tables.length} tables with fixture rows`);
      return { name, commit: manifest.commit, lastMigration: lastName };
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  } finally {
    await pg.drop();
    rmSync(scratch, { force: true });
  }
}

async function main() {
  compileTypeScriptOnRequire();
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL must name a PostgreSQL user that may create databases');
  const index = [];
  for (const release of RELEASES) index.push(await makeFixture(release, admin));
  writeFileSync(join(fixtures.FIXTURES_DIR, 'index.json'), `${JSON.stringify({ fixtures: index }, null, 2)}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { version } from '../config/version';
import { ArchiveEntry, readArchive, writeArchive } from './tar';

/** The files of DATA_DIR a backup holds: the database and the keys generated there. */
const DATABASE_FILE = 'app.sqlite';
const KEY_FILES = ['jwt-secret', 'encryption-key'] as const;
const MANIFEST = 'manifest.json';
const FORMAT = 'tax-portal-backup';

interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: 1;
  createdAt: string;
  appVersion: string;
  database: 'sqlite';
  /** The last migration the database had run (its schema version), and all of them in order. */
  schemaVersion: string;
  migrations: string[];
  files: Array<{ name: string; bytes: number; sha256: string }>;
  /** Keys given in the environment instead of DATA_DIR: not in the archive, to be kept beside it. */
  keysFromEnvironment: string[];
}

export class BackupError extends Error {}

// sqlite3 is loaded when a backup runs, as TypeORM loads it: the CLI's other paths never need it.
type Sqlite = typeof import('sqlite3');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sqlite = (): Sqlite => require('sqlite3') as Sqlite;

function open(file: string, mode: number): Promise<import('sqlite3').Database> {
  return new Promise((resolve, reject) => {
    const db = new (sqlite().Database)(file, mode, (e) => (e ? reject(e) : resolve(db)));
  });
}
function all<T>(db: import('sqlite3').Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => db.all(sql, params, (e, rows) => (e ? reject(e) : resolve(rows as T[]))));
}
function close(db: import('sqlite3').Database): Promise<void> {
  return new Promise((resolve, reject) => db.close((e) => (e ? reject(e) : resolve())));
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Migrations run on this database, oldest first, and whether it passes PRAGMA integrity_check. */
async function inspect(file: string): Promise<{ migrations: string[]; integrity: string }> {
  const db = await open(file, sqlite().OPEN_READONLY);
  try {
    const integrity = (await all<{ integrity_check: string }>(db, 'PRAGMA integrity_check'))
      .map((r) => r.integrity_check)
      .join('; ');
    const migrations = (await all<{ name: string }>(db, 'SELECT name FROM migrations ORDER BY timestamp, id')).map(
      (r) => r.name,
    );
    return { migrations, integrity };
  } finally {
    await close(db);
  }
}

/**
 * Writes a consistent snapshot of a running deployment's DATA_DIR into `file` (a new .tar.gz): the database
 * through SQLite's `VACUUM INTO` (one read transaction on a connection of its own, so the server keeps writing
 * and every write committed before it began is in the copy; never a copy of the live file and its WAL), and the
 * keys generated into DATA_DIR, with a manifest (schema version, time, checksums) first.
 */
export async function createBackup(options: {
  dataDir: string;
  file: string;
  keysFromEnvironment?: string[];
  now?: Date;
}): Promise<BackupManifest> {
  const { dataDir, file } = options;
  const database = join(dataDir, DATABASE_FILE);
  if (!existsSync(database)) throw new BackupError(`No database at ${database}: is DATA_DIR right?`);
  if (existsSync(file)) throw new BackupError(`${file} exists already: give a new file name`);
  const work = mkdtempSync(join(tmpdir(), 'tax-portal-backup-'));
  try {
    const snapshot = join(work, DATABASE_FILE);
    const live = await open(database, sqlite().OPEN_READONLY);
    try {
      await all(live, 'PRAGMA busy_timeout = 10000');
      await all(live, 'VACUUM INTO ?', [snapshot]);
    } finally {
      await close(live);
    }
    const { migrations, integrity } = await inspect(snapshot);
    if (integrity !== 'ok') throw new BackupError(`The snapshot fails PRAGMA integrity_check: ${integrity}`);
    const sources: Array<{ name: string; path: string }> = [{ name: DATABASE_FILE, path: snapshot }];
    for (const key of KEY_FILES)
      if (existsSync(join(dataDir, key))) sources.push({ name: key, path: join(dataDir, key) });
    const files: BackupManifest['files'] = [];
    for (const s of sources) files.push({ name: s.name, bytes: statSync(s.path).size, sha256: await sha256(s.path) });
    const manifest: BackupManifest = {
      format: FORMAT,
      formatVersion: 1,
      createdAt: (options.now ?? new Date()).toISOString(),
      appVersion: version,
      database: 'sqlite',
      schemaVersion: migrations[migrations.length - 1] ?? '',
      migrations,
      files,
      keysFromEnvironment: options.keysFromEnvironment ?? [],
    };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const entries: ArchiveEntry[] = [
      { name: MANIFEST, data: manifestBytes, size: manifestBytes.length },
      ...sources.map((s, i) => ({ name: s.name, path: s.path, size: files[i].bytes })),
    ];
    const partial = join(work, basename(file));
    await writeArchive(partial, entries);
    try {
      renameSync(partial, file);
    } catch {
      // Another file system: write it there directly (still never leaving a half-written file under its name).
      await writeArchive(`${file}.partial`, entries);
      renameSync(`${file}.partial`, file);
    }
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Restores an archive into an empty DATA_DIR: refuses a directory that holds a database or keys already, an
 * archive whose schema this code does not know (written by a newer release: `knownMigrations` are this code's),
 * a file whose checksum differs from the manifest's, and a database failing PRAGMA integrity_check. Nothing is
 * left in DATA_DIR unless all of it passed. The server then migrates the database on start, as after an upgrade.
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  knownMigrations: string[];
}): Promise<BackupManifest> {
  const { file, dataDir, knownMigrations } = options;
  const present = [DATABASE_FILE, `${DATABASE_FILE}-wal`, ...KEY_FILES].filter((f) => existsSync(join(dataDir, f)));
  if (present.length)
    throw new BackupError(
      `${dataDir} is not empty (${present.join(', ')}): restore into a new, empty DATA_DIR (or move these away first)`,
    );
  if (!existsSync(file)) throw new BackupError(`No archive at ${file}`);
  const work = mkdtempSync(join(dataDir, '.restore-'));
  try {
    const { entries, inMemory } = await readArchive(file, (name) =>
      name === MANIFEST ? undefined : createWriteStream(join(work, name), { mode: 0o600 }),
    );
    const manifestBytes = inMemory.get(MANIFEST);
    if (!manifestBytes) throw new BackupError('The archive has no manifest.json: not a backup of this product');
    const manifest = JSON.parse(manifestBytes.toString('utf8')) as BackupManifest;
    if (manifest.format !== FORMAT || manifest.formatVersion !== 1)
      throw new BackupError('The archive is not a backup of this product (or of a newer backup format)');
    const unknown = manifest.migrations.filter((m) => !knownMigrations.includes(m));
    if (unknown.length)
      throw new BackupError(
        `The archive's schema (${manifest.schemaVersion}) is newer than this release's (${knownMigrations[knownMigrations.length - 1]}): ` +
          `restore it with the release that wrote it (${manifest.appVersion}) or a later one. Unknown migrations: ${unknown.join(', ')}`,
      );
    for (const f of manifest.files) {
      const got = entries.find((e) => e.name === f.name);
      if (!got) throw new BackupError(`The archive lacks ${f.name}, which its manifest lists`);
      if (got.sha256 !== f.sha256 || got.size !== f.bytes)
        throw new BackupError(`${f.name} does not match its checksum in the manifest: the archive is damaged`);
    }
    const extra = entries.filter((e) => e.name !== MANIFEST && !manifest.files.some((f) => f.name === e.name));
    if (extra.length)
      throw new BackupError(
        `The archive holds files its manifest does not list: ${extra.map((e) => e.name).join(', ')}`,
      );
    const { integrity } = await inspect(join(work, DATABASE_FILE)).catch((e: Error) => ({ integrity: e.message }));
    if (integrity !== 'ok') throw new BackupError(`The database fails PRAGMA integrity_check: ${integrity}`);
    for (const f of manifest.files) renameSync(join(work, f.name), join(dataDir, f.name));
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** This code's migrations, oldest first, by the class names TypeORM records (the migration files' exports). */
export function knownMigrations(): string[] {
  const dir = join(__dirname, '..', 'database', 'migrations');
  return readdirSync(dir)
    .filter((f) => /^\d+-.*\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
    .sort()
    .flatMap((f) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const exported = require(join(dir, f)) as Record<string, unknown>;
      return Object.values(exported)
        .filter((v): v is { name: string } => typeof v === 'function')
        .map((v) => v.name);
    });
}

type FixtureValue = string | number | boolean | null | { base64: string };

export interface FixtureConnection {
  engine: 'sqlite' | 'postgres';
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export interface FixtureData {
  tables: Array<{ name: string; columns: string[]; rows: FixtureValue[][] }>;
}

export interface FixtureManifest {
  commit: string;
  subject: string;
  release: string;
  lastMigration: string;
  migrations: string[];
  generatedAt: string;
  testOnlyKeys: { JWT_SECRET: string; ENCRYPTION_KEY: string };
  accounts: { password: string; admin: string; totp: { email: string; secret: string } };
  session: { id: string; refreshToken: string };
  rowCounts: Record<'sqlite' | 'postgres', Record<string, number>>;
}

export interface UpgradeFixture {
  dir: string;
  manifest: FixtureManifest;
  data: FixtureData;
  schema(engine: 'sqlite' | 'postgres'): string;
}

export const FIXTURES_DIR: string;
export function listFixtures(): Array<{ name: string; commit: string; lastMigration: string }>;
export function readFixture(name: string): UpgradeFixture;
export function openSqlite(file: string): Promise<FixtureConnection>;
export function openPostgres(url: string): Promise<FixtureConnection>;
export function loadSchema(conn: FixtureConnection, sql: string): Promise<void>;
export function loadRows(conn: FixtureConnection, data: FixtureData, shiftMs?: number): Promise<void>;
export function readRows(conn: FixtureConnection, table: string, columns: string[]): Promise<FixtureValue[][]>;
export function dataTables(conn: FixtureConnection): Promise<string[]>;
export function rowCounts(conn: FixtureConnection, tables: string[]): Promise<Record<string, number>>;

import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';

export type Fingerprint = Record<string, string>;

/**
 * Tables that record a refused sign-in by design, so a refusal that writes them changed nothing a user stored: the
 * sign-in counters that lock an attacked account, the insights' counts and a member's sign-in history.
 */
const REFUSED_SIGN_IN_RECORDS = new Set(['sign_in_counters', 'sign_in_history', 'insights_daily', 'insights_failures']);

/** The files of DATA_DIR, names and sizes (the SQLite files themselves excepted), as one hash. */
function filesDigest(dataDir: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!/^app\.sqlite/.test(entry.name)) files.push(`${relative(dataDir, path)}:${statSync(path).size}`);
    }
  };
  walk(dataDir);
  return createHash('sha1').update(files.sort().join('\n')).digest('hex');
}

/**
 * A cheap picture of everything the application stores: per table, its row count and a hash of its rows,
 * and the files of DATA_DIR. Two equal fingerprints mean nothing was written, added or removed.
 *
 * Reading every table after every request is the slow part, so `current()` re-reads the tables only when
 * the database says something was written since the last reading: SQLite's total_changes() on the
 * application's one connection, or on PostgreSQL the next transaction id (only writing transactions take
 * one); `full()` always re-reads them (to check what those counters cannot see).
 */
export class Fingerprints {
  private last: { tables: Fingerprint; changes: number } | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly dataDir: string,
  ) {}

  private get postgres(): boolean {
    return this.db.options.type === 'postgres';
  }

  private async changes(): Promise<number> {
    const sql = this.postgres
      ? 'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS n'
      : 'SELECT total_changes() AS n';
    const [row] = (await this.db.query(sql)) as Array<{ n: number | string }>;
    return Number(row.n);
  }

  private async tables(): Promise<Fingerprint> {
    const sql = this.postgres
      ? `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`
      : `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`;
    const names = (await this.db.query(sql)) as Array<{ name: string }>;
    const out: Fingerprint = {};
    for (const { name } of names) {
      if (REFUSED_SIGN_IN_RECORDS.has(name)) continue;
      // The audit trail records refused sign-ins by design: those events are not a change.
      const where = name === 'audit_events' ? ` WHERE "type" NOT IN ('SIGN_IN_FAILED', 'SIGN_IN_LOCKED')` : '';
      const rows = (await this.db.query(`SELECT * FROM "${name.replace(/"/g, '""')}"${where}`)) as unknown[];
      // PostgreSQL returns rows in no fixed order: compare them sorted.
      const text = rows.map((r) => JSON.stringify(r)).sort();
      out[`table ${name}`] = `${rows.length} rows, ${createHash('sha1').update(text.join('\n')).digest('hex')}`;
    }
    return out;
  }

  async full(): Promise<Fingerprint> {
    const changes = await this.changes();
    this.last = { tables: await this.tables(), changes };
    return { ...this.last.tables, files: filesDigest(this.dataDir) };
  }

  async current(): Promise<Fingerprint> {
    if (!this.last || (await this.changes()) !== this.last.changes) return this.full();
    return { ...this.last.tables, files: filesDigest(this.dataDir) };
  }
}

/** The keys whose values differ between two fingerprints. */
export function changed(before: Fingerprint, after: Fingerprint): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]);
}

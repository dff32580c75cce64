import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import * as sqlite3 from 'sqlite3';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  file: string;
}

/**
 * Waits until the server has delivered every message it has stored (the outbox table of DATA_DIR/app.sqlite
 * holds none unsent), polling every 20 ms for at most `timeoutMs`. The server answers before it delivers.
 */
export async function outboxDelivered(dataDir: string, timeoutMs = 5_000): Promise<void> {
  const postgres = postgresOf.get(dataDir);
  if (postgres) return outboxDeliveredOnPostgres(postgres, timeoutMs);
  const file = join(dataDir, 'app.sqlite');
  if (!existsSync(file)) return;
  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  const pending = () =>
    new Promise<number>((resolve) =>
      db.get('SELECT COUNT(*) AS n FROM mail_outbox WHERE sentAt IS NULL', (err: Error | null, row?: { n: number }) =>
        resolve(err ? 0 : Number(row?.n ?? 0)),
      ),
    );
  try {
    const until = Date.now() + timeoutMs;
    while ((await pending()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  } finally {
    await new Promise((r) => db.close(() => r(undefined)));
  }
}

/** Apps on PostgreSQL (E2E_DATABASE=postgres): their DATA_DIR and database, so the outbox is read where it lives. */
const postgresOf = new Map<string, string>();
export function useOutboxDatabase(dataDir: string, databaseUrl: string | undefined): void {
  if (databaseUrl) postgresOf.set(dataDir, databaseUrl);
  else postgresOf.delete(dataDir);
}

async function outboxDeliveredOnPostgres(databaseUrl: string, timeoutMs: number): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const until = Date.now() + timeoutMs;
    const pending = async () =>
      Number((await client.query('SELECT COUNT(*) AS n FROM mail_outbox WHERE "sentAt" IS NULL')).rows[0].n);
    while ((await pending()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  } finally {
    await client.end();
  }
}

/** Every message in DATA_DIR/outbox, oldest first, parsed (once the server has delivered what it stored). */
export async function readOutbox(dataDir: string): Promise<ReceivedMail[]> {
  await outboxDelivered(dataDir);
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(readFileSync(join(dir, file)));
      const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
      return { to, subject: parsed.subject ?? '', text: parsed.text ?? '', file };
    }),
  );
}

/** The newest message to this address, or undefined. */
export async function lastMailTo(dataDir: string, address: string): Promise<ReceivedMail | undefined> {
  return (await readOutbox(dataDir)).filter((m) => m.to.toLowerCase().includes(address.toLowerCase())).pop();
}

export function linkIn(mail: ReceivedMail | undefined): string | undefined {
  return mail?.text.match(/https?:\/\/\S+/)?.[0];
}

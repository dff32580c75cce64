import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  file: string;
}

/** Every message in DATA_DIR/outbox, oldest first, parsed. */
export async function readOutbox(dataDir: string): Promise<ReceivedMail[]> {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
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

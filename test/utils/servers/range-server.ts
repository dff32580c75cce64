import { hash } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** How the loopback range server behaves: answers, answers too late, or fails. */
export type RangeServerMode = 'up' | 'slow' | 'error';

export interface RangeServer {
  url: string;
  mode: RangeServerMode;
  /** The paths asked, to prove only five hex characters of the hash leave. */
  requests: IncomingMessage[];
  close(): Promise<void>;
}

/**
 * A k-anonymity range API (as api.pwnedpasswords.com answers `GET /range/{5 hex}`) on a free loopback port,
 * knowing only the `breached` passwords, with padding lines of count 0 as the real one sends.
 */
export async function startRangeServer(breached: string[], slowMs = 5_000): Promise<RangeServer> {
  const hashes = breached.map((p) => hash('sha1', p, 'hex').toUpperCase());
  const state: RangeServer = { url: '', mode: 'up', requests: [], close: async () => undefined };
  const pending = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    state.requests.push(req);
    const prefix = /^\/range\/([0-9A-F]{5})$/i.exec(req.url ?? '')?.[1]?.toUpperCase();
    if (state.mode === 'error' || !prefix) {
      res.writeHead(state.mode === 'error' ? 503 : 400).end();
      return;
    }
    const lines = hashes.filter((h) => h.startsWith(prefix)).map((h) => `${h.slice(5)}:42`);
    lines.push(`${'0'.repeat(35)}:0`, `${'F'.repeat(35)}:0`);
    const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
    if (state.mode === 'slow') {
      const timer = setTimeout(() => (pending.delete(timer), answer()), slowMs);
      pending.add(timer);
    } else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => {
    for (const timer of pending) clearTimeout(timer);
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

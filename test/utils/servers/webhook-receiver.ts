import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status and body, a redirect, never (hangs), or a body too big to read. */
export type Answer =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hang: true }
  | { oversized: true };

/**
 * A customer's receiver on loopback: records every request (per path) and answers by the script given for its
 * path (one answer per request, the last repeated; 204 when none).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private readonly hanging: ServerResponse[] = [];
  private server?: Server;
  url = '';

  /** Listens on loopback, on `port` (default: any free one). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.requests.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        const script = this.scripts.get(path) ?? [];
        const answer = script.length > 1 ? script.shift()! : (script[0] ?? { status: 204 });
        if ('hang' in answer) {
          this.hanging.push(res);
          return;
        }
        if ('oversized' in answer) {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(Buffer.alloc(2 * 1024 * 1024, 'x'));
          return;
        }
        const send = () => {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
          res.end(answer.body ?? '');
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Scripts the answers to requests on `path`. */
  answer(path: string, ...answers: Answer[]): string {
    this.scripts.set(path, answers);
    return `${this.url}${path}`;
  }

  on(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Waits until `path` has received at least `count` requests (or fails after `timeoutMs`). */
  async waitFor(path: string, count = 1, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    const until = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      if (Date.now() > until) throw new Error(`${path} received ${this.on(path).length} of ${count} requests`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.on(path);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((r) => server.close(() => r(undefined)));
  }
}

/** Polls `read` until `done` holds for its value (or fails after `timeoutMs`). */
export async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`still not there: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

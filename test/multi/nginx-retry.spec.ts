import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { startNginx } from '../utils/servers/rolling-restart';

/**
 * The shipped deploy/nginx.conf in front of two stand-in instances, one of which has lost its database (it answers
 * 503 SERVICE_UNAVAILABLE with Retry-After, as the product does): what is safe to retry reaches the other instance,
 * and a write is never sent twice.
 */
interface Instance {
  port: number;
  /** What reached this instance, as "METHOD /path". */
  seen: string[];
  unavailable: boolean;
  server: Server;
}

async function instance(unavailable: boolean): Promise<Instance> {
  const seen: string[] = [];
  const self = { seen, unavailable } as Instance;
  self.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      // nginx's start-up check, and any health probe, answers 200.
      if (req.url === '/api/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      seen.push(`${req.method} ${req.url}`);
      if (self.unavailable) {
        res
          .writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
          .end(JSON.stringify({ success: false, statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'briefly' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ port: self.port }));
    });
  });
  await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
  self.port = (self.server.address() as AddressInfo).port;
  return self;
}

describe('deploy/nginx.conf when one instance answers 503', () => {
  let a: Instance;
  let b: Instance;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  beforeAll(async () => {
    a = await instance(true);
    b = await instance(false);
    nginx = await startNginx([a.port, b.port]);
  });
  afterAll(async () => {
    await nginx?.stop();
    a?.server.close();
    b?.server.close();
  });
  beforeEach(() => {
    a.seen.length = 0;
    b.seen.length = 0;
  });

  it('every read is answered by the instance that can, whichever one nginx tried first', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${nginx.base}/api/users?i=${i}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ port: b.port });
    }
    expect(b.seen).toHaveLength(10);
    // Round robin sends about half to the unavailable instance first: each of those was retried, once.
    expect(a.seen.length).toBeGreaterThan(0);
    expect(a.seen.length).toBeLessThanOrEqual(10);
  });

  it('a write reaches exactly one instance: the one that refused it answers 503 to the client, never retried', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${nginx.base}/api/user-groups?i=${i}`, { method: 'POST', body: '{}' });
      statuses.push(res.status);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBe('2');
    }
    expect(a.seen.length + b.seen.length).toBe(10);
    expect(statuses.filter((s) => s === 503)).toHaveLength(a.seen.length);
    expect(statuses.filter((s) => s === 200)).toHaveLength(b.seen.length);
  });

  it('when both answer 503, the client gets the 503 with its Retry-After and body after one retry', async () => {
    b.unavailable = true;
    try {
      const res = await fetch(`${nginx.base}/api/users`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(a.seen.length + b.seen.length).toBe(2);
    } finally {
      b.unavailable = false;
    }
  });
});

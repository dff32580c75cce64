import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pinoHttp, { Options } from 'pino-http';
import { AppConfig } from '../config/env.validation';
import { loggerParams } from './logging.module';

type Line = Record<string, unknown> & { req?: Record<string, unknown>; res?: { status: number } };

/** A server logging through the product's request logger into `lines`; `user` plays the JWT guard's part. */
async function serverLoggingAt(logLevel: AppConfig['logLevel'], lines: Line[]) {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
      done();
    },
  });
  // JSON lines, as without a terminal (a terminal running the tests would otherwise get pretty text).
  const options = loggerParams({ logLevel } as AppConfig, false).pinoHttp as Options;
  const log = pinoHttp(options, stream);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    log(req, res);
    if (req.headers['x-user']) Object.assign(req, { user: { id: 7, sessionId: 'session-7' } });
    res.statusCode = Number(req.headers['x-status'] ?? 200);
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('request log lines (issue 15)', () => {
  it('one JSON line per request: id, method, path without its query, status, and the caller once known', async () => {
    const lines: Line[] = [];
    const s = await serverLoggingAt('info', lines);
    try {
      const res = await fetch(`${s.base}/api/users/current?token=secret-in-query`, {
        headers: { 'x-request-id': 'req-1', authorization: 'Bearer secret-token', 'x-user': '1' },
      });
      expect(res.headers.get('x-request-id')).toBe('req-1');
      await fetch(`${s.base}/api/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
      await new Promise((r) => setTimeout(r, 50));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({
        level: 'info',
        req: { id: 'req-1', method: 'GET', path: '/api/users/current', ip: expect.stringMatching(/127\.0\.0\.1$/) },
        res: { status: 200 },
        userId: 7,
        sessionId: 'session-7',
        msg: 'GET /api/users/current 200',
      });
      // An anonymous call has no caller fields; an id that does not look like one is replaced.
      expect(lines[1]).not.toHaveProperty('userId');
      expect(lines[1].req?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(lines)).not.toMatch(/secret/);
    } finally {
      await s.close();
    }
  });

  it('honours LOG_LEVEL: at error, successes and client errors are left out and server errors are written', async () => {
    const lines: Line[] = [];
    const s = await serverLoggingAt('error', lines);
    try {
      for (const status of ['200', '404', '500'])
        await fetch(`${s.base}/x`, { headers: { 'x-status': status, 'x-user': '1' } });
      await new Promise((r) => setTimeout(r, 50));
      expect(lines.map((l) => [l.level, l.res?.status, l.userId])).toEqual([['error', 500, 7]]);
    } finally {
      await s.close();
    }
  });
});

import { Controller, Get, Global, INestApplication, Logger as NestLogger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Logger } from 'nestjs-pino';
import { Logger as Pino, pino } from 'pino';
import { EngineState } from '../web/engine-state';
import { AllExceptionsFilter } from '../web/filters/all-exceptions.filter';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import {
  LoggingModule,
  loggerOptions,
  REDACTED_PATHS,
  requestLogging,
  rootLogger,
  ROOT_LOGGER,
} from './logging.module';

type Line = Record<string, unknown> & { req?: Record<string, unknown>; res?: { status: number } };

/** Routes that play a request's part: the JWT guard's caller (`x-user`), a line logged inside, a status. */
@Controller()
class ProbeController {
  private readonly logger = new NestLogger('Probe');

  @Get('api/users/current')
  current(): object {
    return {};
  }

  @Get('inside')
  inside(): object {
    this.logger.log('handled inside');
    return {};
  }

  @Get('fails')
  fails(): never {
    throw new Error('a bug');
  }

  @Get('database-gone')
  databaseGone(): never {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
  }
}

/**
 * The LoggingModule in a Nest application of its own, its one pino logger writing JSON lines into `lines`, with
 * the request log mounted first as configureApp mounts it. `x-user` puts a caller on the request, as the guard does.
 */
async function appLoggingAt(logLevel: AppConfig['logLevel'], lines: Line[]) {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
      done();
    },
  });
  @Global()
  @Module({ providers: [{ provide: APP_CONFIG, useValue: { logLevel } }], exports: [APP_CONFIG] })
  class ConfigStub {}
  // JSON lines, as without a terminal (a terminal running the tests would otherwise get pretty text).
  const root = pino(loggerOptions({ logLevel } as AppConfig, false), stream);
  const moduleRef = await Test.createTestingModule({
    imports: [ConfigStub, LoggingModule],
    controllers: [ProbeController],
  })
    .overrideProvider(ROOT_LOGGER)
    .useValue(root)
    .compile();
  const app: INestApplication = moduleRef.createNestApplication({ bufferLogs: true });
  app.useLogger(app.get(Logger));
  const engines = new EngineState();
  app.useGlobalFilters(new AllExceptionsFilter(engines));
  app.use(requestLogging(app.get<Pino>(ROOT_LOGGER)));
  app.use((req: { headers: Record<string, string>; user?: object }, _res: unknown, next: () => void) => {
    if (req.headers['x-user']) req.user = { id: 7, sessionId: 'session-7' };
    next();
  });
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  return {
    base: base.replace('[::1]', '127.0.0.1'),
    root,
    engines,
    close: () => {
      engines.onApplicationShutdown();
      return app.close();
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

/** The first line `match` accepts, waited for (a line is written once its response has closed). */
async function lineWhere(lines: Line[], match: (l: Line) => boolean): Promise<Line | undefined> {
  for (let waited = 0; waited < 2000; waited += 10) {
    const line = lines.find(match);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 10));
  }
  return undefined;
}

describe('request log lines', () => {
  it('one JSON line per request: id, method, path without its query, status, and the caller once known', async () => {
    const lines: Line[] = [];
    const s = await appLoggingAt('info', lines);
    try {
      const res = await fetch(`${s.base}/api/users/current?token=secret-in-query`, {
        headers: { 'x-request-id': 'req-1', authorization: 'Bearer secret-token', 'x-user': '1' },
      });
      expect(res.headers.get('x-request-id')).toBe('req-1');
      const other = await fetch(`${s.base}/api/users/current`, { headers: { 'x-request-id': 'bad id with spaces' } });
      await settle();
      const requestLines = lines.filter((l) => l.req);
      expect(requestLines).toHaveLength(2);
      expect(requestLines[0]).toMatchObject({
        level: 'info',
        req: { id: 'req-1', method: 'GET', path: '/api/users/current', ip: expect.stringMatching(/127\.0\.0\.1$/) },
        res: { status: 200 },
        responseTime: expect.any(Number),
        userId: 7,
        sessionId: 'session-7',
        msg: 'GET /api/users/current 200',
      });
      // An anonymous call has no caller fields; an id that does not look like one is replaced, and answered.
      expect(requestLines[1]).not.toHaveProperty('userId');
      expect(requestLines[1].req?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(other.headers.get('x-request-id')).toBe(requestLines[1].req?.id);
      expect(JSON.stringify(lines)).not.toMatch(/secret/);
    } finally {
      await s.close();
    }
  });

  it('the closing line goes out unredacted because it holds no field REDACTED_PATHS names; other lines are redacted', async () => {
    const lines: Line[] = [];
    const s = await appLoggingAt('info', lines);
    try {
      await fetch(`${s.base}/api/users/current`, { headers: { authorization: 'Bearer a-token', 'x-user': '1' } });
      const closing = await lineWhere(lines, (l) => l.req !== undefined && l.res !== undefined);
      // Every key of the line, at any depth: none is a header or a field the redaction would have blanked.
      const keys = (value: unknown): string[] =>
        value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keys(v)]) : [];
      const redactedNames = REDACTED_PATHS.map((p) =>
        p
          .split('.')
          .pop()!
          .replace(/^headers\[|["\]]/g, ''),
      );
      expect(keys(closing).filter((k) => redactedNames.includes(k) || k === 'headers')).toEqual([]);
      // A line of the application's own still goes through the redaction.
      s.root.info({ body: { password: 'hunter2' }, session: { token: 'a-token' } }, 'with secrets');
      const own = await lineWhere(lines, (l) => l.msg === 'with secrets');
      expect(own).toMatchObject({ body: { password: '[redacted]' }, session: { token: '[redacted]' } });
    } finally {
      await s.close();
    }
  });

  it("a server error's line carries its request (the id the client got); its child logger is made only then", async () => {
    const lines: Line[] = [];
    const s = await appLoggingAt('info', lines);
    try {
      const child = jest.spyOn(s.root, 'child');
      await fetch(`${s.base}/api/users/current`, { headers: { 'x-request-id': 'quiet-1' } });
      await fetch(`${s.base}/inside`, { headers: { 'x-request-id': 'inside-1' } });
      expect(await lineWhere(lines, (l) => l.msg === 'GET /inside 200')).toMatchObject({ req: { id: 'inside-1' } });
      // Neither a quiet request nor a line from Nest's Logger ('handled inside') makes a child logger: no logger is
      // bound per request as the context of Nest's Logger (no AsyncLocalStorage, docs/decisions/perf-request-pipeline.md).
      expect(child).not.toHaveBeenCalled();
      const failed = await fetch(`${s.base}/fails`, { headers: { 'x-request-id': 'fails-1' } });
      expect(failed.status).toBe(500);
      const error = await lineWhere(lines, (l) => l.context === 'Exceptions');
      expect(error).toMatchObject({ level: 'error', req: { id: 'fails-1', method: 'GET', path: '/fails' } });
      expect(String(error?.msg)).toMatch(/Error: a bug/);
      expect(child).toHaveBeenCalledTimes(1);
      expect(await lineWhere(lines, (l) => l.msg === 'GET /fails 500')).toMatchObject({
        level: 'error',
        req: { id: 'fails-1' },
      });
    } finally {
      await s.close();
    }
  });

  it('honours LOG_LEVEL: at error, successes and client errors are left out and server errors are written', async () => {
    const lines: Line[] = [];
    const s = await appLoggingAt('error', lines);
    try {
      await fetch(`${s.base}/api/users/current`, { headers: { 'x-user': '1' } });
      await fetch(`${s.base}/nowhere`, { headers: { 'x-user': '1' } });
      await fetch(`${s.base}/fails`, { headers: { 'x-user': '1' } });
      await settle();
      expect(lines.filter((l) => l.req && l.res).map((l) => [l.level, l.res?.status, l.userId])).toEqual([
        ['error', 500, 7],
      ]);
    } finally {
      await s.close();
    }
  });

  it('an unreachable database: each refused request an info line (503), the outage one warning, no error line', async () => {
    const lines: Line[] = [];
    const s = await appLoggingAt('info', lines);
    // The EngineState's own lines, as it writes them (Nest's Logger; the request lines are pino's).
    const warnings: string[] = [];
    jest
      .spyOn((s.engines as unknown as { logger: NestLogger }).logger, 'warn')
      .mockImplementation((...args: unknown[]) => void warnings.push(String(args[0])));
    try {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${s.base}/database-gone`);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('2');
      }
      await settle();
      const requestLines = lines.filter((l) => l.req && l.res);
      expect(requestLines.map((l) => [l.level, l.res?.status])).toEqual(Array(5).fill(['info', 503]));
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
      expect(warnings).toEqual(['database unreachable: connect ECONNREFUSED 127.0.0.1:5432']);
    } finally {
      await s.close();
    }
  });
});

describe('the root logger', () => {
  it('has written a JSON line when the call that logs it returns: no line waits in a buffer for a crash to lose', () => {
    const dir = mkdtempSync(join(tmpdir(), 'root-logger-'));
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'w');
    try {
      const log = rootLogger({ logLevel: 'info' } as AppConfig, fd);
      log.info({ userId: 7 }, 'first');
      log.debug('below the level');
      log.warn({ attempt: { password: 'not-to-be-seen' } }, 'second');
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
      expect(lines).toEqual([
        expect.objectContaining({ level: 'info', userId: 7, msg: 'first' }),
        expect.objectContaining({ level: 'warn', attempt: { password: '[redacted]' }, msg: 'second' }),
      ]);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

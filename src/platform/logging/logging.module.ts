import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import { Logger, LoggerOptions, pino, stdTimeFunctions } from 'pino';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { AuthUser } from '../web/auth-user';

/** Never written: credentials in headers, and any field that carries a password or a token. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.challengeToken',
  '*.mfaToken',
  '*.recoveryCode',
  '*.secret',
];

/** How the request log writes a request's path: its route's secret parameters blanked (platform/web/http/secret-paths.ts). */
const LOGGED_PATH = Symbol('loggedPath');

type Req = IncomingMessage & {
  id?: string;
  user?: AuthUser;
  originalUrl?: string;
  ip?: string;
  [LOGGED_PATH]?: (path: string) => string;
};

/** A caller's X-Request-Id is kept when it looks like an id; otherwise a new one is made. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * The path as the logs write it: without its query (queries carry tokens: the socket's handshake, e-mailed links,
 * an SSO round trip's state and code) and with the secrets a route takes in its path blanked.
 */
const pathOf = (req: Req) => {
  const path = (req.originalUrl ?? req.url ?? '').split('?')[0];
  return req[LOGGED_PATH] ? req[LOGGED_PATH](path) : path;
};

/** pino's options for the one logger of the application: LOG_LEVEL, JSON lines or, on a terminal, pretty text. */
export function loggerOptions(
  config: AppConfig,
  pretty = config.logLevel !== 'silent' && process.stdout.isTTY === true,
): LoggerOptions {
  return {
    level: config.logLevel,
    base: undefined,
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Four fields of the request, read from it directly (the client address by the one rule, behind a proxy too);
    // the status of the response.
    serializers: {
      req: (req: Req) => ({ id: req.id, method: req.method, path: pathOf(req), ip: req.ip ?? null }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    // Level names ("info"), not numbers, in the JSON; pino-pretty colours the numbers itself.
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } }
      : { formatters: { level: (label: string) => ({ level: label }) } }),
  };
}

/**
 * The application's one logger. Its JSON lines go to standard output with one write(2) each, on the event loop, as
 * node's own `process.stdout` writes to a pipe or a file on Linux: no trip to libuv's thread pool a line (the pool
 * that runs the sign-ins' hashes and SQLite's statements), and a line is with the kernel before the next request is
 * served, so a crash (`kill -9`) loses none of them. A terminal's pretty text goes through pino-pretty's worker.
 * `fd`: another file descriptor to write to (a test's file).
 */
export function rootLogger(config: AppConfig, fd = 1): Logger {
  const options = loggerOptions(config, fd === 1 ? undefined : false);
  return options.transport ? pino(options) : pino(options, pino.destination({ dest: fd, sync: true }));
}

type LogMethod = (...args: unknown[]) => void;

/**
 * The request's own logger (`req.log`), for lines that belong to a request, such as the exception filter's line for
 * a server error: its child logger carrying the request is made on the first such line only. Most requests log
 * nothing but their closing line, and a child per request is a measurable share of a refresh's CPU
 * (docs/decisions/).
 */
class RequestContextLogger {
  private made?: Logger;

  constructor(
    private readonly root: Logger,
    private readonly req: Req,
  ) {}

  private get log(): Logger {
    return (this.made ??= this.root.child({ req: this.req }));
  }

  child(bindings: Record<string, unknown>): Logger {
    return this.log.child(bindings);
  }
}
for (const level of ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const) {
  Object.defineProperty(RequestContextLogger.prototype, level, {
    value(this: { log: Logger }, ...args: unknown[]) {
      (this.log[level] as LogMethod).apply(this.log, args);
    },
  });
}

/** Told of every response as it ends (finished or cut off), with its time in seconds: the HTTP metrics. */
export type ResponseObserver = (req: Req, res: ServerResponse, seconds: number) => void;

/**
 * The request log, first of the application's middlewares (configureApp): every request gets an id (the
 * caller's X-Request-Id when it looks like one), answered in X-Request-Id, and ends in one line with its id,
 * method, path, status and time and, once the guard has authenticated the caller, the user id and the session id
 * (the access token's `sid`); 5xx at error (503 at info), 4xx at warn, the rest at info, each written only when LOG_LEVEL
 * lets it through; `observe` (the HTTP metrics) is called from the same listener. `req.log` logs a line that carries
 * the request (the exception filter's line for a server error). `loggedPath` blanks the secrets of a path (a
 * one-time link's token) wherever a line writes the request.
 */
export function requestLogging(root: Logger, observe?: ResponseObserver, loggedPath?: (path: string) => string) {
  // The closing line holds only what the serializers above and the fields below write (an id, a method, a path with
  // its secrets blanked, an address, a status, a time, a user and a session id): never a header, a body or a token.
  // So it goes out without REDACTED_PATHS, whose wildcards cost a line four times its writing (about 21 µs beside
  // 5 µs), a few per cent of a signed-in call at the default LOG_LEVEL. Every other line is still redacted.
  const closing = root.child({}, { redact: [] });
  return (req: Req, res: ServerResponse, next: () => void): void => {
    req.id = requestId(req, res);
    if (loggedPath) req[LOGGED_PATH] = loggedPath;
    const start = performance.now();
    // The request's own logger; the stand-in makes its child logger when first used.
    (req as unknown as { log: unknown }).log = new RequestContextLogger(root, req);
    res.once('close', () => {
      const ms = performance.now() - start;
      observe?.(req, res, ms / 1000);
      const status = res.statusCode;
      // A 503 is this instance saying "not now" (an engine unreachable, readiness while draining): the EngineState
      // logs an outage once, so each refused request's line stays at info.
      const level = status === 503 ? 'info' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!closing.isLevelEnabled(level)) return;
      const user = req.user;
      closing[level](
        {
          req,
          res,
          responseTime: Math.round(ms),
          ...(user ? { userId: user.id, sessionId: user.sessionId } : undefined),
        },
        `${req.method} ${pathOf(req)} ${status}`,
      );
    });
    next();
  };
}

/** The application's one pino logger; nestjs-pino's Logger (Nest's own lines) and the request log write through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Module({
  imports: [
    LoggerModule.forRootAsync({
      providers: [{ provide: ROOT_LOGGER, inject: [APP_CONFIG], useFactory: rootLogger }],
      inject: [ROOT_LOGGER],
      // nestjs-pino gives Nest's Logger (the application's own lines) the one pino logger, and nothing per request:
      // `useExisting` keeps its request logger (pino-http) out, and no route gets its middleware, which bound every
      // request's logger as the context of Nest's Logger lines through AsyncLocalStorage. On Node 20 that storage
      // hooks every promise the process makes, a measurable share of a refresh's throughput (docs/decisions/); the
      // request log and the exception filter carry the request themselves.
      useFactory: (root: Logger): Params => ({ pinoHttp: { logger: root }, useExisting: true, forRoutes: [] }),
    }),
  ],
})
export class LoggingModule {}

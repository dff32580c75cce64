import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';
import { APP_CONFIG } from '../config/app-config.module';
import { AppConfig } from '../config/env.validation';
import { AuthUser } from '../common/auth-user';

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

type Req = IncomingMessage & { id?: string; user?: AuthUser; originalUrl?: string };

/** A caller's X-Request-Id is kept when it looks like an id; otherwise a new one is made. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The path without its query: queries can carry tokens (the socket's handshake, e-mailed links). */
const pathOf = (req: Req) => (req.originalUrl ?? req.url ?? '').split('?')[0];

/**
 * pino through nestjs-pino: one JSON line per event on stdout (pretty, single-line text only when stdout is
 * a terminal), at LOG_LEVEL. Every request ends in one line with its id, method, path, status and time, and,
 * once the guard has authenticated the caller, the user id and the session id (the access token's `sid`).
 * Lines logged while a request is handled carry its id too.
 */
export function loggerParams(
  config: AppConfig,
  pretty = config.logLevel !== 'silent' && process.stdout.isTTY === true,
): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      base: undefined,
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      genReqId: requestId,
      // Read when the response has finished, after the JWT guard has put the caller on the request (and once
      // as the request starts, when there is no caller yet: nothing, so that no extra child logger is made).
      customProps: (req) => {
        const user = (req as Req).user;
        return (user ? { userId: user.id, sessionId: user.sessionId } : undefined) as object;
      },
      // The serializers read the request and the response themselves: pino-http's wrapping first copies every
      // header into an object of its own, on every request, only for these four fields to be kept.
      wrapSerializers: false,
      serializers: {
        req: (req: Req) => ({
          id: req.id,
          method: req.method,
          path: pathOf(req),
          ip: req.socket?.remoteAddress,
        }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      // 'silent' when LOG_LEVEL leaves the line out: pino-http then skips the line's bindings altogether.
      customLogLevel: (req, res, err) => {
        const level = err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
        return (req as Req & { log?: { isLevelEnabled(l: string): boolean } }).log?.isLevelEnabled(level) === false
          ? 'silent'
          : level;
      },
      customSuccessMessage: (req, res) => `${req.method} ${pathOf(req as Req)} ${res.statusCode}`,
      customErrorMessage: (req, res) => `${req.method} ${pathOf(req as Req)} ${res.statusCode}`,
      // Level names ("info"), not numbers, in the JSON; pino-pretty colours the numbers itself.
      ...(pretty
        ? { transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } }
        : { formatters: { level: (label: string) => ({ level: label }) } }),
    },
  } as Params;
}

@Module({
  imports: [
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => loggerParams(config) }),
  ],
})
export class LoggingModule {}

import { DatabaseBusyError } from '../database/sqlite/serialiser';

/** The engines underneath the product whose absence is an outage, not a bug. */
export const ENGINES = ['database', 'redis'] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * Socket errors of a connection to the engine: refused, dropped or never answered. Counted only for a socket's own
 * calls (connect, read, write, name lookup), at the top of the error or inside TypeORM's wrapper: a failed `fetch`
 * of a customer's URL carries the same codes inside its `cause`, and is no engine's outage.
 */
const NETWORK_SYSCALLS = new Set(['connect', 'read', 'write', 'getaddrinfo']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * PostgreSQL's SQLSTATEs of a server that cannot serve this connection: class 08 (connection exception),
 * 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections), and 55000 when
 * the database does not accept connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`, a restore in progress).
 */
function postgresUnavailable(code: string, message: string): boolean {
  return (
    code.startsWith('08') ||
    /^57P0[123]$/.test(code) ||
    code === '53300' ||
    (code === '55000' && /not currently accepting connections/i.test(message))
  );
}

/** The pg driver's and pg-pool's own texts for a connection that ended or never came. */
const POSTGRES_CONNECTION_TEXTS =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/i;

/**
 * sqlite3's codes of a database file this process cannot use for now: locked by another connection past the wait
 * (BUSY, LOCKED), unreadable (CANTOPEN, IOERR), or a connection already closed (the server is stopping).
 */
function sqliteUnavailable(code: string, message: string): boolean {
  return (
    code === 'SQLITE_BUSY' ||
    code === 'SQLITE_LOCKED' ||
    code === 'SQLITE_CANTOPEN' ||
    code.startsWith('SQLITE_IOERR') ||
    (code === 'SQLITE_MISUSE' && /database (handle )?is closed/i.test(message))
  );
}

/** ioredis's texts for a command that could not reach Redis, and Redis's replies that mean "not now". */
const REDIS_TEXTS =
  /^(Stream isn't writeable|Connection is closed|Reached the max retries per request limit|LOADING |MASTERDOWN |TRYAGAIN |CLUSTERDOWN )/;

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  syscall?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

/**
 * Which engine an error says cannot be reached, or undefined for any other error (a bug, bad input). The one
 * classifier of the product: the exception filter answers 503 SERVICE_UNAVAILABLE for these and 500 for the rest,
 * and every user of an engine reports them to the EngineState. Looks through TypeORM's QueryFailedError
 * (`driverError`) and an AggregateError's `errors` (a connection tried on several addresses).
 */
export function unavailableEngine(error: unknown, depth = 0): Engine | undefined {
  if (!error || typeof error !== 'object' || depth > 3) return undefined;
  if (error instanceof DatabaseBusyError) return 'database';
  const e = error as ErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  const name = typeof e.name === 'string' ? e.name : '';
  if (name === 'MaxRetriesPerRequestError' || REDIS_TEXTS.test(message)) return 'redis';
  if (/^SQLITE_/.test(code)) return sqliteUnavailable(code, message) ? 'database' : undefined;
  // pg's DatabaseError: a five-character SQLSTATE, with a severity; FATAL and PANIC end the connection.
  if (/^[0-9A-Z]{5}$/.test(code) && typeof e.severity === 'string') {
    if (postgresUnavailable(code, message) || e.severity === 'FATAL' || e.severity === 'PANIC') return 'database';
    return undefined;
  }
  if (NETWORK_CODES.has(code) && (e.syscall === undefined || NETWORK_SYSCALLS.has(String(e.syscall))))
    return 'database';
  if (POSTGRES_CONNECTION_TEXTS.test(message)) return 'database';
  const inner = [e.driverError, ...(Array.isArray(e.errors) ? e.errors : [])];
  for (const next of inner) {
    const engine = unavailableEngine(next, depth + 1);
    if (engine) return engine;
  }
  return undefined;
}

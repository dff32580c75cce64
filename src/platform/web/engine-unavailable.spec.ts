import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client, DatabaseError, Pool } from 'pg';
import * as sqlite3 from 'sqlite3';
import { QueryFailedError } from 'typeorm';
import { DatabaseBusyError } from '../database/sqlite/serialiser';
import { unavailableEngine } from './engine-unavailable';
import { testSecret } from '../../../test/utils/secrets';

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

/** A TCP server on loopback that does `onSocket` with each connection; its port. */
async function tcpServer(onSocket: (socket: Socket) => void): Promise<{ port: number; server: Server }> {
  const server = createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** A PostgreSQL error as pg's protocol parser builds it from the server's ErrorResponse. */
function postgresError(code: string, severity: string, message: string): DatabaseError {
  const error = new DatabaseError(message, message.length, 'error');
  Object.assign(error, { code, severity });
  return error;
}

const sqliteRun = (db: sqlite3.Database, sql: string) =>
  new Promise<void>((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));

describe('unavailableEngine', () => {
  describe('PostgreSQL through pg', () => {
    it('a refused connection (nothing listens) is the database', async () => {
      const client = new Client({ host: '127.0.0.1', port: 9, user: 'x', database: 'x', password: testSecret() });
      const error = await rejection(client.connect());
      expect((error as { code?: string }).code).toBe('ECONNREFUSED');
      expect(unavailableEngine(error)).toBe('database');
    });

    it('a server that drops the connection: "Connection terminated unexpectedly" is the database', async () => {
      const { port, server } = await tcpServer((socket) => socket.destroy());
      try {
        const client = new Client({ host: '127.0.0.1', port, user: 'x', database: 'x', password: testSecret() });
        const error = await rejection(client.connect());
        expect(error.message).toMatch(/Connection terminated/);
        expect(unavailableEngine(error)).toBe('database');
      } finally {
        server.close();
      }
    });

    it("the pool's wait for a connection that never comes is the database", async () => {
      const held: Socket[] = [];
      const { port, server } = await tcpServer((socket) => void held.push(socket));
      const pool = new Pool({ host: '127.0.0.1', port, user: 'x', database: 'x', connectionTimeoutMillis: 100 });
      try {
        const error = await rejection(pool.query('SELECT 1'));
        expect(error.message).toMatch(/timeout|terminated/i);
        expect(unavailableEngine(error)).toBe('database');
      } finally {
        held.forEach((s) => s.destroy());
        await pool.end().catch(() => undefined);
        server.close();
      }
    });

    it.each([
      ['57P01', 'FATAL', 'terminating connection due to administrator command'],
      ['57P03', 'FATAL', 'the database system is starting up'],
      ['55000', 'FATAL', 'database "portal" is not currently accepting connections'],
      ['08006', 'ERROR', 'connection failure'],
      ['53300', 'FATAL', 'sorry, too many clients already'],
    ])('SQLSTATE %s (%s) is the database, bare or inside QueryFailedError', (code, severity, message) => {
      const error = postgresError(code, severity, message);
      expect(unavailableEngine(error)).toBe('database');
      expect(unavailableEngine(new QueryFailedError('SELECT 1', [], error))).toBe('database');
    });

    it.each([
      ['23505', 'duplicate key value violates unique constraint "users_email_key"'],
      ['22P02', 'invalid input syntax for type integer: "x"'],
      ['42P01', 'relation "nowhere" does not exist'],
      ['55000', 'object is not in prerequisite state'],
      ['40001', 'could not serialize access due to concurrent update'],
    ])('SQLSTATE %s of a query (ERROR) is no outage', (code, message) => {
      expect(unavailableEngine(new QueryFailedError('SELECT 1', [], postgresError(code, 'ERROR', message)))).toBe(
        undefined,
      );
    });
  });

  describe('SQLite through sqlite3', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'engine-unavailable-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a write refused while another connection holds the lock (SQLITE_BUSY) is the database; a constraint is not', async () => {
      const file = join(dir, 'busy.sqlite');
      const holder = new sqlite3.Database(file);
      const other = new sqlite3.Database(file);
      try {
        await sqliteRun(holder, 'CREATE TABLE t (x INTEGER PRIMARY KEY)');
        await sqliteRun(holder, 'BEGIN EXCLUSIVE');
        await sqliteRun(holder, 'INSERT INTO t VALUES (1)');
        other.configure('busyTimeout', 50);
        const busy = await rejection(sqliteRun(other, 'INSERT INTO t VALUES (2)'));
        expect((busy as { code?: string }).code).toBe('SQLITE_BUSY');
        expect(unavailableEngine(busy)).toBe('database');
        expect(unavailableEngine(new QueryFailedError('INSERT', [], busy))).toBe('database');
        await sqliteRun(holder, 'COMMIT');
        const constraint = await rejection(sqliteRun(other, 'INSERT INTO t VALUES (1)'));
        expect((constraint as { code?: string }).code).toBe('SQLITE_CONSTRAINT');
        expect(unavailableEngine(new QueryFailedError('INSERT', [], constraint))).toBe(undefined);
      } finally {
        holder.close();
        other.close();
      }
    });

    it('a closed connection and a file that cannot be opened are the database', async () => {
      const db = new sqlite3.Database(join(dir, 'closed.sqlite'));
      await new Promise<void>((resolve) => db.close(() => resolve()));
      const closed = await rejection(sqliteRun(db, 'SELECT 1'));
      expect((closed as { code?: string }).code).toBe('SQLITE_MISUSE');
      expect(unavailableEngine(closed)).toBe('database');
      const cantOpen = await new Promise<Error | null>(
        (resolve) => new sqlite3.Database(join(dir, 'no', 'such.sqlite'), (err) => resolve(err)),
      );
      expect(cantOpen).toMatchObject({ code: 'SQLITE_CANTOPEN' });
      expect(unavailableEngine(cantOpen)).toBe('database');
    });

    it("the serialiser's gate not had in time (DatabaseBusyError) is the database", () => {
      expect(unavailableEngine(new DatabaseBusyError())).toBe('database');
    });
  });

  describe('Redis through ioredis', () => {
    it('a command while Redis is unreachable (no offline queue) is Redis', async () => {
      const redis = new Redis({ host: '127.0.0.1', port: 9, enableOfflineQueue: false, lazyConnect: true });
      redis.on('error', () => undefined);
      try {
        const error = await rejection(redis.get('key'));
        expect(unavailableEngine(error)).toBe('redis');
      } finally {
        redis.disconnect();
      }
    });

    it('a command on a closed connection is Redis', async () => {
      const redis = new Redis({ host: '127.0.0.1', port: 9, lazyConnect: true, retryStrategy: () => null });
      redis.on('error', () => undefined);
      await redis.connect().catch(() => undefined);
      const error = await rejection(redis.get('key'));
      expect(error.message).toMatch(/Connection is closed/);
      expect(unavailableEngine(error)).toBe('redis');
    });
  });

  describe('everything else is a bug or bad input (answered 500 or 4xx)', () => {
    it.each([
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
      ['a plain Error', new Error('something broke')],
      ['a string', 'oops'],
      ['undefined', undefined],
    ])('%s', (_label, error) => {
      expect(unavailableEngine(error)).toBe(undefined);
    });

    it("a failed fetch of someone else's address (ECONNREFUSED inside its cause) is not the database", async () => {
      // A port that was just free (fetch refuses port 9 itself, as a "bad port").
      const { port, server } = await tcpServer(() => undefined);
      await new Promise((resolve) => server.close(resolve));
      const error = await rejection(fetch(`http://127.0.0.1:${port}/`));
      expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
      expect(unavailableEngine(error)).toBe(undefined);
    });

    it("a DNS resolver's refusal (syscall queryTxt) is not the database", () => {
      const error = Object.assign(new Error('queryTxt ECONNREFUSED example.com'), {
        code: 'ECONNREFUSED',
        syscall: 'queryTxt',
      });
      expect(unavailableEngine(error)).toBe(undefined);
    });
  });
});

import { INestApplication, LoggerService } from '@nestjs/common';
import { Server as HttpServer, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { constants } from 'node:os';
import { ShutdownState } from './shutdown-state';

/** How long past the grace period the closing of the modules (database, Redis, outbox) may take before exit 1. */
const CLOSE_MARGIN_MS = 5_000;

/**
 * SIGTERM and SIGINT stop the server without cutting a request it accepted:
 *  1. readiness answers 503 and sockets are told to reconnect (ShutdownState);
 *  2. the connections the kernel has already completed are accepted, then the listening socket closes (new
 *     connections are refused, which a proxy retries elsewhere); the connections open are served, each answer
 *     carrying `Connection: close`;
 *  3. once no request is running (or after `graceMs`) idle connections close, then the application closes:
 *     the outbox finishes the message under way and keeps the rest for the next start, Redis and the database
 *     close (a transaction still open after the grace period is rolled back by its database);
 *  4. exit 0. A second signal exits at once (128 + its number).
 */
export function handleShutdownSignals(app: INestApplication, graceMs: number, logger: LoggerService): void {
  const server = app.getHttpServer() as HttpServer;
  const state = app.get(ShutdownState);
  let running = 0;
  let idle: (() => void) | undefined;
  server.prependListener('request', (_req, res: ServerResponse) => {
    running++;
    if (state.draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      if (--running === 0) idle?.();
    });
  });

  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    const deadline = Date.now() + graceMs;
    logger.log(`${signal}: shutting down; requests in flight: ${running}, allowed ${graceMs / 1000} s`, 'Shutdown');
    state.begin();
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    await acceptPending(server, deadline);
    // net.Server's close, not http.Server's: the latter also drops the idle keep-alive connections at once, and a
    // request written on one of them at that moment would be cut without an answer.
    NetServer.prototype.close.call(server);
    if (running > 0) await until(new Promise<void>((resolve) => (idle = resolve)), deadline);
    server.closeIdleConnections();
    if (!(await until(closed, deadline))) {
      logger.warn(`Grace period over with ${running} request(s) unanswered: closing their connections`, 'Shutdown');
      server.closeAllConnections();
    }
    const hardStop = setTimeout(() => {
      logger.error('The application did not close in time: exiting', 'Shutdown');
      process.exit(1);
    }, CLOSE_MARGIN_MS);
    hardStop.unref();
    await app.close();
    logger.log('Stopped', 'Shutdown');
  };

  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`, 'Shutdown');
      process.exit(128 + (constants.signals[signal] ?? 15));
    }
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (e: Error) => {
        logger.error(`Shutdown failed: ${e.message}`, 'Shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Whether `work` settled before `deadline` (epoch ms). */
async function until(work: Promise<void>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once `server` has gone through a few turns of the event loop (each one a poll phase) without accepting
 * a connection, or at `deadline`. A busy process accepts the connections the kernel has completed a few at a time,
 * one turn after another; closing the listening socket under those still queued would reset them.
 */
async function acceptPending(server: HttpServer, deadline: number): Promise<void> {
  let accepted = false;
  const onConnection = () => (accepted = true);
  server.on('connection', onConnection);
  let calm = 0;
  while (calm < 3 && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    if (accepted) {
      accepted = false;
      calm = 0;
    } else calm++;
  }
  server.off('connection', onConnection);
}

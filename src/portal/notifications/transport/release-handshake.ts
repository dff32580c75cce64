import type { EventEmitter } from 'node:events';
import type { Socket as TcpSocket } from 'node:net';
import { Logger } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { SOCKET_PATH } from '../../../shared/portal/notifications';
import { isTuned } from './socket-io-internals';

/**
 * What a notification socket keeps once it is connected. The tuned steps reach into engine.io 6 and ws 8, whose
 * internals are not typed: each names what it relies on, `release-handshake.spec.ts` fails when an upgrade moves
 * one, and `bench/notifications.js` measures the result (memory per connection).
 */

interface EngineInternals extends Pick<EventEmitter, 'rawListeners' | 'removeAllListeners' | 'on'> {
  /** The upgrade request (IncomingMessage), kept by engine.io for the connection's lifetime. */
  request: Record<string, unknown> | null;
  /** engine.io's server: its HTTP-style middlewares (`engine.use`), none here. */
  server?: { middlewares?: unknown[] };
  /** The websocket transport: its `ws` socket and, under it, the TCP socket. */
  transport?: { socket?: { _socket?: TcpSocket } & Pick<TcpSocket, 'rawListeners' | 'removeListener'> } & Pick<
    EventEmitter,
    'rawListeners' | 'removeAllListeners' | 'on'
  > & { name?: string };
}

type Listener = (...args: unknown[]) => void;

/**
 * An event's once-listeners made plain listeners, in their order. A once-listener keeps a wrapper, a bound function
 * and a state object for as long as the connection lives. Only for events emitted at most once (a close) or whose
 * listener removes itself (engine.io's error handler ends the transport and takes its listeners off).
 */
function plainListeners(
  emitter: Pick<EventEmitter, 'rawListeners' | 'removeAllListeners' | 'on'>,
  event: string,
): void {
  const listeners = emitter.rawListeners(event) as Array<Listener & { listener?: Listener }>;
  if (!listeners.some((l) => l.listener)) return;
  emitter.removeAllListeners(event);
  for (const l of listeners) emitter.on(event, l.listener ?? l);
}

/**
 * Lets go of the handshake once the gateway has read what it checks: the upgrade request and the access token
 * (in the request line's query) are not needed after it, yet socket.io would keep both as long as the
 * connection lives. Called before socket.io has joined the socket to the room named by its id, the leave below
 * finds nothing to leave, and the gateway leaves that room once the socket is connected. Dropping the engine's request is socket.io's own advice (its "memory usage" page) and leaving
 * the room named after the socket's id is its public API; the rest runs only on a tuned server.
 */
export function releaseHandshake(socket: Socket): void {
  const engine = socket.conn as unknown as EngineInternals;
  const request = engine.request;
  engine.request = null;
  // Every socket joins a room named by its own id (for `to(socket.id)`, which nothing here addresses):
  // leaving it spares a room per connection.
  void socket.leave(socket.id);
  if (isTuned(socket.nsp.server)) releaseEngineInternals(socket, engine, request);
}

let shapeWarned = false;

function releaseEngineInternals(
  socket: Socket,
  engine: EngineInternals,
  request: Record<string, unknown> | null,
): void {
  if (request) {
    request.headers = {};
    request.rawHeaders = [];
    request._query = null;
    request.websocket = null;
    request.url = SOCKET_PATH;
  }
  // The handshake (headers, query with the token, auth, time, address) is read once, by the authentication
  // above: every connected socket shares one empty stand-in instead.
  (socket as { handshake: Socket['handshake'] }).handshake = RELEASED_HANDSHAKE;
  // engine.io answers an upgrade through a stand-in response that re-emits the TCP socket's 'close' for
  // HTTP-style middlewares; its once-listener on that socket keeps the response and the request alive until
  // the connection ends. With no such middleware nothing listens on the stand-in, so the listener goes.
  // It is the only anonymous once-listener: ws's own (`socketOnClose`) and Node's are named functions.
  let found = 0;
  const tcp = engine.transport?.socket?._socket;
  if (tcp && (engine.server?.middlewares?.length ?? 0) === 0) {
    for (const raw of tcp.rawListeners('close')) {
      const listener = (raw as { listener?: (...args: unknown[]) => void }).listener;
      if (listener && listener.name === '') {
        tcp.removeListener('close', listener);
        found++;
      }
    }
  }
  // engine.io guards the websocket with an 'error' listener until its transport takes over, and removes it only
  // on a transport upgrade: a websocket opened directly keeps it, and with it the handshake's closure scope.
  // The transport's own 'error' listener handles errors from here on.
  const websocket = engine.transport?.socket;
  for (const listener of websocket?.rawListeners('error') ?? [])
    if ((listener as { name?: string }).name === 'onUpgradeError') {
      websocket!.removeListener('error', listener as (...args: unknown[]) => void);
      found++;
    }
  // Once-listeners of events emitted once per connection: the websocket's and the transport's close (engine.io
  // guards each with its ready state), the engine socket's close (guarded the same way) and the transport's error
  // (engine.io's handler closes the transport and removes itself).
  const transport = engine.transport;
  if (websocket) plainListeners(websocket as unknown as EventEmitter, 'close');
  if (transport) {
    plainListeners(transport, 'close');
    plainListeners(transport, 'error');
    // A websocket transport's 'headers' listener (engine.io's server) serves the upgrade's response only; a polling
    // transport emits 'headers' on every response and keeps it.
    if (transport.name === 'websocket') transport.removeAllListeners('headers');
  }
  plainListeners(engine, 'close');
  // A websocket connection has at least one of the listeners above; finding none means engine.io changed shape.
  if (transport?.name === 'websocket' && found === 0 && !shapeWarned) {
    shapeWarned = true;
    new Logger('SocketTransport').warn(
      "engine.io's websocket connection no longer has the listeners the tuning releases: each connection keeps more memory (bench/notifications.js)",
    );
  }
}

/** What `socket.handshake` reads once the handshake is released: frozen, shared by every socket. */
const RELEASED_HANDSHAKE: Socket['handshake'] = Object.freeze({
  headers: Object.freeze({}),
  query: Object.freeze({}),
  auth: Object.freeze({}),
  time: '',
  address: '',
  xdomain: false,
  secure: false,
  issued: 0,
  url: SOCKET_PATH,
}) as Socket['handshake'];

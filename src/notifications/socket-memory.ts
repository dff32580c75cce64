import type { EventEmitter } from 'node:events';
import type { Socket as TcpSocket } from 'node:net';
import type { Namespace, Socket } from 'socket.io';
import { SOCKET_PATH } from '../shared/notifications';

/**
 * What a notification socket keeps once it is connected, and how a broadcast is written (memory
 * per connection at 10,000 sockets, fan-out time). These reach into socket.io's engine, whose internals
 * are not typed: each step names what it relies on, and `bench/notifications.js` measures the result.
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
 * Lets go of the handshake once the socket has joined its rooms: the upgrade request and the access token
 * (in the request line's query) are not needed after it, yet socket.io would keep both as long as the
 * connection lives.
 */
export function releaseHandshake(socket: Socket): void {
  const engine = socket.conn as unknown as EngineInternals;
  const request = engine.request;
  if (request) {
    request.headers = {};
    request.rawHeaders = [];
    request._query = null;
    request.websocket = null;
    request.url = SOCKET_PATH;
  }
  engine.request = null;
  // The handshake (headers, query with the token, auth, time, address) is read once, by the authentication
  // above: every connected socket shares one empty stand-in instead.
  (socket as { handshake: Socket['handshake'] }).handshake = RELEASED_HANDSHAKE;
  // engine.io answers an upgrade through a stand-in response that re-emits the TCP socket's 'close' for
  // HTTP-style middlewares; its once-listener on that socket keeps the response and the request alive until
  // the connection ends. With no such middleware nothing listens on the stand-in, so the listener goes.
  // It is the only anonymous once-listener: ws's own (`socketOnClose`) and Node's are named functions.
  const tcp = engine.transport?.socket?._socket;
  if (tcp && (engine.server?.middlewares?.length ?? 0) === 0) {
    for (const raw of tcp.rawListeners('close')) {
      const listener = (raw as { listener?: (...args: unknown[]) => void }).listener;
      if (listener && listener.name === '') tcp.removeListener('close', listener);
    }
  }
  // engine.io guards the websocket with an 'error' listener until its transport takes over, and removes it only
  // on a transport upgrade: a websocket opened directly keeps it, and with it the handshake's closure scope.
  // The transport's own 'error' listener handles errors from here on.
  const websocket = engine.transport?.socket;
  for (const listener of websocket?.rawListeners('error') ?? [])
    if ((listener as { name?: string }).name === 'onUpgradeError')
      websocket!.removeListener('error', listener as (...args: unknown[]) => void);
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
  // Every socket joins a room named by its own id (for `to(socket.id)`, which nothing here addresses):
  // leaving it spares a room per connection.
  void socket.leave(socket.id);
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

type Encode = (packet: unknown, options: PacketOptions) => unknown;

interface PacketOptions {
  /** The broadcast's WebSocket frame, encoded once by the adapter (`_encode`). */
  wsPreEncodedFrame?: Buffer[];
  volatile?: boolean;
}

/** What the direct write reads of a socket.io client and its engine.io connection (engine.io 6, ws 8). */
interface ClientInternals {
  conn: {
    readyState: string;
    /** Packets waiting for the transport: a frame written past them would overtake them. */
    writeBuffer: unknown[];
    transport: {
      name: string;
      writable: boolean;
      perMessageDeflate?: unknown;
      socket?: { readyState: number; _sender?: { sendFrame?: (frame: Buffer[], cb?: unknown) => void } };
    };
  };
  writeToEngine(encoded: unknown, options: PacketOptions): void;
}

const WS_OPEN = 1;
const patchedClients = new WeakSet<object>();

/**
 * Writes a broadcast's pre-encoded frame straight to a websocket that has nothing queued before it, past
 * engine.io's per-packet bookkeeping (a packet object, a new write buffer, a sent-callback slot and four
 * events a socket, then a drain callback after the write): the same bytes, in the same order. Measured over
 * 10,000 sockets, the loop is about 16 % shorter and no scavenge interrupts it (fan-out;
 * decisions/perf-sockets.md). Anything else (polling, a socket mid-close, packets already waiting, a volatile packet on a
 * busy transport, per-message deflate) takes socket.io's own path.
 */
function writeFrameDirectly(client: ClientInternals): void {
  const proto = Object.getPrototypeOf(client) as ClientInternals;
  if (patchedClients.has(proto)) return;
  patchedClients.add(proto);
  const writeToEngine = proto.writeToEngine;
  proto.writeToEngine = function (this: ClientInternals, encoded, options) {
    const frame = options.wsPreEncodedFrame;
    const conn = this.conn;
    if (frame !== undefined && conn.readyState === 'open' && conn.writeBuffer.length === 0) {
      const transport = conn.transport;
      const websocket = transport.socket;
      if (
        transport.name === 'websocket' &&
        !transport.perMessageDeflate &&
        (transport.writable || !options.volatile) &&
        websocket?.readyState === WS_OPEN &&
        typeof websocket._sender?.sendFrame === 'function'
      ) {
        // A write error reaches ws's socket, which closes the connection (engine.io's callback only logs it).
        websocket._sender.sendFrame(frame);
        return;
      }
    }
    writeToEngine.call(this, encoded, options);
  };
}

/**
 * socket.io encodes a broadcast's WebSocket frame once, as a header and a payload buffer, and then writes
 * both to every socket (a corked writev each). One buffer per frame makes each socket's share a single
 * write: measured on 10,000 sockets, the broadcast's p99 drops by about 40 ms. Applied to a namespace's
 * adapter (in memory or Redis: the Redis adapter delivers to its local sockets through the same step); its
 * sockets' clients then write such a frame directly (`writeFrameDirectly`).
 */
export function broadcastAsOneWrite(namespace: Namespace): void {
  const adapter = namespace.adapter as unknown as { _encode?: Encode };
  const encode = adapter._encode;
  if (typeof encode !== 'function') return;
  adapter._encode = function (packet, options) {
    const encoded = encode.call(this, packet, options);
    const frame = options.wsPreEncodedFrame;
    if (Array.isArray(frame) && frame.length > 1) options.wsPreEncodedFrame = [Buffer.concat(frame)];
    return encoded;
  };
  namespace.on('connection', (socket: Socket) => writeFrameDirectly(socket.client as unknown as ClientInternals));
}

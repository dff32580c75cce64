import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Namespace } from 'socket.io';

/**
 * The private parts of socket.io 4.8, socket.io-adapter 2.5 and ws 8 that the transport tuning relies on, and
 * the check that they still have the shape it expects. A library upgrade that changes one of them turns the
 * tuning off as a whole (socket.io's own path, with a warning), never part of it.
 */

/** Options of a packet as socket.io-adapter hands them to its `_encode` and to each client. */
export interface PacketOptions {
  /** The broadcast's WebSocket frame, encoded once by the adapter. */
  wsPreEncodedFrame?: Buffer[];
  volatile?: boolean;
}

type Encode = (packet: unknown, options: PacketOptions) => unknown;

/** The adapter's private encoder: socket.io-adapter 2.5 builds `wsPreEncodedFrame` there. */
export interface AdapterInternals {
  _encode: Encode;
}

/** What the direct write reads of a socket.io client and its engine.io connection (engine.io 6, ws 8). */
export interface ClientInternals {
  /** The socket.io server the client belongs to. */
  server: object;
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

/** socket.io's client class, which its package does not export: read from the file beside its entry point. */
export function socketIoClientPrototype(): ClientInternals | undefined {
  try {
    const load = createRequire(__filename);
    const { Client } = load(join(dirname(load.resolve('socket.io')), 'client.js')) as {
      Client?: { prototype: ClientInternals };
    };
    return Client?.prototype;
  } catch {
    return undefined;
  }
}

/** The sender of the `ws` that engine.io writes through (resolved from engine.io, as engine.io resolves it). */
function wsSenderPrototype(): { sendFrame?: unknown } | undefined {
  try {
    const fromEngine = createRequire(createRequire(__filename).resolve('engine.io'));
    return (fromEngine('ws') as { Sender?: { prototype: { sendFrame?: unknown } } }).Sender?.prototype;
  } catch {
    return undefined;
  }
}

/** What differs from the shape the tuning expects; empty when every piece is there. */
export function socketIoInternalsProblems(namespace: Namespace): string[] {
  const problems: string[] = [];
  const adapter = namespace.adapter as unknown as Partial<AdapterInternals>;
  if (typeof adapter._encode !== 'function') problems.push("socket.io-adapter's Adapter#_encode is gone");
  else {
    // A dry run of the encoder: pure, it builds the packet's frame and touches no socket.
    const options: PacketOptions = {};
    try {
      adapter._encode({ type: 2, nsp: '/', data: ['probe'] }, options);
    } catch (err) {
      problems.push(`socket.io-adapter's Adapter#_encode throws (${(err as Error).message})`);
    }
    const frame = options.wsPreEncodedFrame;
    if (!Array.isArray(frame) || frame.length === 0 || !frame.every((part) => Buffer.isBuffer(part)))
      problems.push("socket.io-adapter's Adapter#_encode no longer pre-encodes a WebSocket frame (wsPreEncodedFrame)");
  }
  const client = socketIoClientPrototype();
  if (typeof client?.writeToEngine !== 'function') problems.push("socket.io's Client#writeToEngine is gone");
  if (typeof wsSenderPrototype()?.sendFrame !== 'function') problems.push("ws's Sender#sendFrame is gone");
  return problems;
}

/**
 * Servers whose transport is tuned. socket.io's client prototype is shared by every server of the process (tests
 * run several), so each tuned step asks whether its connection's server is one of these.
 */
const tunedServers = new WeakSet<object>();

export function markTuned(server: object): void {
  tunedServers.add(server);
}

export function isTuned(server: object): boolean {
  return tunedServers.has(server);
}

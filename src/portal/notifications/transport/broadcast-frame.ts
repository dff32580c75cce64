import type { Namespace } from 'socket.io';
import { AdapterInternals, ClientInternals, isTuned, socketIoClientPrototype } from './socket-io-internals';

const WS_OPEN = 1;
const patchedClients = new WeakSet<object>();

/**
 * Writes a broadcast's pre-encoded frame straight to a websocket that has nothing queued before it, past
 * engine.io's per-packet bookkeeping (a packet object, a new write buffer, a sent-callback slot and four
 * events a socket, then a drain callback after the write): the same bytes, in the same order. Anything else
 * (polling, a socket mid-close, packets already waiting, a volatile packet on a busy transport, per-message
 * deflate) takes socket.io's own path.
 */
function writeFrameDirectly(proto: ClientInternals): void {
  if (patchedClients.has(proto)) return;
  patchedClients.add(proto);
  const writeToEngine = proto.writeToEngine;
  proto.writeToEngine = function (this: ClientInternals, encoded, options) {
    const frame = options.wsPreEncodedFrame;
    const conn = this.conn;
    if (frame !== undefined && isTuned(this.server) && conn.readyState === 'open' && conn.writeBuffer.length === 0) {
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
 * write, which socket.io's clients then hand straight to the websocket (`writeFrameDirectly`). Applied to the
 * namespace's final adapter (in memory or Redis: the Redis adapter delivers to its local sockets through the
 * same step), after `socketIoInternalsProblems` found nothing.
 */
export function broadcastAsOneWrite(namespace: Namespace): void {
  const adapter = namespace.adapter as unknown as AdapterInternals;
  const encode = adapter._encode;
  adapter._encode = function (packet, options) {
    const encoded = encode.call(this, packet, options);
    const frame = options.wsPreEncodedFrame;
    if (Array.isArray(frame) && frame.length > 1) options.wsPreEncodedFrame = [Buffer.concat(frame)];
    return encoded;
  };
  const client = socketIoClientPrototype();
  if (client) writeFrameDirectly(client);
}

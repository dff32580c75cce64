import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Server, Socket as ServerSocket } from 'socket.io';
import { io, Socket } from 'socket.io-client';
import { tuneTransport } from './tune-transport';

/** engine.io's side of a connection, as far as these tests reach into it. */
interface EngineSide {
  writeBuffer: unknown[];
  transport: { name: string; writable: boolean };
  flush(): void;
  on(event: 'packetCreate', listener: (packet: { type: string; data?: unknown }) => void): void;
}

describe('broadcastAsOneWrite', () => {
  let http: HttpServer;
  let server: Server;
  let url: string;
  const clients: Socket[] = [];

  beforeEach(async () => {
    http = createServer();
    server = new Server(http, { transports: ['websocket', 'polling'], perMessageDeflate: false });
    // Empty unless an upgrade of socket.io, socket.io-adapter or ws moved an internal the tuning relies on.
    expect(tuneTransport(server)).toEqual([]);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await server.close();
  });

  /** A connected client recording every event it receives, in order, and the server's socket for it. */
  async function connect(transport: 'websocket' | 'polling') {
    const connected = new Promise<ServerSocket>((resolve) => server.once('connection', resolve));
    const client = io(url, { transports: [transport], upgrade: false, reconnection: false, forceNew: true });
    clients.push(client);
    const received: Array<[string, unknown]> = [];
    client.onAny((event: string, payload: unknown) => received.push([event, payload]));
    await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('connect_error', reject));
    const socket = await connected;
    const engine = socket.conn as unknown as EngineSide;
    /** Messages engine.io made a packet of (its own path; the direct write makes none). */
    const packets: unknown[] = [];
    engine.on('packetCreate', (p) => {
      if (p.type === 'message') packets.push(p.data);
    });
    return { client, socket, engine, received, packets };
  }

  async function until(check: () => boolean) {
    const end = Date.now() + 3000;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it("writes a broadcast's frame straight to each websocket, intact, without an engine.io packet", async () => {
    const a = await connect('websocket');
    const b = await connect('websocket');
    server.emit('notification', { message: 'é ✓ intact', n: 1 });
    await until(() => a.received.length === 1 && b.received.length === 1);
    for (const c of [a, b]) {
      expect(c.received).toEqual([['notification', { message: 'é ✓ intact', n: 1 }]]);
      expect(c.packets).toEqual([]);
    }
    // A message to one socket, and a broadcast socket.io cannot send as one text frame (binary), take
    // engine.io's path, and arrive in order after the direct one.
    a.socket.emit('own', 2);
    server.emit('binary', Buffer.from([1, 2, 3]));
    await until(() => a.received.length === 3);
    expect(a.received.map(([event]) => event)).toEqual(['notification', 'own', 'binary']);
    expect(Buffer.from(a.received[2][1] as ArrayBuffer)).toEqual(Buffer.from([1, 2, 3]));
    expect(a.packets.length).toBeGreaterThan(0);
  });

  it('queues a broadcast behind packets already waiting for the transport, so nothing overtakes them', async () => {
    const a = await connect('websocket');
    // A write in flight: engine.io holds what is sent next in its buffer until the transport is writable.
    a.engine.transport.writable = false;
    a.socket.emit('first', 1);
    server.emit('second', 2);
    expect(a.engine.writeBuffer).toHaveLength(2);
    a.engine.transport.writable = true;
    a.engine.flush();
    await until(() => a.received.length === 2);
    expect(a.received).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
  });

  it('drops a volatile broadcast while the transport is busy, as socket.io does', async () => {
    const a = await connect('websocket');
    a.engine.transport.writable = false;
    server.volatile.emit('dropped', 1);
    a.engine.transport.writable = true;
    server.emit('kept', 2);
    await until(() => a.received.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(a.received).toEqual([['kept', 2]]);
  });

  it('delivers to long-polling clients through engine.io', async () => {
    const p = await connect('polling');
    expect(p.engine.transport.name).toBe('polling');
    server.emit('notification', { message: 'polled' });
    await until(() => p.received.length === 1);
    expect(p.received).toEqual([['notification', { message: 'polled' }]]);
    expect(p.packets).toHaveLength(1);
  });

  it("leaves a second, untuned server of the same process on engine.io's path", async () => {
    const otherHttp = createServer();
    const other = new Server(otherHttp, { transports: ['websocket'], perMessageDeflate: false });
    await new Promise<void>((resolve) => otherHttp.listen(0, '127.0.0.1', resolve));
    try {
      const connected = new Promise<ServerSocket>((resolve) => other.once('connection', resolve));
      const client = io(`http://127.0.0.1:${(otherHttp.address() as AddressInfo).port}`, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      clients.push(client);
      const received: unknown[] = [];
      client.on('notification', (payload: unknown) => received.push(payload));
      const socket = await connected;
      const packets: unknown[] = [];
      (socket.conn as unknown as EngineSide).on('packetCreate', (p) => {
        if (p.type === 'message') packets.push(p.data);
      });
      other.emit('notification', 1);
      await until(() => received.length === 1);
      expect(packets).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('tuneTransport', () => {
  it("tunes nothing and names what changed when socket.io's internals lack a piece", () => {
    // Not attached to an HTTP server: nothing listens, nothing to close.
    const server = new Server({ transports: ['websocket'] });
    const adapter = server.of('/').adapter as unknown as { _encode?: unknown };
    // What an upgrade that renamed the adapter's encoder looks like.
    Object.defineProperty(adapter, '_encode', { value: undefined, configurable: true });
    expect(tuneTransport(server)).toEqual(["socket.io-adapter's Adapter#_encode is gone"]);
    expect(adapter._encode).toBeUndefined();
  });
});

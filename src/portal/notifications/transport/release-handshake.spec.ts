import type { EventEmitter } from 'node:events';
import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Server, Socket as ServerSocket } from 'socket.io';
import { io, Socket } from 'socket.io-client';
import { releaseHandshake } from './release-handshake';
import { tuneTransport } from './tune-transport';
import { testSecret } from '../../../../test/utils/secrets';

const TOKEN = testSecret('access-token');

/** The parts of engine.io's connection (engine.io 6, ws 8) the release lets go of. */
interface Engine extends EventEmitter {
  request: unknown;
  transport: EventEmitter & { name: string; socket: EventEmitter & { _socket: EventEmitter } };
}

type Wrapped = ((...args: unknown[]) => void) & { listener?: (...args: unknown[]) => void };
const onceWrappers = (emitter: EventEmitter, event: string) =>
  (emitter.rawListeners(event) as Wrapped[]).filter((l) => l.listener !== undefined);
const named = (emitter: EventEmitter, event: string, name: string) =>
  (emitter.rawListeners(event) as Wrapped[]).filter((l) => l.name === name);

describe('releaseHandshake', () => {
  let http: HttpServer;
  let server: Server;
  const clients: Socket[] = [];

  async function start(tuned: boolean) {
    http = createServer();
    server = new Server(http, { transports: ['websocket'], perMessageDeflate: false });
    if (tuned) expect(tuneTransport(server)).toEqual([]);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  }
  afterEach(async () => {
    for (const c of clients.splice(0)) c.disconnect();
    await server.close();
  });

  /** A websocket connection with the access token in its query, released as the gateway does once it is set up. */
  async function connect(): Promise<{ socket: ServerSocket; engine: Engine; before: Record<string, number> }> {
    const connected = new Promise<ServerSocket>((resolve) => server.once('connection', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const client = io(url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      query: { token: TOKEN },
    });
    clients.push(client);
    const socket = await connected;
    const engine = socket.conn as unknown as Engine;
    const tcp = engine.transport.socket._socket;
    // What engine.io and ws hold before the release: the test fails here when an upgrade changes their shape.
    const before = {
      upgradeError: named(engine.transport.socket, 'error', 'onUpgradeError').length,
      anonymousTcpClose: onceWrappers(tcp, 'close').filter((l) => l.listener!.name === '').length,
      onceWrappers: [
        onceWrappers(engine.transport.socket, 'close'),
        onceWrappers(engine.transport, 'close'),
        onceWrappers(engine.transport, 'error'),
        onceWrappers(engine, 'close'),
      ].flat().length,
    };
    releaseHandshake(socket);
    return { socket, engine, before };
  }

  it('on a tuned server, lets go of the request, the handshake and the once-listeners engine.io keeps', async () => {
    await start(true);
    const { socket, engine, before } = await connect();
    expect(before).toEqual({ upgradeError: 1, anonymousTcpClose: 1, onceWrappers: expect.any(Number) });
    expect(before.onceWrappers).toBeGreaterThanOrEqual(4);

    expect(engine.request).toBeNull();
    expect(socket.handshake.query).toEqual({});
    expect(socket.handshake.headers).toEqual({});
    expect(Object.isFrozen(socket.handshake)).toBe(true);
    expect(socket.rooms.has(socket.id)).toBe(false);
    expect(named(engine.transport.socket, 'error', 'onUpgradeError')).toHaveLength(0);
    expect(onceWrappers(engine.transport.socket._socket, 'close').filter((l) => l.listener!.name === '')).toHaveLength(
      0,
    );
    for (const [emitter, event] of [
      [engine.transport.socket, 'close'],
      [engine.transport, 'close'],
      [engine.transport, 'error'],
      [engine, 'close'],
    ] as const)
      expect(onceWrappers(emitter, event)).toHaveLength(0);
    expect(engine.transport.listenerCount('headers')).toBe(0);

    // The connection still ends cleanly: the engine's count and the server's sockets fall back.
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    clients[0].disconnect();
    await gone;
    expect(server.engine.clientsCount).toBe(0);
  });

  it("on an untuned server, keeps socket.io's own state apart from what its documentation says may go", async () => {
    await start(false);
    const { socket, engine, before } = await connect();
    expect(engine.request).toBeNull();
    expect(socket.rooms.has(socket.id)).toBe(false);
    expect(socket.handshake.query).toMatchObject({ token: TOKEN });
    expect(named(engine.transport.socket, 'error', 'onUpgradeError')).toHaveLength(before.upgradeError);
    expect(onceWrappers(engine, 'close').length).toBeGreaterThan(0);
  });
});

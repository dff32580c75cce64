/**
 * The notification benchmark's load generator, one of several child processes (bench/notifications.js forks
 * them), so that receiving 10,000 frames is spread over processes and runs beside the server's broadcast
 * instead of behind it in one event loop.
 *
 * Each client is a raw WebSocket on a `net` socket (the upgrade, frame parsing and the engine.io handshake
 * done by hand): no `ws` or socket.io-client objects per connection, no text decoding of frames that are
 * only counted. A delivery's time is read from process.hrtime (CLOCK_MONOTONIC, the same clock in every
 * process of the machine), so the parent subtracts its own publish time from it directly.
 *
 * Mode 'socket.io-client' opens the sockets with the product's own client library instead, as the browser does
 * (websocket transport first, the access token as the query's `token`, no reconnection): what an operator
 * measures the server's memory with.
 *
 * Messages from the parent: {cmd: 'connect', port, paths, mode: 'engine.io' | 'bare' | 'socket.io-client'} → {connected, failed,
 * firstError}; {cmd: 'collect'} → {times: [ms, …] since the last collect, frame}; {cmd: 'close'} → {closed}.
 */
const net = require('node:net');
const { randomBytes } = require('node:crypto');
const { io } = require('socket.io-client');

const CONCURRENT_CONNECTS = 50;
const NOTIFICATION = Buffer.from('42["notification"');
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
/**
 * Every socket reads into this one buffer (net's `onread`): no stream, no buffer allocated per read. Each read
 * is parsed before the next one arrives; a partial frame left at the end of a read is copied out of it.
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

const sockets = [];
let times = [];
let frame;

/** A client frame: FIN + text, masked (required of clients) with a zero key, so the payload is sent as is. */
function textFrame(text) {
  const payload = Buffer.from(text);
  if (payload.length > 125) throw new Error('only short client frames are needed');
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}
const OPEN_NAMESPACE = textFrame('40');
const PONG = textFrame('3');

/** A socket of socket.io-client, as client/src/lib/socket.ts opens it; `destroy()` closes it like the others. */
function connectSocketIo(port, path) {
  const url = new URL(path, `http://127.0.0.1:${port}`);
  return new Promise((resolve, reject) => {
    const socket = io(`http://127.0.0.1:${port}`, {
      path: url.pathname,
      query: { token: url.searchParams.get('token') ?? '' },
      transports: ['websocket', 'polling'],
      reconnection: false,
      forceNew: true,
      timeout: 30_000,
    });
    socket.on('notification', (item) => {
      times.push(nowMs());
      frame ??= `42${JSON.stringify(['notification', item])}`;
    });
    socket.once('connect', () => resolve({ destroy: () => socket.disconnect() }));
    socket.once('connect_error', (e) => {
      socket.disconnect();
      reject(e);
    });
  });
}

function connect(port, path, mode) {
  if (mode === 'socket.io-client') return connectSocketIo(port, path);
  return new Promise((resolve, reject) => {
    const sock = net.connect({
      port,
      host: '127.0.0.1',
      onread: { buffer: READ_BUFFER, callback: (n, into) => onChunk(into.subarray(0, n)) },
    });
    sock.setNoDelay(true);
    let buf = null;
    let upgraded = false;
    let settled = false;
    const done = (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        sock.destroy();
        reject(err);
      } else resolve(sock);
    };
    const timer = setTimeout(() => done(new Error('connect timeout')), 30_000);
    sock.on('error', (e) => done(e));
    sock.on('close', () => done(new Error('closed before connecting')));
    sock.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const onText = (payload) => {
      if (
        payload.length >= NOTIFICATION.length &&
        payload.compare(NOTIFICATION, 0, NOTIFICATION.length, 0, NOTIFICATION.length) === 0
      ) {
        times.push(nowMs());
        frame ??= payload.toString();
      } else if (mode === 'bare') {
        times.push(nowMs());
        frame ??= payload.toString();
      } else if (payload[0] === 0x32 /* '2' ping */ && payload.length === 1) sock.write(PONG);
      else if (payload[0] === 0x30 /* '0' open */) sock.write(OPEN_NAMESPACE);
      else if (payload[0] === 0x34 && payload[1] === 0x30 /* '40' namespace connected */) done();
      else if (payload[0] === 0x34 && payload[1] === 0x34 /* '44' refused */)
        done(new Error(payload.toString().slice(2)));
    };
    const onChunk = (chunk) => {
      buf = buf ? Buffer.concat([buf, chunk]) : chunk;
      parse();
      if (buf && buf.length === 0) buf = null;
      else if (buf && buf.buffer === READ_BUFFER.buffer) buf = Buffer.from(buf);
    };
    const parse = () => {
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buf.subarray(0, 12).toString().includes(' 101'))
          return done(new Error(buf.subarray(0, end).toString().split('\r\n')[0]));
        upgraded = true;
        buf = buf.subarray(end + 4);
        if (mode === 'bare') done();
      }
      while (buf.length >= 2) {
        let len = buf[1] & 0x7f;
        let off = 2;
        if (len === 126) {
          if (buf.length < 4) break;
          len = buf.readUInt16BE(2);
          off = 4;
        } else if (len === 127) {
          if (buf.length < 10) break;
          len = Number(buf.readBigUInt64BE(2));
          off = 10;
        }
        if (buf.length < off + len) break;
        const opcode = buf[0] & 0x0f;
        const payload = buf.subarray(off, off + len);
        buf = buf.subarray(off + len);
        if (opcode === 1) onText(payload);
        else if (opcode === 8) sock.destroy();
      }
    };
  });
}

process.on('message', async (msg) => {
  if (msg.cmd === 'connect') {
    let connected = 0;
    let failed = 0;
    let firstError;
    for (let i = 0; i < msg.paths.length; i += CONCURRENT_CONNECTS) {
      await Promise.all(
        msg.paths.slice(i, i + CONCURRENT_CONNECTS).map((path) =>
          connect(msg.port, path, msg.mode).then(
            (s) => {
              sockets.push(s);
              connected++;
            },
            (e) => {
              failed++;
              firstError ??= e.message;
            },
          ),
        ),
      );
    }
    times = [];
    process.send({ connected, failed, firstError });
  } else if (msg.cmd === 'collect') {
    // The deliveries since the last collect: the parent adds them up.
    process.send({ times, frame });
    times = [];
  } else if (msg.cmd === 'close') {
    for (const s of sockets) s.destroy();
    sockets.length = 0;
    times = [];
    process.send({ closed: true });
  }
});

import { ChildProcess, spawn } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

/**
 * A Redis server of the test's own, on a free port, without persistence: killed and started again by the test
 * (an outage, a restart that forgets everything) without touching any Redis other people use.
 */
export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL: every connection drops at once, as in a crash. */
  kill(): Promise<void>;
  /** Starts a fresh, empty server on the same port. */
  start(): Promise<void>;
  /** Kills it for good (the end of the suite). */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const until = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (Date.now() > until) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, stop: kill };
}

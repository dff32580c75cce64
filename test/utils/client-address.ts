import http from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp } from './test-app';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One HTTP call to the app from a chosen local address (another loopback address is another client). */
export function callFrom(
  t: TestApp,
  localAddress: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: object } = {},
): Promise<Answer> {
  const { port } = t.http.address() as AddressInfo;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress,
        headers: { ...(payload ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Only Date moves: the app's timers and the sockets keep running on real time. */
export function clockAt(now: number): void {
  jest.useFakeTimers({
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
    now,
  });
}

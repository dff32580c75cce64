import http from 'node:http';
import { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { TestApp } from './test-app';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One HTTP call to a listening app from a chosen local address: another loopback address (127.0.0.5) is another
 * client on Linux.
 */
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

/** A socket.io connection from a chosen local address (and headers): 'connected' or the refusal's message. */
export function socketFrom(t: TestApp, token: string, localAddress: string, headers: Record<string, string> = {}) {
  const { port } = t.http.address() as AddressInfo;
  const socket = io(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    query: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    localAddress,
    extraHeaders: headers,
  } as Parameters<typeof io>[1]);
  const outcome = new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (e) => resolve(e.message));
  });
  const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
  return { socket, outcome, disconnected };
}

import { describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import type { io } from 'socket.io-client';
import { fakeServer, NO_SESSION } from '@/test/fake-server';
import { SOCKET_ERRORS } from '@shared/portal/notifications';
import { startNotificationSocket } from './socket';

/** A stand-in for socket.io-client's Socket and Manager: records connects and the query token used. */
function fakeIo() {
  const tokens: string[] = [];
  const manager = Object.assign(new EventEmitter(), { opts: { query: {} as Record<string, string> } });
  const socket = Object.assign(new EventEmitter(), {
    io: manager,
    active: false,
    connect: vi.fn(() => tokens.push(manager.opts.query.token)),
    disconnect: vi.fn(),
  });
  const create = vi.fn((_url: string, opts: { query: Record<string, string>; path: string }) => {
    manager.opts.query = opts.query;
    return socket;
  });
  return { create: create as unknown as typeof io, socket, tokens };
}

const flush = () => new Promise((r) => setTimeout(r, 10));

describe('notification socket (spec 001 §7)', () => {
  it('connects to /socket.io with the access token as the query parameter', () => {
    localStorage.setItem('accessToken', 'tok-1');
    const f = fakeIo();
    startNotificationSocket({ onNotification: () => {} }, f.create);
    expect((f.create as unknown as ReturnType<typeof vi.fn>).mock.calls[0][1]).toMatchObject({
      path: '/socket.io',
      query: { token: 'tok-1' },
    });
    expect(f.tokens).toEqual(['tok-1']);
  });

  it("passes on that the organisation's sessions changed, until stopped", () => {
    localStorage.setItem('accessToken', 'tok-1');
    const f = fakeIo();
    const changed = vi.fn();
    const connection = startNotificationSocket({ onNotification: () => {}, onSessionsChanged: changed }, f.create);
    f.socket.emit('sessions-changed');
    expect(changed).toHaveBeenCalledTimes(1);
    connection.stop();
    f.socket.emit('sessions-changed');
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('delivers messages, and reconnects with a refreshed token when the server drops it for an expired token', async () => {
    localStorage.setItem('accessToken', 'tok-1');
    const fetch = fakeServer({}, { unmatched: NO_SESSION });
    fetch.respond('POST', '/refresh', 200, { newAccessToken: 'tok-2' });
    const f = fakeIo();
    const got: unknown[] = [];
    const ended = vi.fn();
    startNotificationSocket({ onNotification: (n) => got.push(n), onSessionEnded: ended }, f.create);
    f.socket.emit('notification', { notificationId: 1 });
    expect(got).toEqual([{ notificationId: 1 }]);
    f.socket.emit('disconnect', 'io server disconnect');
    await flush();
    expect(f.tokens).toEqual(['tok-1', 'tok-2']);
    f.socket.emit('connect_error', new Error('jwt expired'));
    await flush();
    expect(f.tokens).toEqual(['tok-1', 'tok-2', 'tok-2']);
    expect(ended).not.toHaveBeenCalled();
  });

  it('reports the end of the session when the token cannot be refreshed, and ignores everything once stopped', async () => {
    localStorage.setItem('accessToken', 'tok-1');
    fakeServer({}, { unmatched: NO_SESSION }); // /refresh answers 401
    const f = fakeIo();
    const ended = vi.fn();
    const got: unknown[] = [];
    const conn = startNotificationSocket({ onNotification: (n) => got.push(n), onSessionEnded: ended }, f.create);
    f.socket.emit('disconnect', 'io server disconnect');
    await flush();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(f.tokens).toEqual(['tok-1']);
    conn.stop();
    expect(f.socket.disconnect).toHaveBeenCalled();
    f.socket.emit('notification', { notificationId: 2 });
    expect(got).toEqual([]);
  });

  it('stops without a refresh when the server says the session ended', async () => {
    localStorage.setItem('accessToken', 'tok-1');
    const fetch = fakeServer({}, { unmatched: NO_SESSION });
    const f = fakeIo();
    const ended = vi.fn();
    startNotificationSocket({ onNotification: () => {}, onSessionEnded: ended }, f.create);
    f.socket.emit('session', { reason: 'session-ended' });
    f.socket.emit('disconnect', 'io server disconnect');
    await flush();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(fetch.calls).toEqual([]);
    expect(f.tokens).toEqual(['tok-1']);
  });

  it('does not retry a token the server calls invalid', async () => {
    localStorage.setItem('accessToken', 'tok-1');
    const fetch = fakeServer({}, { unmatched: NO_SESSION });
    const f = fakeIo();
    startNotificationSocket({ onNotification: () => {} }, f.create);
    f.socket.emit('connect_error', new Error('Invalid token.'));
    await flush();
    expect(fetch.calls).toEqual([]);
    expect(f.tokens).toEqual(['tok-1']);
  });

  it('connects again later, with the same token and longer waits, while the server cannot check it', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem('accessToken', 'tok-1');
      const fetch = fakeServer({}, { unmatched: NO_SESSION });
      const f = fakeIo();
      const ended = vi.fn();
      const connection = startNotificationSocket({ onNotification: () => {}, onSessionEnded: ended }, f.create);
      f.socket.emit('connect_error', new Error(SOCKET_ERRORS.UNAVAILABLE));
      await vi.advanceTimersByTimeAsync(1999);
      expect(f.tokens).toEqual(['tok-1']);
      await vi.advanceTimersByTimeAsync(1);
      expect(f.tokens).toEqual(['tok-1', 'tok-1']);
      f.socket.emit('connect_error', new Error(SOCKET_ERRORS.UNAVAILABLE));
      await vi.advanceTimersByTimeAsync(3999);
      expect(f.tokens).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(f.tokens).toHaveLength(3);
      // Neither a refresh nor an ended session: the server was only unavailable.
      expect(fetch.calls).toEqual([]);
      expect(ended).not.toHaveBeenCalled();
      f.socket.emit('connect_error', new Error(SOCKET_ERRORS.UNAVAILABLE));
      connection.stop();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(f.tokens).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the session when the token cannot be renewed only because the server is briefly unavailable', async () => {
    vi.useFakeTimers();
    try {
      localStorage.setItem('accessToken', 'tok-1');
      const fetch = fakeServer({}, { unmatched: NO_SESSION });
      let unavailable = true;
      fetch.respondWith('POST', '/refresh', () =>
        unavailable
          ? { status: 503, body: { success: false, statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'x' } }
          : { status: 200, body: { newAccessToken: 'tok-2' } },
      );
      const f = fakeIo();
      const ended = vi.fn();
      const connection = startNotificationSocket({ onNotification: () => {}, onSessionEnded: ended }, f.create);
      f.socket.emit('disconnect', 'io server disconnect');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(ended).not.toHaveBeenCalled();
      unavailable = false;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(ended).not.toHaveBeenCalled();
      expect(f.tokens).toEqual(['tok-1', 'tok-2']);
      connection.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

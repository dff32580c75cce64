import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { watchAdapterLink } from './adapter-link';

/** The part of an ioredis connection the watch uses: its status, its events and PING. */
class FakeConnection extends EventEmitter {
  status = 'ready';
  pings: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  ping() {
    return new Promise<void>((resolve, reject) => this.pings.push({ resolve, reject }));
  }
  goDown() {
    this.status = 'reconnecting';
    this.emit('close');
  }
  comeBack() {
    this.status = 'ready';
    this.emit('ready');
  }
}

const tick = () => new Promise((r) => setImmediate(r));

describe('watchAdapterLink', () => {
  it('reports a loss once, and the return only after a PING answered behind the re-subscription', async () => {
    const link = new FakeConnection();
    const lost: number[] = [];
    const restored: number[] = [];
    watchAdapterLink(link as unknown as Redis, { lost: (at) => lost.push(at), restored: (at) => restored.push(at) });
    link.goDown();
    link.goDown(); // a failed reconnection attempt closes again
    expect(lost).toHaveLength(1);
    link.comeBack();
    await tick();
    expect(restored).toEqual([]);
    link.pings[0].resolve();
    await tick();
    expect(restored).toEqual(lost);
  });

  it('waits for the next return when Redis goes again before the PING is answered', async () => {
    const link = new FakeConnection();
    const restored: number[] = [];
    watchAdapterLink(link as unknown as Redis, { lost: () => undefined, restored: (at) => restored.push(at) });
    link.goDown();
    link.comeBack();
    await tick();
    link.goDown();
    link.pings[0].reject(new Error('Connection is closed.'));
    await tick();
    expect(restored).toEqual([]);
    link.comeBack();
    await tick();
    link.pings[1].resolve();
    await tick();
    expect(restored).toHaveLength(1);
  });

  it('counts a connection not ready yet when the watch begins as lost (its first return replays), and stops', async () => {
    const link = new FakeConnection();
    link.status = 'connecting';
    const lost: number[] = [];
    const stop = watchAdapterLink(link as unknown as Redis, { lost: (at) => lost.push(at), restored: () => undefined });
    expect(lost).toHaveLength(1);
    stop();
    expect(link.listenerCount('ready') + link.listenerCount('close') + link.listenerCount('end')).toBe(0);
  });
});

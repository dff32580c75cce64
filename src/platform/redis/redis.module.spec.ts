import { AppConfig } from '../config/env.validation';
import { RedisConnection } from './redis.module';

describe('RedisConnection', () => {
  // Port 9 on loopback: nothing listens there, the connection is refused at once and retried.
  const config = { redisUrl: 'redis://127.0.0.1:9' } as AppConfig;

  it('closes a second connection in the middle of a reconnection without unhandled rejections; an awaited command still fails', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const redis = new RedisConnection(config);
      const subscriber = redis.duplicate();
      // As socket.io's adapter does: subscribed, never looked at.
      void subscriber.psubscribe('socket.io#*');
      void subscriber.subscribe('a', 'b');
      const awaited = subscriber.get('key');
      expect(subscriber.status).toBe('connecting');
      await redis.onApplicationShutdown();
      await expect(awaited).rejects.toThrow('Connection is closed.');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

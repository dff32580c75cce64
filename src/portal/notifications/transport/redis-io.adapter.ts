import { INestApplicationContext } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server } from 'socket.io';
import { RedisConnection } from '../../../platform/redis/redis.module';
import { LeanIoAdapter } from './lean-io.adapter';

/**
 * socket.io through Redis: a notification emitted to a room on one instance reaches that room's sockets on
 * every instance, and `disconnectSockets` (logout, force log-off) closes them wherever they are connected.
 */
export class RedisIoAdapter extends LeanIoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly redis: RedisConnection,
    tuning = true,
  ) {
    super(app, tuning);
  }

  protected override attachAdapter(server: Server): void {
    server.adapter(createAdapter(this.redis.duplicate(), this.redis.duplicate()));
  }
}

import { INestApplicationContext } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server, ServerOptions } from 'socket.io';
import { LeanIoAdapter } from '../notifications/lean-io.adapter';
import { RedisConnection } from './redis.module';

/**
 * socket.io through Redis: a notification emitted to a room on one instance reaches that room's sockets on
 * every instance, and `disconnectSockets` (logout, force log-off) closes them wherever they are connected.
 */
export class RedisIoAdapter extends LeanIoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly redis: RedisConnection,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options) as Server;
    server.adapter(createAdapter(this.redis.duplicate(), this.redis.duplicate()));
    return server;
  }
}

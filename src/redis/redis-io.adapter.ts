import { INestApplicationContext } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server, ServerOptions } from 'socket.io';
import { LeanIoAdapter } from '../notifications/lean-io.adapter';
import { broadcastAsOneWrite } from '../notifications/socket-memory';
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
    // A new adapter replaces the namespace's: its local deliveries are written as one buffer as well.
    broadcastAsOneWrite(server.of('/'));
    return server;
  }
}

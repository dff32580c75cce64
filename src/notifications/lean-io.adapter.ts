import { IoAdapter } from '@nestjs/platform-socket.io';
import { MessageMappingProperties } from '@nestjs/websockets';
import { Observable } from 'rxjs';
import { Server, ServerOptions, Socket } from 'socket.io';
import { broadcastAsOneWrite } from './socket-memory';

/**
 * socket.io for Nest without the per-socket streams Nest sets up for message handlers when a gateway has
 * none: the notifications socket only sends, and each connection otherwise keeps a few RxJS observables
 * (issue 16: memory per connection). Gateways with @SubscribeMessage handlers are bound as usual. Broadcasts
 * are written to each socket in one write (`broadcastAsOneWrite`).
 */
export class LeanIoAdapter extends IoAdapter {
  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options) as Server;
    broadcastAsOneWrite(server.of('/'));
    return server;
  }

  override bindMessageHandlers(
    socket: Socket,
    handlers: MessageMappingProperties[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(socket, handlers, transform);
  }
}

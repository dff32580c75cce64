import { IoAdapter } from '@nestjs/platform-socket.io';
import { MessageMappingProperties } from '@nestjs/websockets';
import { Observable } from 'rxjs';
import { Server, ServerOptions, Socket } from 'socket.io';
import { broadcastAsOneWrite } from './socket-memory';

/**
 * socket.io for Nest without the per-socket streams Nest sets up for message handlers when a gateway has
 * none: the notifications socket only sends, and each connection otherwise keeps a few RxJS observables
 * (memory per connection); its disconnect hook is a plain listener. Gateways with @SubscribeMessage
 * handlers are bound as usual. Broadcasts
 * are written to each socket in one write (`broadcastAsOneWrite`).
 */
export class LeanIoAdapter extends IoAdapter {
  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options) as Server;
    broadcastAsOneWrite(server.of('/'));
    return server;
  }

  /**
   * Nest's own registers a once-listener wrapped in a closure of its own on every socket (about 200 bytes
   * a connection in V8); 'disconnect' is emitted once, so a plain listener of Nest's callback does the same.
   */
  override bindClientDisconnect(client: Socket, callback: (reason: unknown) => void): void {
    client.on('disconnect', callback);
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

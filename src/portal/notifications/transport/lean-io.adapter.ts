import { INestApplicationContext, Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { MessageMappingProperties } from '@nestjs/websockets';
import { Observable } from 'rxjs';
import { Server, ServerOptions, Socket } from 'socket.io';
import { tuneTransport } from './tune-transport';

/**
 * socket.io for Nest, the seam of the notification transport. Through Nest's public adapter API it sets up no
 * per-socket streams for gateways without message handlers (the notifications socket only sends) and registers
 * the disconnect hook as a plain listener. With `tuning` on (SOCKET_TRANSPORT_TUNING, default on) and socket.io's
 * internals in the shape `socketIoInternalsProblems` checks, broadcasts are written as one frame straight to each
 * websocket and connections let go of their handshake's engine.io state (release-handshake.ts); otherwise
 * socket.io's own path, whole.
 */
export class LeanIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly tuning = true,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options) as Server;
    this.attachAdapter(server);
    const problems = this.tuning ? tuneTransport(server) : [];
    if (problems.length > 0)
      new Logger('SocketTransport').warn(
        `socket.io's internals changed (${problems.join('; ')}): the socket transport runs untuned, on socket.io's own path`,
      );
    return server;
  }

  /** Replaces the namespace's adapter before the tuning wraps it (the Redis adapter). */
  protected attachAdapter(server: Server): void {
    void server;
  }

  /**
   * Nest's own registers a once-listener wrapped in a closure of its own on every socket; 'disconnect' is emitted
   * once, so a plain listener of Nest's callback does the same.
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

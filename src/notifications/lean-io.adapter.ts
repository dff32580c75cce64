import { IoAdapter } from '@nestjs/platform-socket.io';
import { MessageMappingProperties } from '@nestjs/websockets';
import { Observable } from 'rxjs';
import { Socket } from 'socket.io';

/**
 * socket.io for Nest without the per-socket streams Nest sets up for message handlers when a gateway has
 * none: the notifications socket only sends, and each connection otherwise keeps a few RxJS observables
 * (issue 16: memory per connection). Gateways with @SubscribeMessage handlers are bound as usual.
 */
export class LeanIoAdapter extends IoAdapter {
  override bindMessageHandlers(
    socket: Socket,
    handlers: MessageMappingProperties[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(socket, handlers, transform);
  }
}

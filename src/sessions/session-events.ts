import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

export interface SessionEndedEvent {
  sessionId: string;
  userId: number;
  reason: string;
}

/** In-process signal that sessions ended, so live connections (the notifications socket) close at once. */
@Injectable()
export class SessionEvents extends EventEmitter {
  emitEnded(event: SessionEndedEvent): void {
    this.emit('ended', event);
  }
  onEnded(listener: (event: SessionEndedEvent) => void): () => void {
    this.on('ended', listener);
    return () => this.off('ended', listener);
  }
}

import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';

export interface SessionEndedEvent {
  sessionId: string;
  userId: number;
  organisationId: number;
  reason: string;
}

export interface SessionStartedEvent {
  sessionId: string;
  userId: number;
  organisationId: number;
}

export interface PolicyChangedEvent {
  organisationId: number;
}

/**
 * In-process signal that sessions started or ended, so live connections (the notifications socket) close at once
 * and the User sessions page of their organisation reloads.
 */
@Injectable()
export class SessionEvents extends EventEmitter {
  emitEnded(event: SessionEndedEvent): void {
    this.emit('ended', event);
  }
  onEnded(listener: (event: SessionEndedEvent) => void): () => void {
    this.on('ended', listener);
    return () => this.off('ended', listener);
  }
  emitStarted(event: SessionStartedEvent): void {
    this.emit('started', event);
  }
  onStarted(listener: (event: SessionStartedEvent) => void): () => void {
    this.on('started', listener);
    return () => this.off('started', listener);
  }
  /** An organisation's security policy changed: its live connections must meet the new rules. */
  emitPolicyChanged(event: PolicyChangedEvent): void {
    this.emit('policy-changed', event);
  }
  onPolicyChanged(listener: (event: PolicyChangedEvent) => void): () => void {
    this.on('policy-changed', listener);
    return () => this.off('policy-changed', listener);
  }
}

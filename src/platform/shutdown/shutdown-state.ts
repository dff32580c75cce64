import { Global, Injectable, Logger, Module } from '@nestjs/common';

/**
 * Whether this process is shutting down. From the first moment of a shutdown readiness answers 503 (so a load
 * balancer takes the instance out of rotation) and the pieces that hold long-lived connections let go of them
 * (the notifications socket tells its clients to reconnect, which they do to another instance or to the next start).
 */
@Injectable()
export class ShutdownState {
  private readonly logger = new Logger('Shutdown');
  private readonly listeners: Array<() => void> = [];
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  /** Runs `listener` when the shutdown begins. */
  onDrain(listener: () => void): void {
    this.listeners.push(listener);
  }

  begin(): void {
    if (this.started) return;
    this.started = true;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (e) {
        this.logger.error(`A shutdown step failed: ${(e as Error).message}`);
      }
    }
  }
}

@Global()
@Module({ providers: [ShutdownState], exports: [ShutdownState] })
export class LifecycleModule {}

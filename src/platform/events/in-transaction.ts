import { EventEmitter2 } from '@nestjs/event-emitter';
import { EntityManager } from 'typeorm';

/** An event's name, carrying (for the compiler only) the payload its handlers receive. */
export type EventName<P> = string & { readonly payloadOf?: P };

/** The payload of an event published inside the writer's open transaction. */
export interface InTransaction {
  /** The writer's transaction: a handler writes through it only, so what it writes commits or rolls back with it. */
  tx: EntityManager;
}

/**
 * Runs the handlers of `name` (methods declared `@OnEvent(name, { suppressErrors: false })`, found by Nest at start)
 * one after another in the order Nest found them, each awaited, inside the writer's open transaction: a handler's
 * error reaches the writer, whose transaction then rolls back with everything the handlers wrote.
 *
 * Not EventEmitter2's `emitAsync`: it starts every handler at once, and handlers sharing one transaction must not
 * interleave on its connection: when one fails the writer rolls back while the others are still writing, and on
 * SQLite their later statements would then run outside any transaction (database/sqlite/serialiser.ts).
 */
export async function publishInTransaction<P extends InTransaction>(
  emitter: EventEmitter2,
  name: EventName<P>,
  payload: P,
): Promise<void> {
  if (!payload.tx.queryRunner?.isTransactionActive)
    throw new Error(`The event ${name} must be published inside the writer's open transaction`);
  for (const handler of [...emitter.listeners(name)]) await handler.call(emitter, payload);
}

import { EventEmitter2 } from '@nestjs/event-emitter';
import { EventName } from './in-transaction';

/**
 * Announces what already happened (committed, or nothing to roll back) to the handlers of `name` (methods declared
 * `@OnEvent(name)`, found by Nest at start). Every handler starts before this returns, in the order Nest found them;
 * none is awaited, and a handler's failure is logged by the library, never thrown at the writer.
 */
export function publish<P>(emitter: EventEmitter2, name: EventName<P>, payload: NoInfer<P>): void {
  emitter.emit(name, payload);
}

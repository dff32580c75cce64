/** Features announcing what happened to the features that react (@nestjs/event-emitter). */
export { publish } from './after-commit';
export { publishInTransaction } from './in-transaction';
export type { EventName, InTransaction } from './in-transaction';

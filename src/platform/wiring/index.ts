/** How a lower feature asks a higher one without importing it: a port it declares, implemented above, found at start. */
export { Implements, Requires } from './ports';
export type { Port } from './ports';
export { WiringModule } from './wiring.module';

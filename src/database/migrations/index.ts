import { InitialSchema1763780000000 } from './1763780000000-initial-schema';

/** Every migration, in order. Listed explicitly so the build, jest and the CLI load the same set. */
export const MIGRATIONS = [InitialSchema1763780000000];

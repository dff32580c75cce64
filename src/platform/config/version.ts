import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The product version, from package.json (two directories above src/platform/config and dist/platform/config). */
export const version: string = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'),
).version;

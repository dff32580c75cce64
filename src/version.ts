import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The product version, from package.json (one directory above both src/ and dist/). */
export const version: string = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version;

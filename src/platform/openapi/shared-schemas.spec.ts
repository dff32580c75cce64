import { readFileSync } from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sharedSchemas, OUT } = require('../../../scripts/openapi-schemas.js') as {
  sharedSchemas: () => string;
  OUT: string;
};

describe('src/platform/openapi/shared-schemas.json', () => {
  it('is what src/shared generates today (else: npm run openapi:schemas)', () => {
    expect(readFileSync(OUT, 'utf8')).toBe(sharedSchemas());
  }, 180_000);
});

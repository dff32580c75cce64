#!/usr/bin/env node
// Generates the JSON Schemas of every type exported by src/shared (the API's answers, which the client reads too)
// into src/platform/openapi/shared-schemas.json, from which the OpenAPI document takes its response schemas.
// `npm run openapi:schemas` after changing a type in src/shared; a unit test fails while the file is stale.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { createGenerator } = require('ts-json-schema-generator');

const root = join(__dirname, '..');
const OUT = join(root, 'src/platform/openapi/shared-schemas.json');

/** The schemas, with refs pointing into the OpenAPI document's components. */
function sharedSchemas() {
  const schema = createGenerator({
    path: join(root, 'src/shared/**/*.ts'),
    tsconfig: join(root, 'tsconfig.json'),
    type: '*',
    expose: 'export',
    topRef: true,
    jsDoc: 'basic',
    skipTypeCheck: true,
    // Answers hold exactly what their type says: an undeclared field is a drift the e2e validation reports.
    additionalProperties: false,
  }).createSchema('*');
  // Sorted by name: the generator follows the order the file system lists src/shared's folders in.
  const definitions = Object.fromEntries(
    Object.entries(schema.definitions ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const json = JSON.stringify(definitions, null, 2).replaceAll('#/definitions/', '#/components/schemas/');
  return `${json}\n`;
}

if (require.main === module) {
  writeFileSync(OUT, sharedSchemas());
  console.log(`wrote ${OUT}`);
}

module.exports = { sharedSchemas, OUT };

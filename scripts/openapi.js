#!/usr/bin/env node
// Writes the OpenAPI document without serving: the application is assembled in-process (TypeScript compiled on
// load by swc, as the tests do) on a throwaway DATA_DIR and SQLite file. `npm run openapi -- [out.json]`.
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { transformSync } = require('@swc/core');

const [, swcOptions] = require('../jest.swc');
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcOptions, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tax-portal-openapi-'));
  Object.assign(process.env, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require('../src/app/app.module');
  const { openApiDocument } = require('../src/platform/openapi/document');
  const app = await NestFactory.create(AppModule, { logger: false });
  try {
    const json = `${JSON.stringify(openApiDocument(app), null, 2)}\n`;
    const out = process.argv[2];
    if (out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, json);
    } else process.stdout.write(json);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

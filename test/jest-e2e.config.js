/** e2e tests: the Nest testing module and supertest on a real SQLite file per test file. */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test/e2e'],
  testRegex: '\\.e2e-spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: { '^.+\\.(t|j|mj|cj)s$': require('../jest.swc') },
  transformIgnorePatterns: [],
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/utils/env.setup.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/utils/openapi-after-each.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};

/** Several instances: two built servers on one PostgreSQL and one Redis (TEST_DATABASE_URL, TEST_REDIS_URL). */
module.exports = {
  rootDir: '..',
  roots: ['<rootDir>/test/multi'],
  testRegex: '\\.spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: { '^.+\\.(t|j|mj|cj)s$': require('../jest.swc') },
  transformIgnorePatterns: [],
  testEnvironment: 'node',
  testTimeout: 60000,
  maxWorkers: 1,
};

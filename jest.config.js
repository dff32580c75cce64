/** Unit tests: specs beside the code in src/. NestJS 12 and a few others ship ES modules: transform them too. */
module.exports = {
  rootDir: '.',
  roots: ['<rootDir>/src'],
  testRegex: '\\.spec\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: { '^.+\\.(t|j|mj|cj)s$': require('./jest.swc') },
  transformIgnorePatterns: [],
  testEnvironment: 'node',
  // Every core: left to itself jest keeps one for its own process, which is half a 2-core CI machine.
  maxWorkers: '100%',
};

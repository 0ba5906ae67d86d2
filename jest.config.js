/** @type {import('jest').Config} */
const swc = (syntax) => ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax } }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': swc('typescript'), '^.+\\.m?js$': swc('ecmascript') },
  // @middy/*, @apidevtools/json-schema-ref-parser, jose and oauth4webapi ship ESM only: transform them to CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@apidevtools|jose|oauth4webapi)/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/env.ts', '<rootDir>/test/support/bind.ts'],
  testTimeout: 60000,
};

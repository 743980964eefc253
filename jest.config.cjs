// Run through `npm test` (or with NODE_OPTIONS=--experimental-vm-modules): PGlite
// loads its WebAssembly with a dynamic import, which Jest's VM only allows then.
//
// Three suites: unit (no infrastructure), integration (real PostgreSQL and
// Kafka, started by the global setup) and e2e (the real processes and HTTP
// surface). swc compiles TypeScript with decorator metadata for Nest.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias.replace(/\//g, '\\/')}$`, `<rootDir>/${target}`]));

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    },
  ],
};

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform,
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/.data', '<rootDir>/.infra'],
};

module.exports = {
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/libs/platform/testing/src/jest-unit-timeout.cjs'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/libs/platform/testing/src/global-setup.cjs',
      setupFilesAfterEnv: ['<rootDir>/libs/platform/testing/src/jest-long-timeout.cjs'],
    },
    {
      // Faults under load (npm run test:resilience): stops Kafka and PostgreSQL, so it runs alone, after the rest.
      ...common,
      displayName: 'resilience',
      testMatch: ['<rootDir>/tools/**/*.resilience-spec.ts'],
      globalSetup: '<rootDir>/libs/platform/testing/src/global-setup.cjs',
      setupFilesAfterEnv: ['<rootDir>/libs/platform/testing/src/jest-long-timeout.cjs'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/platform/testing/src/global-setup.cjs',
      setupFilesAfterEnv: ['<rootDir>/libs/platform/testing/src/jest-long-timeout.cjs'],
    },
  ],
};

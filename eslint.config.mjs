// Lint rules for the whole workspace. The module-boundary rule is what keeps the
// services apart: a service library may use platform and contracts libraries only,
// never another service library (services meet through HTTP and events).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

// The test library (libs/platform/testing, tag type:testing: brokers, stand-ins, waits) is for tests only: production
// code may not import it; the files below may.
const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.int-spec.ts',
  '**/*.e2e-spec.ts',
  '**/*.resilience-spec.ts',
  'libs/platform/testing/**/*.ts',
  'tools/embedded/src/e2e/**/*.ts',
  'tools/embedded/src/resilience/**/*.ts',
  'tools/bench/**/*.ts',
];

/** The module-boundary rule; `testing` adds the test library to what every kind of project may import. */
function moduleBoundaries(testing) {
  const plus = (tags) => (testing ? [...tags, 'type:testing'] : tags);
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allowCircularSelfDependency: false,
      banTransitiveDependencies: false,
      depConstraints: [
        { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: plus(['type:contracts']) },
        { sourceTag: 'type:platform', onlyDependOnLibsWithTags: plus(['type:platform', 'type:contracts']) },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:testing', 'type:platform', 'type:contracts'] },
        { sourceTag: 'type:service', onlyDependOnLibsWithTags: plus(['type:platform', 'type:contracts']) },
        // The connector SDK runs in other teams' services: it knows the contracts, nothing of the service's insides.
        { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: ['type:contracts'] },
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: plus(['type:service', 'type:platform', 'type:contracts']) },
        { sourceTag: 'type:tool', onlyDependOnLibsWithTags: plus(['type:app', 'type:service', 'type:platform', 'type:contracts', 'type:tool', 'type:sdk']) },
      ],
    },
  ];
}

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', '**/.infra/**', '**/.nx/**', '**/coverage/**', '**/.reports/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(false),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // The console is a browser bundle that calls the public API: the contracts' types only (erased by the build),
    // never their runtime code (zod) nor anything of a service.
    files: ['apps/console/**/*.ts', 'apps/console/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@dsar/*'], allowTypeImports: true, message: 'The console imports only types from the workspace (import type).' }] },
      ],
    },
  },
  {
    // The person's download page (docs/delivery.md) is a bundle of its own, kept small: no framework and nothing of the
    // console's code (an import that leaves apps/console/portal/), and like the console the contracts' types only.
    files: ['apps/console/portal/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@dsar/*'], allowTypeImports: true, message: 'The download page imports only types from the workspace (import type).' },
            { group: ['preact', 'preact/*'], message: 'The download page uses the DOM itself, no framework.' },
            { regex: '^(\\.\\./){2,}', message: "The download page imports nothing of the console's code." },
          ],
        },
      ],
    },
  },
  {
    // Contracts are plain data shared with every consumer: no framework imports.
    files: ['libs/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg'] }],
    },
  },
  {
    // The services and the e2e scenarios read the time through the Clock port (docs/adr/0019-one-clock-port.md), so
    // that tests can set it; durations and timeouts use performance.now().
    files: ['libs/services/**/*.ts', 'tools/embedded/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "Read the time from the injected Clock (or the test system's clock), not new Date()." },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: "Read the time from the injected Clock (or the test system's clock); for durations use performance.now().",
        },
      ],
    },
  },
  {
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(true) },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'libs/platform/testing/**/*.ts', 'tools/embedded/src/e2e/**/*.ts'],
    // Tests read JSON answers field by field; typing every body would only restate the contracts.
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs', '**/*.js', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];

import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type * as EslintModule from 'eslint';

/**
 * The module-boundary rule of `npm run lint` is what keeps the services apart:
 * a service library that imports another service library must fail the lint,
 * while an app shell may import its service; and production code must not
 * import the test library (libs/platform/testing), which tests may. Checked on
 * real files with the workspace's own ESLint configuration.
 *
 * The rule reads the Nx project graph from the cache in `.nx/` and is skipped
 * (with only a printed warning) when there is none, so the graph is built
 * first, as any `nx` command does.
 */

const repoRoot = path.resolve(__dirname, '../..');
const RULE = '@nx/enforce-module-boundaries';
const PROBE_SOURCE = `import { lifecycleClockService } from '@dsar/services/lifecycle-clock';\nexport const x = lifecycleClockService;\n`;
const TESTING_PROBE_SOURCE = `import { waitFor } from '@dsar/platform/testing';\nexport const x = waitFor;\n`;

// ESLint loads eslint.config.mjs with `import()`, which Jest's module sandbox
// refuses unless Node runs with --experimental-vm-modules; so ESLint is loaded
// with Node's own require (Jest's `node:module` is a subclass of Node's Module
// whose createRequire stays in the sandbox; the base class's does not).
function loadEslint(): typeof EslintModule {
  type NodeModule = typeof import('node:module');
  const sandboxed = jest.requireActual<NodeModule>('node:module');
  const base = Object.getPrototypeOf(sandboxed.Module) as Partial<NodeModule>;
  const createRequire = base.createRequire ?? sandboxed.createRequire;
  return createRequire(__filename)('eslint');
}

/** Writes a probe file, lints it as `npm run lint` would, and always deletes it. */
async function lintProbe(relativePath: string, source = PROBE_SOURCE): Promise<EslintModule.Linter.LintMessage[]> {
  const file = path.join(repoRoot, relativePath);
  await writeFile(file, source, { flag: 'wx' });
  try {
    const { ESLint } = loadEslint();
    const [result] = await new ESLint({ cwd: repoRoot }).lintFiles([file]);
    return result.messages;
  } finally {
    await rm(file, { force: true });
  }
}

const probeName = `__boundary_probe_${process.pid}__.ts`;

describe('@nx/enforce-module-boundaries', () => {
  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [path.join(repoRoot, 'node_modules/nx/bin/nx.js'), 'show', 'projects'], {
      cwd: repoRoot,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    });
  }, 60_000);

  it('rejects a service library importing another service library', async () => {
    const messages = await lintProbe(`libs/services/notifier/src/${probeName}`);
    const boundary = messages.filter((m) => m.ruleId === RULE);
    expect(boundary).toHaveLength(1);
    expect(boundary[0].severity).toBe(2);
    expect(boundary[0].message).toMatch(/type:service/);
  }, 60_000);

  it('lets an app shell import a service library', async () => {
    const messages = await lintProbe(`apps/notifier/src/${probeName}`);
    expect(messages.filter((m) => m.ruleId === RULE)).toEqual([]);
    expect(messages.filter((m) => m.fatal)).toEqual([]);
  }, 60_000);

  it.each([`libs/services/notifier/src/application/${probeName}`, `libs/platform/persistence/src/${probeName}`, `apps/notifier/src/${probeName}`])(
    'rejects production code importing the test library (%s)',
    async (probe) => {
      const boundary = (await lintProbe(probe, TESTING_PROBE_SOURCE)).filter((m) => m.ruleId === RULE);
      expect(boundary).toHaveLength(1);
      expect(boundary[0].severity).toBe(2);
    },
    60_000,
  );

  it.each([
    `libs/services/notifier/src/application/${probeName.replace(/\.ts$/, '.spec.ts')}`,
    `libs/services/notifier/src/${probeName.replace(/\.ts$/, '.int-spec.ts')}`,
    `tools/embedded/src/e2e/${probeName}`,
    `tools/bench/${probeName}`,
  ])(
    'lets a test import the test library (%s)',
    async (probe) => {
      const messages = await lintProbe(probe, TESTING_PROBE_SOURCE);
      expect(messages.filter((m) => m.ruleId === RULE)).toEqual([]);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
    },
    60_000,
  );
});

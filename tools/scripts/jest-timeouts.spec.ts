import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Every Jest project gives its tests a timeout sized for a busy two-core machine (CI's): Jest's 5 s default failed
 * tests that spawn a process or read a file while the machine was loaded. A test may still ask for more.
 */
const repoRoot = path.resolve(__dirname, '../..');
const config = require(path.join(repoRoot, 'jest.config.cjs')) as { projects: { displayName: string; setupFilesAfterEnv?: string[] }[] };

function timeoutOf(project: { setupFilesAfterEnv?: string[] }): number | undefined {
  for (const file of project.setupFilesAfterEnv ?? []) {
    const text = readFileSync(file.replace('<rootDir>', repoRoot), 'utf8');
    const set = /jest\.setTimeout\((\d+)\)/.exec(text);
    if (set) return Number(set[1]);
  }
  return undefined;
}

describe('Jest timeouts', () => {
  it.each(config.projects.map((p) => [p.displayName, p] as const))('the %s project allows at least 30 s a test', (_name, project) => {
    expect(timeoutOf(project)).toBeGreaterThanOrEqual(30_000);
  });
});

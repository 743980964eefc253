import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { Proc } from './process';
import { processTree, sleep } from './util';

/** A program the benchmarks run beside the product (Fides's uvicorn forks workers): stopped with everything it started. */

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('Proc.program', () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'dsar-bench-proc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs in its folder, lists its workers as its tree, and stops them with it', async () => {
    // bash leaves its background jobs running when it is terminated: they must go with the group all the same.
    const proc = Proc.program('forker', 'bash', ['-c', 'pwd; sleep 300 & sleep 300 & wait'], {}, join(dir, 'forker.log'), dir);
    let tree: number[] = [];
    for (let i = 0; i < 100 && tree.length < 3; i++) {
      await sleep(50);
      tree = processTree(proc.pid);
    }
    expect(tree).toHaveLength(3);
    expect(tree[0]).toBe(proc.pid);

    await proc.stop();
    for (let i = 0; i < 100 && tree.some(alive); i++) await sleep(50);
    expect(tree.filter(alive)).toEqual([]);
    expect(proc.tail()).toContain(dir);
    // A second stop is the same stop.
    await expect(proc.stop()).resolves.toBeUndefined();
  });
});

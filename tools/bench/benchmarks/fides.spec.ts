import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';
import { Proc } from '../harness/process';
import { processTree, sleep } from '../harness/util';
import type { Sample } from './intake';
import { fidesBody, fidesEnv, fidesSide, recount, succeededIn } from './fides';

/** The fides benchmark's own arithmetic: what counts as an accepted create, and the run's figures recounted. */

const sample = (over: Partial<Sample> = {}): Sample => ({
  connections: 16,
  durationS: 20,
  ok: 1000,
  errors: 0,
  non2xx: 0,
  transportErrors: 0,
  timeouts: 0,
  throughput: 50,
  p50: 200,
  p90: 300,
  p99: 400,
  max: 500,
  mean: 210,
  statusCodes: { '200': 1000 },
  cpuMsPerOk: 16,
  cpuMsPerOkByPid: { 10: 1, 11: 15 },
  ...over,
});

describe('fides benchmark', () => {
  it("counts the succeeded entries of Fides's answer, and nothing in any other body", () => {
    expect(succeededIn(JSON.stringify({ succeeded: [{ id: 'pri_1' }], failed: [] }))).toBe(1);
    expect(succeededIn(JSON.stringify({ succeeded: [], failed: [{ message: 'duplicate' }] }))).toBe(0);
    expect(succeededIn(JSON.stringify({ detail: 'Not Found' }))).toBe(0);
    expect(succeededIn('<html>Internal Server Error</html>')).toBe(0);
  });

  it("sends the recipe's body: one access request by email under the default access policy", () => {
    const requestedAt = new Date('2026-12-01T10:00:00.000Z');
    expect(JSON.parse(fidesBody(requestedAt))).toEqual([{ identity: { email: 'jane@example.org' }, policy_key: 'default_access_policy', requested_at: '2026-12-01T10:00:00.000Z' }]);
  });

  it('keeps a run whose every 200 was accepted as it is', () => {
    expect(recount(sample(), 1000)).toEqual(sample());
  });

  it('counts a 200 without a succeeded entry as an error, and the CPU over the accepted creates only', () => {
    const r = recount(sample(), 800);
    expect(r.ok).toBe(800);
    expect(r.errors).toBe(200);
    expect(r.throughput).toBe(40);
    expect(r.cpuMsPerOk).toBe(20);
    expect(r.cpuMsPerOkByPid).toEqual({ 10: 1.25, 11: 18.75 });
  });

  it('has no CPU per create when nothing was accepted', () => {
    const r = recount(sample(), 0);
    expect(r.throughput).toBe(0);
    expect(r.errors).toBe(1000);
    expect(r.cpuMsPerOk).toBeNaN();
  });

  it("gives Fides the project's database by parts, a 32-character encryption key and approval required", () => {
    const env = fidesEnv(new URL('postgres://dsar:p%40ss@127.0.0.1:5433/fides_bench_1'), 6390, { id: 'client', secret: 'secret' });
    expect(env).toMatchObject({
      FIDES__DATABASE__SERVER: '127.0.0.1',
      FIDES__DATABASE__PORT: '5433',
      FIDES__DATABASE__USER: 'dsar',
      FIDES__DATABASE__PASSWORD: 'p@ss',
      FIDES__DATABASE__DB: 'fides_bench_1',
      FIDES__REDIS__PORT: '6390',
      FIDES__SECURITY__OAUTH_ROOT_CLIENT_ID: 'client',
      FIDES__SECURITY__OAUTH_ROOT_CLIENT_SECRET: 'secret',
      FIDES__EXECUTION__REQUIRE_MANUAL_REQUEST_APPROVAL: 'true',
    });
    expect(env.FIDES__SECURITY__APP_ENCRYPTION_KEY).toHaveLength(32);
  });

  it('notices a worker replaced during a run and leaves that run without a CPU figure', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'dsar-bench-fides-'));
    // A stand-in for uvicorn's supervisor: a parent with two workers.
    const proc = Proc.program('supervisor', 'bash', ['-c', 'sleep 300 & sleep 300 & wait'], {}, join(dir, 'supervisor.log'), dir);
    try {
      let tree: number[] = [];
      for (let i = 0; i < 100 && tree.length < 3; i++) {
        await sleep(50);
        tree = processTree(proc.pid);
      }
      expect(tree).toHaveLength(3);
      const side = fidesSide({ url: 'http://127.0.0.1:9', proc, token: 't', readyMs: 0, migrateMs: 0 }, () => '[]');

      // Nothing answered in this stand-in: no accepted create, so no CPU per create either way; but by process still.
      side.spec(16, 1);
      expect(Object.keys(side.recount?.(sample()).cpuMsPerOkByPid ?? {})).toEqual(['10', '11']);
      expect(side.restarts).toEqual([]);

      side.spec(16, 1);
      process.kill(tree[1], 'SIGKILL');
      for (let i = 0; i < 100 && processTree(proc.pid).includes(tree[1]); i++) await sleep(50);
      const r = side.recount?.(sample());
      expect(side.restarts).toEqual([[tree[1]]]);
      expect(r?.cpuMsPerOk).toBeNaN();
      expect(r?.cpuMsPerOkByPid).toEqual({});
    } finally {
      await proc.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

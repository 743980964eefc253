import { spawn } from 'node:child_process';
import { figure } from '../harness/figures';
import type { Benchmark } from '../harness/types';
import { REPO_ROOT } from '../harness/util';

/**
 * The older stand-alone benchmarks (their own sections of docs/performance.md, their own `npm run bench:*`
 * scripts), runnable through the harness by name: `npm run bench -- audit`. Each runs as it always has, in a
 * child process; the harness keeps its whole output in the JSON file and reports its wall time. They are not
 * part of the default run (each takes minutes and judges its own targets in its output).
 */
function script(name: string, file: string, summary: string): Benchmark {
  return {
    name,
    summary: `${summary} (${file})`,
    inDefault: false,
    needsInfra: name === 'audit',
    async run(ctx) {
      const t0 = performance.now();
      const { code, output } = await new Promise<{ code: number | null; output: string }>((ok, fail) => {
        const child = spawn(process.execPath, ['tools/scripts/run-ts.cjs', file], { cwd: REPO_ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        const keep = (chunk: Buffer): void => {
          out += chunk.toString('utf8');
          process.stdout.write(chunk.toString('utf8').replace(/^(?=.)/gm, `    ${name} | `));
        };
        child.stdout.on('data', keep);
        child.stderr.on('data', keep);
        child.on('error', fail);
        child.on('exit', (c) => ok({ code: c, output: out }));
        // An interrupted run stops it; the scripts clean up after themselves on SIGTERM.
        ctx.defer(async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        });
      });
      if (code !== 0) throw new Error(`${file} exited with ${code}:\n${output.trimEnd().split('\n').slice(-20).join('\n')}`);
      ctx.log(`    ${file} done`);
      return {
        title: `${name} — ${summary}`,
        method: `\`node tools/scripts/run-ts.cjs ${file}\` as it is (see its own section of this document for what it measures and its figures); its output is kept in the JSON file.`,
        figures: [figure('wall', 'wall time of the script', 's', [(performance.now() - t0) / 1000])],
        raw: { output },
      };
    },
  };
}

export const audit = script('audit', 'tools/bench/audit-chain.bench.ts', 'audit chain: verifying 100,000 entries, append rate');
export const evidence = script('evidence', 'tools/bench/evidence-upload.bench.ts', 'evidence uploads: 50 × 20 MiB through the system, peak RSS growth');
export const artifact = script('artifact', 'tools/bench/artifact-transfer.bench.ts', 'fulfilment artifacts: 1 GiB up and down through the gateway against dd');

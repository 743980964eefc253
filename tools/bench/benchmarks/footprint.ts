import { join } from 'node:path';
import { atMost, figure } from '../harness/figures';
import { DistributedSystem, SERVICES, type ServiceName, startEmbedded } from '../harness/system';
import type { Benchmark, Context, Figure } from '../harness/types';
import { median, quiesce, sleep } from '../harness/util';

/**
 * footprint: the idle RSS of each service and of embedded mode, and how long embedded mode takes to be ready
 * from a cold start. The services' target is judged on the built output (`npm run build`, what the image runs,
 * ADR 0030); the services with their TypeScript compiled at start by tools/scripts/run-ts.cjs (as `npm run
 * start:distributed` runs them in development) are measured beside it.
 */

const MiB = 2 ** 20;

/** RSS of every process at once, `samples` times 200 ms apart, after `settleS` idle seconds; the median per process. */
async function idleRssOf(procs: Map<string, { rss(): number | undefined; name: string; exit?: string }>, settleS: number, samples: number): Promise<Map<string, number>> {
  await sleep(settleS * 1000);
  const values = new Map<string, number[]>();
  for (let i = 0; i < samples; i++) {
    for (const [name, p] of procs) {
      const rss = p.rss();
      if (rss === undefined) throw new Error(`${p.name} ${p.exit ?? 'is gone'}`);
      values.set(name, [...(values.get(name) ?? []), rss]);
    }
    if (i < samples - 1) await sleep(200);
  }
  return new Map([...values].map(([name, v]) => [name, median(v)]));
}

async function distributedIdle(ctx: Context, dir: string, build?: { entry(app: string): string }): Promise<{ rss: Map<string, number>; readyMs: number }> {
  const sys = await DistributedSystem.start({ dir, ...(build ? { entry: (s: ServiceName) => build.entry(s), migrate: build.entry('migrate') } : {}) });
  try {
    const rss = await idleRssOf(sys.processes, ctx.settings.settleS, ctx.settings.rssSamples);
    return { rss, readyMs: sys.readyMs };
  } finally {
    await sys.stop();
  }
}

async function sharedIdle(ctx: Context): Promise<{ rss: Map<string, number>; readyMs: number }> {
  const sys = await ctx.distributed();
  await quiesce(sys.pids, ctx.settings.quiesceTimeoutS * 1000);
  return { rss: await idleRssOf(sys.processes, ctx.settings.settleS, ctx.settings.rssSamples), readyMs: sys.readyMs };
}

/** The shared embedded system (smoke runs): the time it took to be ready, and its RSS now, once idle. */
async function sharedEmbedded(ctx: Context): Promise<{ readyMs: number; rss: number }> {
  const e = await ctx.embedded();
  await quiesce([e.proc.pid], ctx.settings.quiesceTimeoutS * 1000);
  const rss = await idleRssOf(new Map([['embedded', e.proc]]), ctx.settings.settleS, ctx.settings.rssSamples);
  return { readyMs: e.readyMs, rss: rss.get('embedded') as number };
}

async function embeddedCold(ctx: Context, dir: string, entry?: string): Promise<{ readyMs: number; rss: number }> {
  const e = await startEmbedded(dir, entry, entry ? 'embedded-built' : 'embedded');
  try {
    const rss = await idleRssOf(new Map([['embedded', e.proc]]), ctx.settings.settleS, ctx.settings.rssSamples);
    return { readyMs: e.readyMs, rss: rss.get('embedded') as number };
  } finally {
    await e.proc.stop();
  }
}

export const footprint: Benchmark = {
  name: 'footprint',
  summary: 'idle RSS of each service (built output) and of embedded mode; embedded cold start',
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const build = await ctx.build();
    // A full run stops the systems the other benchmarks shared first: idle, they would still take CPU from the starts
    // measured here. A smoke run measures those (started from the built output in smoke runs) instead of starting others.
    if (!ctx.smoke) await ctx.releaseShared();

    const built: Map<string, number>[] = [];
    const source: Map<string, number>[] = [];
    const builtReady: number[] = [];
    const sourceReady: number[] = [];
    const embeddedSource: { readyMs: number; rss: number }[] = [];
    const embeddedBuilt: { readyMs: number; rss: number }[] = [];
    for (let rep = 0; rep < ctx.repeat; rep++) {
      const d = ctx.smoke ? await sharedIdle(ctx) : await distributedIdle(ctx, join(ctx.scratch, `footprint-${rep}-built`), build);
      built.push(d.rss);
      builtReady.push(d.readyMs);
      ctx.log(`    rep ${rep + 1} services, built output: ${[...d.rss].map(([s, v]) => `${s} ${(v / MiB).toFixed(0)}`).join(', ')} MiB; ready in ${(d.readyMs / 1000).toFixed(1)} s`);
      if (settings.footprintSource) {
        const s = await distributedIdle(ctx, join(ctx.scratch, `footprint-${rep}-source`));
        source.push(s.rss);
        sourceReady.push(s.readyMs);
        ctx.log(`    rep ${rep + 1} services, run-ts.cjs: ${[...s.rss].map(([n, v]) => `${n} ${(v / MiB).toFixed(0)}`).join(', ')} MiB; ready in ${(s.readyMs / 1000).toFixed(1)} s`);
      }
      if (settings.footprintEmbeddedSource) {
        const es = await embeddedCold(ctx, join(ctx.scratch, `footprint-${rep}-embedded`));
        embeddedSource.push(es);
        ctx.log(`    rep ${rep + 1} embedded, npm start: ready in ${(es.readyMs / 1000).toFixed(2)} s, ${(es.rss / MiB).toFixed(0)} MiB idle`);
      }
      const eb = ctx.smoke ? await sharedEmbedded(ctx) : await embeddedCold(ctx, join(ctx.scratch, `footprint-${rep}-embedded-built`), build.entry('embedded'));
      embeddedBuilt.push(eb);
      ctx.log(`    rep ${rep + 1} embedded, built output: ready in ${(eb.readyMs / 1000).toFixed(2)} s, ${(eb.rss / MiB).toFixed(0)} MiB idle`);
    }

    const mib = (xs: number[]) => xs.map((v) => v / MiB);
    const figures: Figure[] = [];
    for (const s of SERVICES) {
      figures.push(figure(`built.${s}`, `${s}: idle RSS, built output`, 'MiB', mib(built.map((m) => m.get(s) as number)), { target: atMost(120, 'MiB') }));
    }
    figures.push(figure('built.total', 'the eight services: idle RSS in all, built output', 'MiB', mib(built.map((m) => [...m.values()].reduce((a, b) => a + b, 0)))));
    figures.push(
      figure(
        'built.ready',
        'the eight services, built output: start to all ready',
        's',
        builtReady.map((v) => v / 1000),
      ),
    );
    if (source.length > 0) {
      for (const s of SERVICES) figures.push(figure(`source.${s}`, `${s}: idle RSS, TypeScript compiled at start (run-ts.cjs, development)`, 'MiB', mib(source.map((m) => m.get(s) as number))));
      figures.push(figure('source.total', 'the eight services: idle RSS in all, run-ts.cjs', 'MiB', mib(source.map((m) => [...m.values()].reduce((a, b) => a + b, 0)))));
      figures.push(
        figure(
          'source.ready',
          'the eight services, run-ts.cjs: start to all ready',
          's',
          sourceReady.map((v) => v / 1000),
        ),
      );
    }
    if (embeddedSource.length > 0) {
      figures.push(
        figure(
          'embedded.ready',
          'embedded (npm start), fresh data directory: start to ready',
          's',
          embeddedSource.map((e) => e.readyMs / 1000),
          { target: atMost(5, 's') },
        ),
        figure('embedded.rss', 'embedded (npm start): idle RSS', 'MiB', mib(embeddedSource.map((e) => e.rss))),
      );
    }
    figures.push(
      figure(
        'embedded-built.ready',
        'embedded, built output, fresh data directory: start to ready',
        's',
        embeddedBuilt.map((e) => e.readyMs / 1000),
      ),
      figure('embedded-built.rss', 'embedded, built output: idle RSS', 'MiB', mib(embeddedBuilt.map((e) => e.rss))),
    );
    return {
      title: 'footprint — idle memory and cold start',
      method:
        "Each repetition starts the eight services from the built output (`npm run build` into the run's scratch directory, `node dist/apps/<service>/src/main.js` as the image runs them, ADR 0030) " +
        'on a fresh database and topics' +
        (settings.footprintSource ? ', then the same from the TypeScript sources as development runs them (`node tools/scripts/run-ts.cjs apps/<service>/src/main.ts`)' : '') +
        `; embedded mode ${settings.footprintEmbeddedSource ? 'as `npm start` runs it and ' : ''}from the built output, each on a fresh data directory. Idle RSS: VmRSS from /proc, the median of ${settings.rssSamples} samples 200 ms apart ` +
        `after ${settings.settleS} s without requests (no GC forced). Ready: from the spawn to the first 200 of /health/ready (polled every 50 ms for embedded, 100 ms for the services), migrations of a fresh database included for embedded mode.`,
      figures,
      notes: ctx.smoke ? ['Smoke run: the figures are those of the systems the other benchmarks shared (started from the built output), after their load.'] : [],
      raw: {
        buildMs: build.ms,
        builtFiles: build.files,
        built: built.map((m) => Object.fromEntries(m)),
        source: source.map((m) => Object.fromEntries(m)),
        builtReadyMs: builtReady,
        sourceReadyMs: sourceReady,
        embeddedSource,
        embeddedBuilt,
      },
    };
  },
};

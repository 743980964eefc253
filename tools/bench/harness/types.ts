import type { BuiltOutput } from './build';
import type { Settings } from './settings';
import type { DistributedSystem, EmbeddedSystem } from './system';

/** What a benchmark module exports, what it is given and what it returns. */

/**
 * A bound a figure is judged against. `ratio-min` / `ratio-max`: the figure divided by its floor (median of the
 * per-repetition ratios) must be at least / at most `bound`; `max` / `min`: the figure itself must be at most / at least `bound`;
 * `equals`: exactly `bound`.
 */
export interface Target {
  kind: 'ratio-min' | 'ratio-max' | 'max' | 'min' | 'equals';
  bound: number;
  /** How the target reads in the table, e.g. "≥ 0.25× floor". */
  text: string;
}

export interface Figure {
  /** Stable id within the benchmark, e.g. `distributed.c16.throughput`. */
  key: string;
  /** What it is, for the table. */
  label: string;
  unit: string;
  /** One value per repetition. */
  samples: number[];
  /** The median of the samples. */
  value: number;
  /** The floor measured in the same run, one value per repetition. */
  floor?: { label: string; samples: number[]; value: number };
  /** Median of the per-repetition ratios figure / floor. */
  ratio?: number;
  target?: Target;
  /** true / false when judged; null when not (smoke runs, or nothing to judge). */
  met?: boolean | null;
}

export interface BenchResult {
  name: string;
  title: string;
  /** How it was measured, in a sentence or three (markdown). */
  method: string;
  figures: Figure[];
  notes: string[];
  /** Raw samples and anything else worth keeping (autocannon summaries, per-request latencies…). */
  raw: Record<string, unknown>;
  /** Repetitions it ran when fewer than the run's (a benchmark that caps them, as catchup does). */
  repetitions?: number;
  /** Set when the benchmark failed; its figures are whatever it got to. */
  error?: string;
  wallS: number;
  loadBefore: number[];
  loadAfter: number[];
}

export interface Context {
  smoke: boolean;
  repeat: number;
  settings: Settings;
  /**
   * The distributed system on the project's PostgreSQL and Kafka, started on first use and shared by the
   * benchmarks of the run: from the TypeScript sources as `npm run start:distributed` runs the services, or, in
   * smoke runs (to save the seconds of compiling at every start), from the built output (what the image runs).
   */
  distributed(): Promise<DistributedSystem>;
  /** Embedded mode (`npm start`; from the built output in smoke runs), started on first use on a fresh data directory and shared likewise. */
  embedded(): Promise<EmbeddedSystem>;
  /** Stops the shared systems (a later call starts new ones), so that they add no noise to what follows. */
  releaseShared(): Promise<void>;
  /** The product compiled to JavaScript by `npm run build`'s script (harness/build.ts), built on first use. */
  build(): Promise<BuiltOutput>;
  /** A scratch directory of the run (removed at the end). */
  scratch: string;
  /** Registers cleanup to run at the end of the run (and on Ctrl-C), last registered first. */
  defer(cleanup: () => Promise<unknown>): void;
  log(line?: string): void;
}

/** What a benchmark's run() returns; the runner adds the name, timing and load. */
export interface Measured {
  title: string;
  method: string;
  /** Repetitions it ran when fewer than the run's (see BenchResult). */
  repetitions?: number;
  figures: Figure[];
  notes?: string[];
  raw?: Record<string, unknown>;
}

export interface Benchmark {
  name: string;
  /** One line for --list. */
  summary: string;
  /** Part of `npm run bench` without names (the six of issue [bench], catchup and the soak); the others run only when named. */
  inDefault: boolean;
  /** Needs PostgreSQL and Kafka (the runner makes sure they are up). */
  needsInfra: boolean;
  run(ctx: Context): Promise<Measured>;
}

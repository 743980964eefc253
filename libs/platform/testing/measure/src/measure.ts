// Measuring in tests: time and memory, on a machine that other work keeps busy. Imports nothing of the workspace, so
// that any library's tests may use it.
//
// How work grows with its input: an absolute bound ("under 50 ms") fails whenever the test's worker is descheduled,
// and a bound loose enough to survive that no longer tells linear from quadratic. This compares the same work on an
// input and on one four times as long, measured in alternation so that a busy spell slows both: linear work takes
// about 4 times as long, quadratic work 16 times.

import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** How much longer the larger input is. */
const SCALE = 4;
/** The most the larger input may take, in times the smaller: halfway (geometrically) between linear and quadratic. */
const MAX_RATIO = 8;
/** Below this the clock and the JIT decide, not the algorithm: a smaller time counts as this much. */
const FLOOR_MS = 5;
/** Runs of each size per measurement; the fastest counts, as the least disturbed. */
const RUNS = 5;
/** Measurements before giving up: a busy spell can spoil one, never three in a row for linear work. */
const ATTEMPTS = 3;

export interface Growth {
  /** The fastest run on the input of `size`, in milliseconds. */
  smallMs: number;
  /** The fastest run on the input of `size × 4`. */
  largeMs: number;
  /** `largeMs` over `smallMs` (at least FLOOR_MS). */
  ratio: number;
}

function elapsedMs(work: () => unknown): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** One measurement: RUNS of each size, alternated, the fastest of each. */
function measure(small: () => unknown, large: () => unknown): Growth {
  let smallMs = Number.POSITIVE_INFINITY;
  let largeMs = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    smallMs = Math.min(smallMs, elapsedMs(small));
    largeMs = Math.min(largeMs, elapsedMs(large));
  }
  return { smallMs, largeMs, ratio: largeMs / Math.max(smallMs, FLOOR_MS) };
}

/**
 * How `work` grows from an input of `size` (built by `make`) to one of `size × 4`; throws, with the figures,
 * when it grows faster than linear in every one of three measurements. Inputs are built before timing.
 */
export function expectLinearGrowth<T>(make: (size: number) => T, work: (input: T) => unknown, size: number): Growth {
  const small = make(size);
  const large = make(size * SCALE);
  const measured: Growth[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const growth = measure(
      () => work(small),
      () => work(large),
    );
    if (growth.ratio <= MAX_RATIO) return growth;
    measured.push(growth);
  }
  const figures = measured.map((g) => `${g.smallMs.toFixed(2)} → ${g.largeMs.toFixed(2)} ms (×${g.ratio.toFixed(1)})`).join('; ');
  throw new Error(`${SCALE} times the input took more than ${MAX_RATIO} times as long, ${ATTEMPTS} times in a row: ${figures}`);
}

/** V8's full garbage collection (the flag is set on first use): memory checks measure what is live, not what waits. */
export function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

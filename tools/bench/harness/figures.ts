import type { Figure, Target } from './types';
import { median } from './util';

/** Builds the figures of a benchmark: medians of the repetitions, ratios to the floor, verdicts. */

export const atLeastFloor = (bound: number): Target => ({ kind: 'ratio-min', bound, text: `≥ ${bound}× floor` });
export const atMostFloor = (bound: number): Target => ({ kind: 'ratio-max', bound, text: `≤ ${bound}× floor` });
export const atMost = (bound: number, unit: string): Target => ({ kind: 'max', bound, text: `≤ ${bound.toLocaleString('en-US')} ${unit}` });
export const atLeast = (bound: number, unit: string): Target => ({ kind: 'min', bound, text: `≥ ${bound.toLocaleString('en-US')} ${unit}` });
export const exactly = (bound: number, text?: string): Target => ({ kind: 'equals', bound, text: text ?? `= ${bound}` });

export function figure(key: string, label: string, unit: string, samples: number[], extra: { floor?: { label: string; samples: number[] }; target?: Target } = {}): Figure {
  const f: Figure = { key, label, unit, samples, value: median(samples) };
  const floor = extra.floor;
  if (floor) {
    f.floor = { ...floor, value: median(floor.samples) };
    // Each repetition's figure against the floor of the same repetition (they ran back to back), then the median.
    const ratios = samples.map((v, i) => v / floor.samples[i]).filter((r) => Number.isFinite(r));
    f.ratio = median(ratios);
  }
  if (extra.target) f.target = extra.target;
  return f;
}

/** Whether a figure meets its target; null when it has none or could not be judged. */
export function verdict(f: Figure): boolean | null {
  const t = f.target;
  if (!t) return null;
  const v = t.kind === 'ratio-min' || t.kind === 'ratio-max' ? f.ratio : f.value;
  if (v === undefined || !Number.isFinite(v)) return null;
  switch (t.kind) {
    case 'ratio-min':
    case 'min':
      return v >= t.bound;
    case 'ratio-max':
    case 'max':
      return v <= t.bound;
    case 'equals':
      return v === t.bound;
  }
}

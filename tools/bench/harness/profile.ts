import { relative } from 'node:path';
import { REPO_ROOT } from './util';

/**
 * V8 CPU profiles (`.cpuprofile`) summed up: self time by where the code lives and by function, and time by layer:
 * a sample counts for the innermost of the LAYERS on its stack, so that Node's internals and V8's work land on the
 * library that asked for them (a socket write under pg counts for pg).
 */

/** The layers a request goes through, by the path of their code; the first that matches a frame names it. */
export const LAYERS: readonly (readonly [string, RegExp])[] = [
  ['undici (internal HTTP client)', /undici/],
  ['web streams', /webstreams/],
  ['pino (logging)', /node_modules\/(pino|pino-http|pino-std-serializers|@pinojs)\//],
  ['typeorm', /node_modules\/typeorm\//],
  ['pg (PostgreSQL client)', /node_modules\/(pg|pg-protocol|pg-pool)\//],
  ['pglite', /node_modules\/@electric-sql\/pglite\//],
  ['zod (validation)', /node_modules\/zod\//],
  ['kafkajs', /node_modules\/kafkajs\//],
  ['express', /node_modules\/(express|router|body-parser)\//],
  ['nest', /node_modules\/@nestjs\//],
];

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: `pkg:<name>`, `app:<path of its project>`, `node:<module>`, or V8's own entries. */
export function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : `(${functionName || 'anonymous'})`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + 'node_modules/'.length).split('/');
    return `pkg:${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const rel = relative(REPO_ROOT, path).split('/');
  const project = rel[0] === 'libs' && rel[1] === 'services' ? rel.slice(0, 3) : rel.slice(0, 2);
  return `app:${project.join('/')}`;
}

export interface ProfileSummary {
  totalMs: number;
  /** Time not idle (program, GC and everything else). */
  busyMs: number;
  byPlace: [string, number][];
  byFunction: [string, number][];
  /** Busy time by the innermost layer on the stack (`other` where none is). */
  byLayer: [string, number][];
}

/**
 * Self time per node, of the samples taken `skipMs` or more after the profile began (start-up left out) and, with
 * `untilMs`, before that time (one phase of a run alone).
 */
export function summarize(profile: CpuProfile, skipMs: number, untilMs = Infinity): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const layerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { url } = (byId.get(at) as ProfileNode).callFrame;
      const layer = url ? LAYERS.find(([, pattern]) => pattern.test(url)) : undefined;
      if (layer) return layer[0];
    }
    return 'other';
  };
  const self = new Map<number, number>();
  let elapsedMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    elapsedMs += ms;
    if (elapsedMs >= skipMs && elapsedMs < untilMs) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + ms);
  }
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  const layers = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id) as ProfileNode;
    totalMs += ms;
    if (callFrame.functionName === '(idle)') idleMs += ms;
    else layers.set(layerOf(id), (layers.get(layerOf(id)) ?? 0) + ms);
    const place = placeOf(callFrame.url, callFrame.functionName);
    places.set(place, (places.get(place) ?? 0) + ms);
    const fn = `${callFrame.functionName || '(anonymous)'} ${callFrame.url ? `${relative(REPO_ROOT, callFrame.url.replace(/^file:\/\//, ''))}:${callFrame.lineNumber + 1}` : ''}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>): [string, number][] => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs, busyMs: totalMs - idleMs, byPlace: sorted(places), byFunction: sorted(functions), byLayer: sorted(layers) };
}

/** Busy milliseconds (neither idle nor V8's unattributed `(program)`) in each second of the profile, to find its phases. */
export function busyPerSecond(profile: CpuProfile): number[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const busy: number[] = [];
  let elapsedMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    elapsedMs += ms;
    const name = (byId.get(profile.samples[i]) as ProfileNode).callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    const second = Math.floor(elapsedMs / 1000);
    while (busy.length <= second) busy.push(0);
    busy[second] += ms;
  }
  return busy;
}

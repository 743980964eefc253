import { atLeast, atLeastFloor, atMost, exactly, figure, verdict } from './figures';
import { type RunReport, updateSection } from './report';
import { settingsFor } from './settings';
import type { BenchResult } from './types';

const bench = (name: string, value: number): BenchResult => ({
  name,
  title: `${name} — title`,
  method: `how ${name} is measured`,
  figures: [{ ...figure(`${name}.x`, `${name} x`, 'req/s', [value, value + 2, value - 2], { floor: { label: 'floor', samples: [100, 100, 100] }, target: atLeastFloor(0.25) }), met: true }],
  notes: [],
  raw: {},
  wallS: 30,
  loadBefore: [1, 1, 1],
  loadAfter: [2, 2, 2],
});

const run = (benchmarks: BenchResult[], smoke = false): RunReport => ({
  harness: 'tools/bench',
  formatVersion: 1,
  date: '2026-11-27T10:00:00.000Z',
  command: 'npm run bench',
  smoke,
  repeat: 3,
  settings: settingsFor(smoke, {}),
  machine: { nproc: 2, cpu: 'cpu', memoryGiB: 8, os: 'Linux', node: 'v20', autocannon: '8.0.0', postgres: '15.18', kafka: '3.9.1' },
  loadBefore: [1, 1, 1],
  loadAfter: [2, 2, 2],
  wallS: 60,
  benchmarks,
  created: { databases: [], topicPrefixes: [], pids: [] },
});

const DOC = '# Performance\n\nintro\n\n<!-- bench:begin -->\n_No run yet._\n<!-- bench:end -->\n\n## Hand-written\n\ntext\n';

describe('the generated section of docs/performance.md', () => {
  it('replaces the placeholder with the machine and a table per benchmark, in the given order, and keeps the rest', () => {
    const doc = updateSection(DOC, run([bench('reads', 50), bench('intake', 25)]), 'tools/bench/results/x.json', ['intake', 'reads']);
    expect(doc.startsWith('# Performance\n\nintro\n\n<!-- bench:begin -->\n<!-- bench:machine:begin -->')).toBe(true);
    expect(doc).not.toContain('_No run yet._');
    expect(doc.indexOf('### intake')).toBeLessThan(doc.indexOf('### reads'));
    expect(doc).toContain('| intake x | 25.0 req/s | 100 req/s | 0.25× | ≥ 0.25× floor | yes |');
    expect(doc).toContain('raw results in `tools/bench/results/x.json`');
    expect(doc.endsWith('<!-- bench:end -->\n\n## Hand-written\n\ntext\n')).toBe(true);
  });

  it('keeps the blocks of benchmarks a later run did not include', () => {
    const first = updateSection(DOC, run([bench('intake', 25), bench('reads', 50)]), 'a.json', ['intake', 'reads']);
    const second = updateSection(first, run([bench('reads', 80)]), 'b.json', ['intake', 'reads']);
    expect(second).toContain('| intake x | 25.0 req/s');
    expect(second).toContain('| reads x | 80.0 req/s');
    expect(second).not.toContain('| reads x | 50.0 req/s');
    expect(second.match(/<!-- bench:machine:begin -->/g)).toHaveLength(1);
    expect(second).toContain('raw results in `b.json`');
  });

  it("gives a benchmark's own repetitions when it ran fewer than the run's", () => {
    const doc = updateSection(DOC, run([{ ...bench('catchup', 25), repetitions: 1 }, bench('intake', 25)]), 'a.json', ['intake', 'catchup']);
    expect(doc).toContain('`npm run bench`, 1 repetition (each figure is the median)');
    expect(doc).toContain('`npm run bench`, 3 repetitions (each figure is the median)');
  });

  it('says when a run was a smoke run and judges nothing then', () => {
    const doc = updateSection(DOC, run([bench('intake', 25)], true), 'a.json', ['intake']);
    expect(doc).toContain('Smoke run');
    expect(doc).toContain('| not judged |');
  });

  it('refuses a document without the markers', () => {
    expect(() => updateSection('# Performance\n', run([]), 'a.json', [])).toThrow(/bench:begin/);
  });
});

describe('figures', () => {
  it('takes the median of the repetitions and of the per-repetition ratios to the floor', () => {
    const f = figure('k', 'k', 'req/s', [10, 30, 20], { floor: { label: 'floor', samples: [100, 100, 40] } });
    expect(f.value).toBe(20);
    expect(f.floor?.value).toBe(100);
    expect(f.ratio).toBe(0.3); // ratios 0.1, 0.3, 0.5
  });

  it('judges ratios, bounds and exact values', () => {
    expect(verdict(figure('a', 'a', 'req/s', [30], { floor: { label: 'f', samples: [100] }, target: atLeastFloor(0.25) }))).toBe(true);
    expect(verdict(figure('b', 'b', 'ms', [51], { target: atMost(50, 'ms') }))).toBe(false);
    expect(verdict(figure('c', 'c', 'count', [0], { target: exactly(0) }))).toBe(true);
    expect(verdict(figure('e', 'e', 'events/s', [1999], { target: atLeast(2000, 'events/s') }))).toBe(false);
    expect(verdict(figure('f', 'f', 'events/s', [NaN], { target: atLeast(2000, 'events/s') }))).toBeNull();
    expect(verdict(figure('d', 'd', 'ms', [5]))).toBeNull();
  });
});

describe('settings', () => {
  it('are overridden from the environment, whole numbers only', () => {
    expect(settingsFor(false, { BENCH_LOAD_S: '20', BENCH_INTAKE_CLIENTS: '8,32' })).toMatchObject({ loadS: 20, intakeClients: [8, 32] });
    expect(settingsFor(true, {}).loadS).toBeLessThan(settingsFor(false, {}).loadS);
    expect(() => settingsFor(false, { BENCH_RELAY_EVENTS: 'many' })).toThrow(/BENCH_RELAY_EVENTS/);
    expect(settingsFor(false, { BENCH_CATCHUP_OUTAGE_S: '20', BENCH_CATCHUP_BURST: '5000' })).toMatchObject({ catchupOutageS: 20, catchupBurst: 5000, catchupRate: 50 });
  });

  it('never stop the broker in a smoke run', () => {
    expect(settingsFor(true, {}).catchupOutageS).toBe(0);
    expect(settingsFor(false, {}).catchupOutageS).toBe(60);
  });
});

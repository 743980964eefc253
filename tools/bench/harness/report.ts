import { readFileSync, writeFileSync } from 'node:fs';
import type { Settings } from './settings';
import type { BenchResult, Figure } from './types';
import type { MachineFacts } from './util';
import { num } from './util';

/** The run's JSON file and its section of docs/performance.md. */

export interface RunReport {
  harness: 'tools/bench';
  formatVersion: 1;
  /** ISO 8601, UTC. */
  date: string;
  command: string;
  smoke: boolean;
  repeat: number;
  settings: Settings;
  machine: MachineFacts & { postgres: string; kafka: string };
  loadBefore: number[];
  loadAfter: number[];
  wallS: number;
  benchmarks: BenchResult[];
  /** What the run created outside its process (all removed at its end): databases, topic prefixes, child processes. */
  created: { databases: string[]; topicPrefixes: string[]; pids: number[] };
}

export const SECTION_BEGIN = '<!-- bench:begin -->';
export const SECTION_END = '<!-- bench:end -->';
const blockBegin = (name: string): string => `<!-- bench:${name}:begin -->`;
const blockEnd = (name: string): string => `<!-- bench:${name}:end -->`;

const load = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' ');
const duration = (s: number): string => (s < 120 ? `${s.toFixed(0)} s` : `${(s / 60).toFixed(1)} min`);

function valueCell(v: number | undefined, unit: string): string {
  if (v === undefined || !Number.isFinite(v)) return '–';
  if (unit === 'count') return Number.isInteger(v) ? v.toLocaleString('en-US') : num(v);
  return `${num(v)} ${unit}`;
}

function metCell(f: Figure, smoke: boolean): string {
  if (!f.target) return '';
  if (smoke || f.met === null || f.met === undefined) return 'not judged';
  return f.met ? 'yes' : '**no**';
}

/** One benchmark's block: what ran, how, and the table. */
export function benchmarkBlock(b: BenchResult, run: RunReport): string {
  const lines: string[] = [blockBegin(b.name), `### ${b.title}`, ''];
  if (run.smoke) lines.push('**Smoke run: durations of seconds, the figures mean nothing and no target is judged.**', '');
  const repetitions = b.repetitions ?? run.repeat;
  lines.push(
    `Run of ${run.date.slice(0, 16).replace('T', ' ')} UTC: \`${run.command}\`, ${repetitions} repetition${repetitions === 1 ? '' : 's'} ` +
      `(each figure is the median), ${duration(b.wallS)}, load average ${load(b.loadBefore)} before, ${load(b.loadAfter)} after.`,
    '',
    b.method,
    '',
  );
  if (b.error) lines.push(`**The benchmark failed:** \`${b.error.split('\n')[0]}\``, '');
  if (b.figures.length > 0) {
    lines.push('| figure | value | floor | ratio | target | met? |', '|---|---:|---:|---:|---|---|');
    for (const f of b.figures) {
      const ratio = f.ratio !== undefined && Number.isFinite(f.ratio) ? `${f.ratio >= 0.01 ? f.ratio.toFixed(2) : f.ratio.toPrecision(2)}×` : '';
      lines.push(`| ${f.label} | ${valueCell(f.value, f.unit)} | ${f.floor ? valueCell(f.floor.value, f.unit) : ''} | ${ratio} | ${f.target?.text ?? ''} | ${metCell(f, run.smoke)} |`);
    }
    lines.push('');
  }
  for (const n of b.notes) lines.push(`- ${n}`);
  if (b.notes.length > 0) lines.push('');
  lines.push(blockEnd(b.name));
  return lines.join('\n');
}

export function machineBlock(run: RunReport, jsonPath: string): string {
  const m = run.machine;
  return [
    blockBegin('machine'),
    `Latest run: ${run.date.slice(0, 16).replace('T', ' ')} UTC, \`${run.command}\`${run.smoke ? ' (smoke)' : ''}, ${duration(run.wallS)}; raw results in \`${jsonPath}\`.`,
    '',
    '| machine | |',
    '|---|---|',
    `| cores (nproc) | ${m.nproc} (${m.cpu}) |`,
    `| memory | ${m.memoryGiB} GiB |`,
    `| OS | ${m.os} |`,
    `| Node | ${m.node} |`,
    `| PostgreSQL | ${m.postgres} |`,
    `| Kafka | ${m.kafka} |`,
    `| autocannon | ${m.autocannon} |`,
    `| load average (1, 5, 15 min) | ${load(run.loadBefore)} before, ${load(run.loadAfter)} after |`,
    blockEnd('machine'),
  ].join('\n');
}

/** The blocks between the section's markers, by name. */
function blocksOf(section: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of section.matchAll(/<!-- bench:([\w-]+):begin -->[\s\S]*?<!-- bench:\1:end -->/g)) out.set(m[1], m[0]);
  return out;
}

/**
 * The document with its generated section updated: this run's machine block and benchmark blocks replace
 * theirs; blocks of benchmarks this run did not include stay as they were (each says which run it is from).
 * `order` is the order of the benchmark blocks. Throws when the markers are missing: the section is not
 * added by the harness, so that a moved or deleted section is noticed.
 */
export function updateSection(doc: string, run: RunReport, jsonPath: string, order: string[]): string {
  const begin = doc.indexOf(SECTION_BEGIN);
  const end = doc.indexOf(SECTION_END);
  if (begin < 0 || end < begin) throw new Error(`the document has no ${SECTION_BEGIN} … ${SECTION_END} section`);
  const blocks = blocksOf(doc.slice(begin, end));
  blocks.set('machine', machineBlock(run, jsonPath));
  for (const b of run.benchmarks) blocks.set(b.name, benchmarkBlock(b, run));
  const names = ['machine', ...order.filter((n) => blocks.has(n)), ...[...blocks.keys()].filter((n) => n !== 'machine' && !order.includes(n))];
  const body = names.map((n) => blocks.get(n)).join('\n\n');
  return `${doc.slice(0, begin)}${SECTION_BEGIN}\n${body}\n${doc.slice(end)}`;
}

export function writeDocs(path: string, run: RunReport, jsonPath: string, order: string[]): void {
  writeFileSync(path, updateSection(readFileSync(path, 'utf8'), run, jsonPath, order));
}

/** The run's outcome in a few lines for the console. */
export function summaryLines(run: RunReport): string[] {
  const lines: string[] = [];
  for (const b of run.benchmarks) {
    lines.push(`${b.name}: ${b.error ? `FAILED: ${b.error.split('\n')[0]}` : `${b.figures.length} figures`} (${b.wallS.toFixed(0)} s)`);
    for (const f of b.figures) {
      const ratio = f.ratio !== undefined && Number.isFinite(f.ratio) ? `, ${f.ratio.toPrecision(2)}× floor ${valueCell(f.floor?.value, f.unit)}` : '';
      const judged = f.target ? ` [${f.target.text}: ${run.smoke ? 'not judged' : f.met === true ? 'met' : f.met === false ? 'NOT met' : 'not judged'}]` : '';
      lines.push(`  ${f.label}: ${valueCell(f.value, f.unit)}${ratio}${judged}`);
    }
  }
  return lines;
}

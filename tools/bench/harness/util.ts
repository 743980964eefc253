import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import { resolve } from 'node:path';
import { kafkaBrokers } from '@dsar/platform/testing';

/** Small helpers of the harness: statistics, time, /proc, ports, the machine's facts. */

export const REPO_ROOT = resolve(__dirname, '../../..');

/**
 * What the run created outside its own process — databases, topic prefixes, child processes — so that the run's
 * JSON can list them and the smoke test can check that none is left behind.
 */
export const created = { databases: [] as string[], topicPrefixes: [] as string[], pids: [] as number[] };

export const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

/** The wall-clock time in ms with sub-millisecond resolution (performance.timeOrigin + performance.now()). */
export const wallMs = (): number => performance.timeOrigin + performance.now();

export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The nearest-rank percentile (p in 0..1). */
export function percentileOf(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** A number for a table: 3 significant digits below 1,000, whole numbers with separators above. */
export function num(v: number | undefined): string {
  if (v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString('en-US');
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  if (a === 0) return '0';
  return v.toPrecision(2);
}

export function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export const loadAverage = (): number[] => os.loadavg().map((l) => Math.round(l * 100) / 100);

/** Resident memory of a process in bytes (VmRSS), undefined when it is gone or there is no /proc. */
export function rssOf(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

let ticks: number | undefined;
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** CPU time (user + system) of a process in ms from /proc/<pid>/stat; undefined when it is gone. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (1-based in proc(5)), so 11 and 12 here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

/** A process and every live process below it (a server's forked workers), from the parent pids in /proc. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the name: state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** CPU time of a set of processes. */
export const cpuMsOfAll = (pids: readonly number[]): number => pids.reduce((sum, pid) => sum + (cpuMsOf(pid) ?? 0), 0);

/**
 * Waits until the processes are idle: each below `threshold` of one core over a 500 ms window, at most
 * `timeoutMs`. Background work left over from a previous phase (a consumer's backlog, an outbox relay, a
 * checkpoint) otherwise runs into the next measurement. Each process by itself, since an idle service is not at
 * zero: the eight of distributed mode use 3–7 % of a core each for Kafka polls, outbox polls and scheduled scans.
 * Returns how long it waited and whether it got there.
 */
export async function quiesce(pids: readonly number[], timeoutMs: number, threshold = 0.15): Promise<{ waitedMs: number; idle: boolean }> {
  const t0 = performance.now();
  for (;;) {
    const c0 = pids.map((p) => cpuMsOf(p) ?? 0);
    const w0 = performance.now();
    await sleep(500);
    const window = performance.now() - w0;
    const busiest = Math.max(0, ...pids.map((p, i) => ((cpuMsOf(p) ?? c0[i]) - c0[i]) / window));
    if (busiest < threshold) return { waitedMs: performance.now() - t0, idle: true };
    if (performance.now() - t0 > timeoutMs) return { waitedMs: performance.now() - t0, idle: false };
  }
}

export interface MachineFacts {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  os: string;
  node: string;
  autocannon: string;
}

export function machineFacts(): MachineFacts {
  let nproc = os.availableParallelism();
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || nproc;
  } catch {
    /* nproc is coreutils; os.availableParallelism() is the same figure */
  }
  let autocannon = 'not installed';
  try {
    autocannon = (JSON.parse(readFileSync(resolve(REPO_ROOT, 'node_modules/autocannon/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    /* reported as missing */
  }
  return {
    nproc,
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    autocannon,
  };
}

/**
 * The local broker's version, from the jars deploy/local/infra.sh runs it from; undefined for another broker. With
 * DSAR_INFRA=external the brokers are the local one when they are infra.sh's address and its broker is running.
 */
export function localKafkaVersion(): string | undefined {
  const kafkaDir = resolve(process.env.DSAR_INFRA_DIR ?? resolve(REPO_ROOT, '.infra'), 'kafka');
  if (process.env.DSAR_INFRA === 'external' && !(kafkaBrokers() === `127.0.0.1:${process.env.KAFKA_PORT ?? 9092}` && pidFileAlive(resolve(kafkaDir, 'kafka.pid')))) {
    return undefined;
  }
  const dir = resolve(kafkaDir, 'lib');
  try {
    for (const f of readdirSync(dir)) {
      const m = /^kafka-server-(\d+\.\d+\.\d+)\.jar$/.exec(f) ?? /^kafka_[\d.]+-(\d+\.\d+\.\d+)\.jar$/.exec(f);
      if (m) return m[1];
    }
  } catch {
    /* not the local broker */
  }
  return undefined;
}

/** Whether the pid file names a running process. */
function pidFileAlive(file: string): boolean {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && existsSync(`/proc/${pid}`);
  } catch {
    return false;
  }
}

export const describeError = (e: unknown): string => (e instanceof Error ? `${e.message}${e.cause ? ` (${String(e.cause)})` : ''}` : String(e));

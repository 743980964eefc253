import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { join, resolve } from 'node:path';
import { fmt, log, percentile } from './bench-kit';

/**
 * What the benchmarks that run the whole system share: the system as `npm start`
 * runs it (tools/embedded/src/main.ts: embedded mode, all services in one
 * process, PGlite and the in-memory bus) in a CHILD process, so that the RSS
 * measured is the server's alone (the client — the benchmark's process, its
 * sockets and bodies — is not counted); its memory from /proc and over IPC;
 * phases measured by RSS samples, the kernel's peak and CPU time; bodies made
 * as they are sent; a scratch directory removed at the end, on failure and on
 * Ctrl-C too.
 *
 * The child is started with --expose-gc and a few lines ahead of main.ts
 * (CHILD_PRELUDE) that answer over IPC with `process.memoryUsage()` and
 * `process.cpuUsage()`, after a full GC when asked; the service code is the
 * product's, unchanged. RSS is read from /proc/<pid>/status (VmRSS), and the
 * kernel's own peak (VmHWM, reset through /proc/<pid>/clear_refs when a phase
 * starts) catches what falls between two samples.
 */

export const MiB = 1024 * 1024;

export const mib = (bytes: number): string => (bytes / MiB).toFixed(1);

/** MiB per second. */
export const rate = (bytes: number, ms: number): number => bytes / MiB / (ms / 1000);

const REPO_ROOT = resolve(__dirname, '../..');
const STARTUP_TIMEOUT_MS = 180_000;

// ---------------------------------------------------------------------------------------------
// Machine

/** The facts printMachine gives, without PostgreSQL (none is involved), and the disk the files go to. */
export function printHost(dir: string): void {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    /* nproc is coreutils; os.availableParallelism() is the same figure */
  }
  log(`nproc ${nproc} (${cpu}), memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`);
  try {
    const [, row] = execFileSync('df', ['-T', dir], { encoding: 'utf8' }).trim().split('\n');
    const [device, type] = row.split(/\s+/);
    log(`files under ${dir}: ${type} on ${device}`);
  } catch {
    log(`files under ${dir}`);
  }
  log(`load average ${loadAverage()} (the machine is shared: other processes add noise)`);
}

export const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------
// Bodies

/** `bytes` bytes, made as they are read: nothing is read ahead (highWaterMark 0), so the client holds a block, not the file. */
export function blockStream(bytes: number, block: Buffer): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (left <= 0) return controller.close();
        const n = Math.min(left, block.length);
        controller.enqueue(n === block.length ? block : block.subarray(0, n));
        left -= n;
      },
    },
    { highWaterMark: 0 },
  );
}

// ---------------------------------------------------------------------------------------------
// The machine's own rates (one core, this process)

export interface Baselines {
  sha256: number;
  aesGcm: number;
  diskFsync: number;
  httpHop: number;
}

/**
 * This machine's own rates on one core, `bytes` each (a multiple of the block's size), in this process: SHA-256,
 * AES-256-GCM in 64 KiB chunks as EncryptedStorage seals them, a file write + fsync in `dir`, and one loopback
 * HTTP hop (fetch with a stream body → node:http that drops it, both ends on this thread).
 */
export async function measureBaselines(dir: string, block: Buffer, bytes: number): Promise<Baselines> {
  const blocks = Math.ceil(bytes / block.length);

  let t = performance.now();
  const hash = createHash('sha256');
  for (let i = 0; i < blocks; i++) hash.update(block);
  hash.digest();
  const sha256 = rate(bytes, performance.now() - t);

  // As ChunkSealer.seal: a cipher per 64 KiB chunk, with its AAD (header, index, tenant and key), and the tag.
  const key = randomBytes(32);
  const aad = randomBytes(54 + 5 + 60);
  t = performance.now();
  for (let i = 0; i < blocks; i++) {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
    cipher.setAAD(aad);
    cipher.update(block);
    cipher.final();
    cipher.getAuthTag();
  }
  const aesGcm = rate(bytes, performance.now() - t);

  const file = join(dir, 'baseline.bin');
  t = performance.now();
  const handle = await open(file, 'wx', 0o600);
  try {
    for (let i = 0; i < blocks; i++) await handle.write(block);
    await handle.sync();
  } finally {
    await handle.close();
  }
  const diskFsync = rate(bytes, performance.now() - t);
  rmSync(file);

  // One hop as the system makes two of them (client → gateway, gateway → service): fetch with a stream body
  // into a node:http server that reads and drops it; both ends on this one thread.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const { port } = server.address() as AddressInfo;
    t = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: blockStream(bytes, block), duplex: 'half' } as RequestInit);
    await res.arrayBuffer();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
  const httpHop = rate(bytes, performance.now() - t);
  return { sha256, aesGcm, diskFsync, httpHop };
}

export function printBaselines(b: Baselines): void {
  log(`  SHA-256 ${b.sha256.toFixed(0)} MiB/s; AES-256-GCM in 64 KiB chunks ${b.aesGcm.toFixed(0)} MiB/s; file write + fsync ${b.diskFsync.toFixed(0)} MiB/s;`);
  log(`  one loopback HTTP hop (fetch stream body → node:http, both ends on one thread) ${b.httpHop.toFixed(0)} MiB/s`);
}

// ---------------------------------------------------------------------------------------------
// The system, in a child process

/** The server's collections since the last reset, and its memory as each batch of them was reported (an upper bound of what was live). */
export interface GcStats {
  minor: number;
  major: number;
  incremental: number;
  weak: number;
  pauseMs: number;
  maxArrayBuffersAfter: number;
  maxExternalAfter: number;
}

export interface ProbeReply {
  id: number;
  mem: NodeJS.MemoryUsage;
  cpu: NodeJS.CpuUsage;
  gcs: GcStats;
}

/**
 * Runs ahead of run-ts.cjs in the child (node -e): answers `{id, kind}` messages with memoryUsage(),
 * cpuUsage() and the GC counts (a PerformanceObserver on `gc` entries, which also reads memoryUsage() as each
 * batch of them is delivered); `gc` runs two full GCs first (--expose-gc), `reset` zeroes the counts after
 * answering. Then it loads run-ts.cjs, which loads main.ts.
 */
const CHILD_PRELUDE = `
const { PerformanceObserver, constants: pc } = require('node:perf_hooks');
let gcs;
const resetGcs = () => (gcs = { minor: 0, major: 0, incremental: 0, weak: 0, pauseMs: 0, maxArrayBuffersAfter: 0, maxExternalAfter: 0 });
resetGcs();
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail ? e.detail.kind : e.kind;
    if (kind === pc.NODE_PERFORMANCE_GC_MINOR) gcs.minor++;
    else if (kind === pc.NODE_PERFORMANCE_GC_MAJOR) gcs.major++;
    else if (kind === pc.NODE_PERFORMANCE_GC_INCREMENTAL) gcs.incremental++;
    else gcs.weak++;
    gcs.pauseMs += e.duration;
  }
  const m = process.memoryUsage();
  gcs.maxArrayBuffersAfter = Math.max(gcs.maxArrayBuffersAfter, m.arrayBuffers);
  gcs.maxExternalAfter = Math.max(gcs.maxExternalAfter, m.external);
}).observe({ entryTypes: ['gc'] });
process.on('message', (m) => {
  if (!m || typeof m.id !== 'number') return;
  if (m.kind === 'gc') { globalThis.gc(); globalThis.gc(); }
  process.send({ id: m.id, mem: process.memoryUsage(), cpu: process.cpuUsage(), gcs: { ...gcs } });
  if (m.kind === 'reset') resetGcs();
});
if (process.channel) process.channel.unref();
require(require('node:path').resolve(process.argv[1]));
`;

/** Resident memory by kind of mapping; see RunningServer.residentByKind(). */
export interface ResidentKinds {
  heap: number;
  anonymous: number;
  files: number;
  other: number;
}

export class RunningServer {
  readonly pid: number;
  private nextId = 1;
  private readonly waiting = new Map<number, { ok: (r: ProbeReply) => void; fail: (e: Error) => void }>();
  private readonly output: string[] = [];
  private exited?: string;

  private constructor(private readonly child: ChildProcess) {
    if (child.pid === undefined) throw new Error('the system did not start');
    this.pid = child.pid;
    child.on('message', (m: ProbeReply) => {
      this.waiting.get(m.id)?.ok(m);
      this.waiting.delete(m.id);
    });
    child.on('exit', (code, signal) => {
      this.exited = `exited with ${signal ?? code}`;
      for (const w of this.waiting.values()) w.fail(new Error(`the system ${this.exited}`));
      this.waiting.clear();
    });
    const whole = process.env.BENCH_SERVER_OUTPUT;
    const keep = (chunk: Buffer) => {
      if (whole) appendFileSync(whole, chunk);
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.output.splice(0, Math.max(0, this.output.length - 40));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /**
   * Starts the system. BENCH_SERVER_NODE_ARGS adds Node options to the child alone, e.g. `--cpu-prof
   * --cpu-prof-dir=/tmp/prof` for a V8 profile written when it stops (Node refuses --cpu-prof in NODE_OPTIONS).
   */
  static async start(settings: Record<string, string>): Promise<{ server: RunningServer; url: string }> {
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, '--expose-gc', '-e', CHILD_PRELUDE, 'tools/scripts/run-ts.cjs', 'tools/embedded/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...settings },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const server = new RunningServer(child);
    const url = await new Promise<string>((ok, fail) => {
      let seen = '';
      const timer = setTimeout(() => fail(new Error(`the system did not start within ${STARTUP_TIMEOUT_MS} ms:\n${server.lastOutput()}`)), STARTUP_TIMEOUT_MS);
      child.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        const found = /running in embedded mode on (http:\/\/\S+)/.exec(seen);
        if (found) {
          clearTimeout(timer);
          ok(found[1]);
        }
      });
      child.on('exit', () => {
        clearTimeout(timer);
        fail(new Error(`the system ${server.exited} before it was up:\n${server.lastOutput()}`));
      });
    });
    return { server, url };
  }

  /** memoryUsage(), cpuUsage() and GC counts of the server; after two full GCs for `gc`; `reset` zeroes the counts. */
  ask(kind: 'gc' | 'mem' | 'reset'): Promise<ProbeReply> {
    if (this.exited) return Promise.reject(new Error(`the system ${this.exited}`));
    const id = this.nextId++;
    return new Promise((ok, fail) => {
      this.waiting.set(id, { ok, fail });
      this.child.send({ id, kind });
    });
  }

  /** VmRSS and VmHWM (the peak since start or the last reset) from /proc; undefined off Linux. */
  procMemory(): { rss: number; hwm: number } | undefined {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
      const rss = kb('VmRSS');
      return Number.isFinite(rss) ? { rss, hwm: kb('VmHWM') } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Resident memory by kind of mapping (/proc/<pid>/smaps): `[heap]` is glibc's main arena (malloc from the main
   * thread below the mmap threshold: Buffers' backing stores among them); `anonymous` is the other private
   * mappings (V8's heap pages, WebAssembly memory, large mallocs, threads' arenas); `files` is code and data mapped from files.
   */
  residentByKind(): ResidentKinds | undefined {
    let text: string;
    try {
      text = readFileSync(`/proc/${this.pid}/smaps`, 'utf8');
    } catch {
      return undefined;
    }
    const out: ResidentKinds = { heap: 0, anonymous: 0, files: 0, other: 0 };
    let kind: keyof ResidentKinds = 'other';
    for (const line of text.split('\n')) {
      const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (mapping) {
        const path = mapping[1];
        kind = path === '[heap]' ? 'heap' : path === '' ? 'anonymous' : path.startsWith('/') ? 'files' : 'other';
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) out[kind] += Number(rss[1]) * 1024;
    }
    return out;
  }

  /** Resets VmHWM to the current RSS (Linux ≥ 4.0); false when it cannot. */
  resetPeak(): boolean {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  }

  lastOutput(): string {
    return this.output.map((l) => `  | ${l}`).join('\n');
  }

  /** SIGTERM (main.ts closes every service), SIGKILL after 20 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((ok) => this.child.once('exit', () => ok()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(timer);
  }
}

/**
 * The settings of `npm start`'s embedded mode, whatever this shell has set for the distributed one: PGlite under
 * DATA_DIR, the in-memory bus, files under STORAGE_DIR, a free port on loopback, warnings only, one admin API key
 * (tenant `bench`), and no rate limit (the default is 600 calls a minute per caller).
 */
export function embeddedSettings(dir: { dataDir: string; storageDir: string }, token: string): Record<string, string> {
  return {
    DB_DRIVER: 'pglite',
    BUS_DRIVER: 'memory',
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    DATA_DIR: dir.dataDir,
    STORAGE_DIR: dir.storageDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DSAR_API_KEYS: JSON.stringify([{ token, tenantId: 'bench', roles: ['admin'] }]),
    RATE_LIMIT_PER_MINUTE: '0',
  };
}

/** The server's RSS: /proc when there is one, else what the server reports. */
export async function rssOf(server: RunningServer): Promise<number> {
  return server.procMemory()?.rss ?? (await server.ask('mem')).mem.rss;
}

const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

export interface Idle {
  /** Median of 20 samples. */
  rss: number;
  min: number;
  max: number;
  /** The server's memory right after the two full GCs. */
  gc: ProbeReply;
  kinds?: ResidentKinds;
}

/** Idle RSS: two full GCs in the server, half a second, then the median of 20 samples `sampleMs` apart. */
export async function measureIdle(server: RunningServer, sampleMs: number): Promise<Idle> {
  const gc = await server.ask('gc');
  await sleep(500);
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    samples.push(await rssOf(server));
    await sleep(sampleMs);
  }
  return { rss: percentile(samples, 0.5), min: Math.min(...samples), max: Math.max(...samples), gc, kinds: server.residentByKind() };
}

export function idleLine(idle: Idle): string {
  const m = idle.gc.mem;
  return (
    `RSS ${mib(idle.rss)} MiB (median of 20 samples, ${mib(idle.min)}–${mib(idle.max)}); ` +
    `heap used ${mib(m.heapUsed)} of ${mib(m.heapTotal)} MiB, external ${mib(m.external)} MiB (array buffers ${mib(m.arrayBuffers)})`
  );
}

// ---------------------------------------------------------------------------------------------
// Phases: sampling, peak, CPU

export interface MemorySample {
  t: number;
  rss: number;
}
export interface HeapSample {
  t: number;
  mem: NodeJS.MemoryUsage;
}

/** RSS every `sampleMs` from /proc (nothing asked of the server), and memoryUsage() from the server whenever the last answer is in. */
/**
 * How often the server is asked for its heap figures while the RSS is sampled from /proc: memoryUsage() costs the
 * server measurable CPU (7 % of a 1 GiB transfer's when asked every 50 ms), the read of /proc nothing of its.
 */
const HEAP_SAMPLE_MS = 500;

function startSampling(server: RunningServer, sampleMs: number): { stop(): { rss: MemorySample[]; heap: HeapSample[] } } {
  const rss: MemorySample[] = [];
  const heap: HeapSample[] = [];
  let asking = false;
  let askedAt = -Infinity;
  const tick = () => {
    const t = performance.now();
    const proc = server.procMemory();
    if (proc) rss.push({ t, rss: proc.rss });
    if (!asking && (!proc || t - askedAt >= HEAP_SAMPLE_MS)) {
      asking = true;
      askedAt = t;
      server
        .ask('mem')
        .then((r) => {
          heap.push({ t: performance.now(), mem: r.mem });
          if (!proc) rss.push({ t, rss: r.mem.rss });
        })
        .catch(() => undefined)
        .finally(() => (asking = false));
    }
  };
  tick();
  const timer = setInterval(tick, sampleMs);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return { rss, heap };
    },
  };
}

/** One measured phase of work against the server. */
export interface Phase<T> {
  result: T;
  t0: number;
  wallMs: number;
  samples: { rss: MemorySample[]; heap: HeapSample[] };
  sampledPeak: number;
  /** VmHWM at the end, when it could be reset at the start. */
  kernelPeak?: number;
  /** The larger of the two. */
  peak: number;
  serverCpuS: number;
  clientCpuS: number;
  /** The server's answer at the end: memory, CPU, and the GCs since the start. */
  end: ProbeReply;
  endKinds?: ResidentKinds;
}

/** Runs `work` with the server's RSS sampled every `sampleMs`, its VmHWM reset first, and the CPU time of both processes counted. */
export async function measurePhase<T>(server: RunningServer, sampleMs: number, work: () => Promise<T>): Promise<Phase<T>> {
  const peakReset = server.resetPeak();
  const cpu0 = (await server.ask('reset')).cpu;
  const clientCpu0 = process.cpuUsage();
  const sampling = startSampling(server, sampleMs);
  const t0 = performance.now();
  const result = await work();
  const wallMs = performance.now() - t0;
  const samples = sampling.stop();
  const kernelPeak = peakReset ? server.procMemory()?.hwm : undefined;
  const clientCpu = process.cpuUsage(clientCpu0);
  const endKinds = server.residentByKind();
  const end = await server.ask('mem');
  const sampledPeak = Math.max(...samples.rss.map((s) => s.rss));
  return {
    result,
    t0,
    wallMs,
    samples,
    sampledPeak,
    kernelPeak,
    peak: Math.max(sampledPeak, kernelPeak ?? 0),
    serverCpuS: (end.cpu.user - cpu0.user + end.cpu.system - cpu0.system) / 1e6,
    clientCpuS: (clientCpu.user + clientCpu.system) / 1e6,
    end,
    endKinds,
  };
}

/** Peak, samples and growth above `idle`, as one line. */
export function peakLine(phase: Phase<unknown>, idle: number): string {
  const gaps = phase.samples.rss.slice(1).map((s, i) => s.t - phase.samples.rss[i].t);
  return (
    `RSS: idle ${mib(idle)} MiB, peak ${mib(phase.peak)} MiB (sampled ${mib(phase.sampledPeak)}, ${phase.samples.rss.length} samples, largest gap ${fmt(Math.max(0, ...gaps))} ms; ` +
    `kernel VmHWM ${phase.kernelPeak !== undefined ? mib(phase.kernelPeak) : 'not available'}), growth ${mib(phase.peak - idle)} MiB`
  );
}

/** The server's memory at the sampled peak and its maxima over the phase; undefined without memoryUsage() samples. */
export function heapLine(phase: Phase<unknown>): string | undefined {
  const { rss, heap } = phase.samples;
  const atPeak = rss.find((s) => s.rss === phase.sampledPeak);
  if (!atPeak || heap.length === 0) return undefined;
  const h = heap.reduce((a, b) => (Math.abs(b.t - atPeak.t) < Math.abs(a.t - atPeak.t) ? b : a)).mem;
  const maxOf = (f: (m: NodeJS.MemoryUsage) => number) => Math.max(...heap.map((s) => f(s.mem)));
  return (
    `server memory at the sampled peak: heap used ${mib(h.heapUsed)} of ${mib(h.heapTotal)} MiB, external ${mib(h.external)} MiB (array buffers ${mib(h.arrayBuffers)}); ` +
    `maxima over the run: heap total ${mib(maxOf((m) => m.heapTotal))}, external ${mib(maxOf((m) => m.external))}, array buffers ${mib(maxOf((m) => m.arrayBuffers))} MiB (${heap.length} samples)`
  );
}

export function gcLine(g: GcStats): string {
  return (
    `GCs during the run: ${g.minor} scavenges, ${g.major} mark-compacts, ${g.incremental} incremental marking steps, ${g.weak} weak-callback passes; ${fmt(g.pauseMs)} ms in all; ` +
    `as the GCs were reported (an upper bound of what was live): array buffers at most ${mib(g.maxArrayBuffersAfter)} MiB, external at most ${mib(g.maxExternalAfter)} MiB`
  );
}

export function kindsRow(name: string, k: ResidentKinds): string {
  return `${name}: [heap] ${mib(k.heap)}, anonymous ${mib(k.anonymous)}, files ${mib(k.files)}, other ${mib(k.other)}`;
}

/** The maximum RSS in each second of a phase, in MiB. */
export function rssPerSecond(phase: Phase<unknown>): string {
  const perSecond: number[] = [];
  for (const s of phase.samples.rss) {
    const second = Math.floor((s.t - phase.t0) / 1000);
    if (second >= 0) perSecond[second] = Math.max(perSecond[second] ?? 0, s.rss);
  }
  return Array.from(perSecond, (b) => (b === undefined ? '-' : (b / MiB).toFixed(0))).join(' ');
}

// ---------------------------------------------------------------------------------------------
// The API

export interface Api {
  url: string;
  token: string;
}

export async function capture(api: Api): Promise<string> {
  // The e2e scenarios' intake() payload, received a minute ago.
  const receivedAt = new Date(Date.now() - 60_000).toISOString();
  const res = await fetch(`${api.url}/api/v1/requests/capture`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      jurisdiction: 'DE',
      requestType: 'access',
      intakeSource: { channel: 'email', rawText: 'Please send me a copy of all personal data you hold about me.', receivedAt, contact: 'jane@example.org' },
      requestor: { type: 'subject', name: 'Jane Doe', email: 'jane@example.org' },
    }),
  });
  const body = (await res.json()) as { id?: string };
  if (res.status !== 202 || typeof body.id !== 'string') throw new Error(`capture answered ${res.status}: ${JSON.stringify(body)}`);
  return body.id;
}

/** An answer's body as JSON, or `{text}` when it is not JSON; undefined when empty. */
export async function jsonOf(res: Response): Promise<Record<string, unknown> | undefined> {
  const text = await res.text();
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    return { text };
  }
}

/** An error's message with its cause (fetch's "fetch failed" says little alone). */
export const describeError = (e: unknown): string => (e instanceof Error ? `${e.message}${e.cause ? ` (${String(e.cause)})` : ''}` : String(e));

/** Every file under a directory (recursively), with its size. */
export function filesUnder(dir: string): { path: string; size: number }[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return stat.isDirectory() ? filesUnder(path) : [{ path, size: stat.size }];
  });
}

// ---------------------------------------------------------------------------------------------
// The run

/** The scratch directory of a run: DATA_DIR and STORAGE_DIR are under it. */
export interface Scratch {
  dir: string;
  dataDir: string;
  storageDir: string;
}

/**
 * Runs `work` in a fresh directory under the OS temp dir (a real disk). The server `own` is given is stopped and
 * the directory deleted at the end, on failure (after the server's last lines of output) and on Ctrl-C too.
 */
export async function inScratchDir(prefix: string, work: (scratch: Scratch, own: (server: RunningServer) => void) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), prefix));
  const scratch = { dir, dataDir: join(dir, 'data'), storageDir: join(dir, 'storage') };
  let server: RunningServer | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      await server?.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      log(`stopped the system, deleted ${dir}`);
    })());
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`\n${signal}: stopping`);
    cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await work(scratch, (s) => (server = s));
  } catch (e) {
    if (server) log(`system output (last lines):\n${server.lastOutput()}`);
    throw e;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await cleanUp();
  }
}

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { basename, join, resolve } from 'node:path';
import { benchEnv, fmt, log, percentile } from './bench-kit';

/**
 * Evidence uploads: 50 files of 20 MiB, 8 at a time, through the whole system;
 * throughput and the server's peak RSS growth above idle (target: under 64 MiB).
 *
 *   node tools/scripts/run-ts.cjs tools/bench/evidence-upload.bench.ts
 *
 * The system runs as `npm start` runs it — tools/embedded/src/main.ts, all
 * services in one process, PGlite and the in-memory bus — in a CHILD process,
 * with DATA_DIR and STORAGE_DIR in a fresh directory under the OS temp dir (a
 * real disk), so that the RSS measured is the server's alone: the client (this
 * process: fetch, its sockets, the bodies) is not counted. The child is
 * started with --expose-gc and a few lines ahead of main.ts that answer this
 * process over IPC with `process.memoryUsage()` and `process.cpuUsage()`, after
 * a full GC when asked; the service code is the product's, unchanged. RSS is
 * read from /proc/<pid>/status (VmRSS) every BENCH_SAMPLE_MS, and the kernel's
 * own peak (VmHWM, reset through /proc/<pid>/clear_refs when the measured
 * phase starts) catches what falls between two samples.
 *
 *  1. this machine's own rates, one core, in this process before the system
 *     starts: SHA-256, AES-256-GCM in 64 KiB chunks as EncryptedStorage seals
 *     them, a file write + fsync on the same disk, one loopback HTTP hop
 *     (fetch with a stream body → node:http that discards it);
 *  2. starts the system, captures BENCH_UPLOADS + 1 + BENCH_CONCURRENCY requests
 *     (`POST /api/v1/requests/capture`), uploads one file as a warm-up, forces
 *     a full GC in the server and takes idle RSS (median over 1 s);
 *  3. uploads BENCH_UPLOADS files of BENCH_FILE_MIB MiB, BENCH_CONCURRENCY at a
 *     time, each to its own request (`POST …/verification/evidence/upload`,
 *     `content-type: application/octet-stream`, `x-evidence-content-type:
 *     application/pdf`); every body is generated while it is sent, from one
 *     64 KiB block that starts with `%PDF-` (a pull-based ReadableStream with
 *     `duplex: 'half'`, chunked transfer);
 *  4. forces a GC again and reads RSS after the run (what stays), then, not
 *     timed, starts BENCH_CONCURRENCY more uploads and a second later forces
 *     two full GCs in the server while they are in flight: what is live then
 *     (as against what was merely not collected yet);
 *  5. checks that every upload was answered 202 with {artifactKey, evidenceId,
 *     requestId, status} and that every artifact is a file on disk at least as
 *     large as what was sent (ciphertext: header and tags on top), with no
 *     temporary file left;
 *  6. stops the system and deletes the directory, also on failure and Ctrl-C.
 *
 * Environment: BENCH_UPLOADS (50), BENCH_CONCURRENCY (8), BENCH_FILE_MIB (20;
 * above 20 the child gets EVIDENCE_MAX_BYTES = the file size, else the default
 * limit of exactly 20 MiB applies), BENCH_SAMPLE_MS (50), BENCH_BASELINE_MIB
 * (256; 0 skips step 1).
 */

const MiB = 1024 * 1024;
const env = benchEnv;

const UPLOADS = Math.max(1, env('BENCH_UPLOADS', 50));
const CONCURRENCY = Math.max(1, env('BENCH_CONCURRENCY', 8));
const FILE_MIB = Math.max(1, env('BENCH_FILE_MIB', 20));
const SAMPLE_MS = Math.max(10, env('BENCH_SAMPLE_MS', 50));
const BASELINE_MIB = env('BENCH_BASELINE_MIB', 256);

const FILE_BYTES = FILE_MIB * MiB;
/** EVIDENCE_MAX_BYTES' default: 20 MiB exactly, and a file of exactly that size is accepted. */
const DEFAULT_EVIDENCE_MAX_BYTES = 20 * MiB;
/** The issue's target: peak RSS at most this much above idle. */
const TARGET_GROWTH = 64 * MiB;
/** Plaintext bytes per chunk the client sends, and EncryptedStorage's default chunk size. */
const BLOCK = 64 * 1024;

const REPO_ROOT = resolve(__dirname, '../..');
const STARTUP_TIMEOUT_MS = 180_000;

const mib = (bytes: number): string => (bytes / MiB).toFixed(1);

// ---------------------------------------------------------------------------------------------
// Machine

/** The facts printMachine gives, without PostgreSQL (none is involved), and the disk the files go to. */
function printHost(dir: string): void {
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
  log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (the machine is shared: other processes add noise)`);
}

// ---------------------------------------------------------------------------------------------
// Bodies

/**
 * One 64 KiB block: `%PDF-` then random bytes. Every chunk of every body is this block (never changed, so it may be
 * queued in several sockets at once). That also keeps fetch's own copy cheap: fetch tees a streamed request body
 * (unless `window: null, redirect: 'error'`) and keeps every chunk it sent until the call ends — here 320
 * references to one block rather than 20 MiB per upload.
 */
function pdfBlock(): Buffer {
  const block = randomBytes(BLOCK);
  block.write('%PDF-1.7\n%bench\n', 0, 'latin1');
  return block;
}

/** `bytes` bytes, made as they are read: nothing is read ahead (highWaterMark 0), so the client holds a block, not the file. */
function pdfStream(bytes: number, block: Buffer): ReadableStream<Uint8Array> {
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
// Step 1: the machine's own rates (one core, this process)

interface Baselines {
  sha256: number;
  aesGcm: number;
  diskFsync: number;
  httpHop: number;
}

const rate = (bytes: number, ms: number): number => bytes / MiB / (ms / 1000);

async function measureBaselines(dir: string, block: Buffer): Promise<Baselines> {
  const bytes = BASELINE_MIB * MiB;
  const blocks = bytes / BLOCK;

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

  // One hop as the system makes two of them (client → gateway, gateway → verification): fetch with a stream body
  // into a node:http server that reads and drops it; both ends on this one thread.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const { port } = server.address() as AddressInfo;
    t = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: pdfStream(bytes, block), duplex: 'half' } as RequestInit);
    await res.arrayBuffer();
  } finally {
    await new Promise((ok) => server.close(ok));
  }
  const httpHop = rate(bytes, performance.now() - t);
  return { sha256, aesGcm, diskFsync, httpHop };
}

// ---------------------------------------------------------------------------------------------
// The system, in a child process

/** The server's collections since the last reset, and its memory as each batch of them was reported (an upper bound of what was live). */
interface GcStats {
  minor: number;
  major: number;
  incremental: number;
  weak: number;
  pauseMs: number;
  maxArrayBuffersAfter: number;
  maxExternalAfter: number;
}

interface ProbeReply {
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

class RunningServer {
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
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.output.splice(0, Math.max(0, this.output.length - 40));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static async start(settings: Record<string, string>): Promise<{ server: RunningServer; url: string }> {
    const child = spawn(process.execPath, ['--expose-gc', '-e', CHILD_PRELUDE, 'tools/scripts/run-ts.cjs', 'tools/embedded/src/main.ts'], {
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
  residentByKind(): { heap: number; anonymous: number; files: number; other: number } | undefined {
    let text: string;
    try {
      text = readFileSync(`/proc/${this.pid}/smaps`, 'utf8');
    } catch {
      return undefined;
    }
    const out = { heap: 0, anonymous: 0, files: 0, other: 0 };
    let kind: keyof typeof out = 'other';
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

/** The server's RSS: /proc when there is one, else what the server reports. */
async function rssOf(server: RunningServer): Promise<number> {
  return server.procMemory()?.rss ?? (await server.ask('mem')).mem.rss;
}

// ---------------------------------------------------------------------------------------------
// Sampling

interface MemorySample {
  t: number;
  rss: number;
}
interface HeapSample {
  t: number;
  mem: NodeJS.MemoryUsage;
}

/** RSS every SAMPLE_MS from /proc (nothing asked of the server), and memoryUsage() from the server whenever the last answer is in. */
function startSampling(server: RunningServer): { stop(): { rss: MemorySample[]; heap: HeapSample[] } } {
  const rss: MemorySample[] = [];
  const heap: HeapSample[] = [];
  let asking = false;
  const tick = () => {
    const t = performance.now();
    const proc = server.procMemory();
    if (proc) rss.push({ t, rss: proc.rss });
    if (!asking) {
      asking = true;
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
  const timer = setInterval(tick, SAMPLE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return { rss, heap };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The API

interface Api {
  url: string;
  token: string;
}

async function capture(api: Api): Promise<string> {
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

interface UploadResult {
  requestId: string;
  status: number;
  body: Record<string, unknown> | undefined;
  error?: string;
  ms: number;
}

async function upload(api: Api, requestId: string, block: Buffer): Promise<UploadResult> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${api.url}/api/v1/requests/${requestId}/verification/evidence/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/octet-stream', 'x-evidence-content-type': 'application/pdf' },
      body: pdfStream(FILE_BYTES, block),
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = { text };
    }
    return { requestId, status: res.status, body, ms: performance.now() - t0 };
  } catch (e) {
    return { requestId, status: 0, body: undefined, error: e instanceof Error ? `${e.message}${e.cause ? ` (${String(e.cause)})` : ''}` : String(e), ms: performance.now() - t0 };
  }
}

function isAccepted(r: UploadResult): boolean {
  const b = r.body;
  return (
    r.status === 202 &&
    b !== undefined &&
    JSON.stringify(Object.keys(b).sort()) === JSON.stringify(['artifactKey', 'evidenceId', 'requestId', 'status']) &&
    typeof b.artifactKey === 'string' &&
    /^ev_[0-9a-f]{32}$/.test(b.artifactKey) &&
    b.requestId === r.requestId
  );
}

/** Every file under a directory (recursively), with its size. */
function filesUnder(dir: string): { path: string; size: number }[] {
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), 'dsar-bench-evidence-'));
  const dataDir = join(dir, 'data');
  const storageDir = join(dir, 'storage');
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

  let failed = false;
  try {
    printHost(dir);
    const block = pdfBlock();

    if (BASELINE_MIB > 0) {
      log(`\nthis machine, one core, ${BASELINE_MIB} MiB each, before the system starts`);
      const b = await measureBaselines(dir, block);
      log(`  SHA-256 ${b.sha256.toFixed(0)} MiB/s; AES-256-GCM in 64 KiB chunks ${b.aesGcm.toFixed(0)} MiB/s; file write + fsync ${b.diskFsync.toFixed(0)} MiB/s;`);
      log(`  one loopback HTTP hop (fetch stream body → node:http, both ends on one thread) ${b.httpHop.toFixed(0)} MiB/s`);
    }

    const token = randomBytes(24).toString('hex');
    const limit = Math.max(DEFAULT_EVIDENCE_MAX_BYTES, FILE_BYTES);
    const settings: Record<string, string> = {
      // Embedded mode, whatever this shell has set for the distributed one.
      DB_DRIVER: 'pglite',
      BUS_DRIVER: 'memory',
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      DATA_DIR: dataDir,
      STORAGE_DIR: storageDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DSAR_API_KEYS: JSON.stringify([{ token, tenantId: 'bench', roles: ['admin'] }]),
      // Off, so that a larger BENCH_UPLOADS is not answered 429 (the default is 600 calls a minute per caller).
      RATE_LIMIT_PER_MINUTE: '0',
      ...(limit !== DEFAULT_EVIDENCE_MAX_BYTES ? { EVIDENCE_MAX_BYTES: String(limit) } : {}),
    };
    log(`\nstarting the system (tools/embedded/src/main.ts, embedded mode: PGlite under DATA_DIR, in-memory bus) in a child process`);
    log(`  DATA_DIR=${dataDir} STORAGE_DIR=${storageDir} LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 ` +
        (limit !== DEFAULT_EVIDENCE_MAX_BYTES ? `EVIDENCE_MAX_BYTES=${limit}` : `EVIDENCE_MAX_BYTES default (${DEFAULT_EVIDENCE_MAX_BYTES}, the file size exactly)`));
    const startT = performance.now();
    const started = await RunningServer.start(settings);
    server = started.server;
    const api: Api = { url: started.url, token };
    log(`  up on ${api.url} in ${((performance.now() - startT) / 1000).toFixed(1)} s, pid ${server.pid}; RSS after start-up ${mib(await rssOf(server))} MiB`);

    const ids: string[] = [];
    const captureT = performance.now();
    for (let i = 0; i < 1 + UPLOADS + CONCURRENCY; i++) ids.push(await capture(api));
    log(`  captured ${ids.length} requests in ${((performance.now() - captureT) / 1000).toFixed(1)} s`);

    const warm = await upload(api, ids[0], block);
    if (!isAccepted(warm)) throw new Error(`the warm-up upload was answered ${warm.status}: ${warm.error ?? JSON.stringify(warm.body)}`);
    log(`  warm-up upload of ${FILE_MIB} MiB: 202 in ${fmt(warm.ms)} ms`);

    const gcIdle = await server.ask('gc');
    await new Promise((ok) => setTimeout(ok, 500));
    const idleSamples: number[] = [];
    for (let i = 0; i < 20; i++) {
      idleSamples.push(await rssOf(server));
      await new Promise((ok) => setTimeout(ok, SAMPLE_MS));
    }
    const idle = percentile(idleSamples, 0.5);
    const idleKinds = server.residentByKind();
    const m0 = gcIdle.mem;
    log(`  idle after the warm-up and a full GC: RSS ${mib(idle)} MiB (median of 20 samples, ${mib(Math.min(...idleSamples))}–${mib(Math.max(...idleSamples))}); ` +
        `heap used ${mib(m0.heapUsed)} of ${mib(m0.heapTotal)} MiB, external ${mib(m0.external)} MiB (array buffers ${mib(m0.arrayBuffers)})`);

    log(`\nuploading ${UPLOADS} files of ${FILE_MIB} MiB, ${CONCURRENCY} at a time, each to its own request; RSS sampled every ${SAMPLE_MS} ms`);
    const peakReset = server.resetPeak();
    const cpu0 = (await server.ask('reset')).cpu;
    const clientCpu0 = process.cpuUsage();
    const sampling = startSampling(server);
    const t0 = performance.now();
    const results: UploadResult[] = new Array(UPLOADS);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < UPLOADS) {
        const i = next++;
        results[i] = await upload(api, ids[i + 1], block);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, UPLOADS) }, worker));
    const wallMs = performance.now() - t0;
    const samples = sampling.stop();
    const kernelPeak = peakReset ? server.procMemory()?.hwm : undefined;
    const clientCpu = process.cpuUsage(clientCpu0);
    const endKinds = server.residentByKind();
    const end = await server.ask('mem');
    const cpu1 = end.cpu;
    const serverCpuS = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1e6;
    const clientCpuS = (clientCpu.user + clientCpu.system) / 1e6;

    const after = await server.ask('gc');
    await new Promise((ok) => setTimeout(ok, 500));
    const rssAfter = await rssOf(server);
    const afterKinds = server.residentByKind();

    // Not timed: what is live while uploads are in flight (two full GCs free every dead Buffer, as at idle).
    let probesDone = 0;
    const probing = ids.slice(1 + UPLOADS).map((id) => upload(api, id, block).then((r) => (probesDone++, r)));
    await new Promise((ok) => setTimeout(ok, 1000));
    const live = await server.ask('gc');
    const probesInFlight = probing.length - probesDone;
    const liveRss = await rssOf(server);
    const probes = await Promise.all(probing);

    // Checks
    const accepted = results.filter(isAccepted);
    const refused = [...results, ...probes].filter((r) => !isAccepted(r));
    for (const r of refused.slice(0, 5)) log(`  NOT ACCEPTED: ${r.status} ${r.error ?? JSON.stringify(r.body)}`);
    const files = filesUnder(join(storageDir, 'data'));
    const byName = new Map(files.map((f) => [basename(f.path), f.size]));
    const onDisk = accepted.filter((r) => (byName.get(r.body?.artifactKey as string) ?? 0) >= FILE_BYTES);
    const evidenceFiles = files.filter((f) => /^ev_[0-9a-f]{32}$/.test(basename(f.path)));
    const temporary = files.filter((f) => basename(f.path).startsWith('~'));
    const expectedFiles = 1 + UPLOADS + probes.length;
    failed = accepted.length !== UPLOADS || onDisk.length !== UPLOADS || evidenceFiles.length !== expectedFiles || temporary.length > 0 || refused.length > 0;

    // Figures
    const latencies = results.map((r) => r.ms);
    const totalBytes = UPLOADS * FILE_BYTES;
    const sampledPeak = Math.max(...samples.rss.map((s) => s.rss));
    const peak = Math.max(sampledPeak, kernelPeak ?? 0);
    const growth = peak - idle;
    const gaps = samples.rss.slice(1).map((s, i) => s.t - samples.rss[i].t);
    const atPeak = samples.rss.find((s) => s.rss === sampledPeak);
    const heapAtPeak = atPeak && samples.heap.length ? samples.heap.reduce((a, b) => (Math.abs(b.t - atPeak.t) < Math.abs(a.t - atPeak.t) ? b : a)) : undefined;
    const maxOf = (f: (m: NodeJS.MemoryUsage) => number) => Math.max(...samples.heap.map((h) => f(h.mem)));
    const perSecond: number[] = [];
    for (const s of samples.rss) {
      const second = Math.floor((s.t - t0) / 1000);
      if (second >= 0) perSecond[second] = Math.max(perSecond[second] ?? 0, s.rss);
    }

    log(`  ${accepted.length} of ${UPLOADS} answered 202 {artifactKey, evidenceId, requestId, status}; ${onDisk.length} of them are files on disk of ≥ ${FILE_BYTES} bytes; ` +
        `${evidenceFiles.length} evidence files in STORAGE_DIR (expected ${expectedFiles}, with the warm-up and the ${probes.length} of the live probe), ${temporary.length} temporary`);
    log(`  total ${(wallMs / 1000).toFixed(2)} s for ${mib(totalBytes)} MiB: ${rate(totalBytes, wallMs).toFixed(1)} MiB/s, ${(UPLOADS / (wallMs / 1000)).toFixed(2)} uploads/s`);
    log(`  per upload: p50 ${fmt(percentile(latencies, 0.5))} ms, p95 ${fmt(percentile(latencies, 0.95))} ms, min ${fmt(Math.min(...latencies))} ms, max ${fmt(Math.max(...latencies))} ms`);
    log(`  CPU: server ${serverCpuS.toFixed(1)} s (${((serverCpuS / (wallMs / 1000)) * 100).toFixed(0)} % of one core; ${((serverCpuS * 1000) / (totalBytes / MiB)).toFixed(2)} ms per MiB), ` +
        `client ${clientCpuS.toFixed(1)} s (${((clientCpuS / (wallMs / 1000)) * 100).toFixed(0)} %); ${os.cpus().length} cores`);
    log(`  RSS: idle ${mib(idle)} MiB, peak ${mib(peak)} MiB (sampled ${mib(sampledPeak)}, ${samples.rss.length} samples, largest gap ${fmt(Math.max(0, ...gaps))} ms; ` +
        `kernel VmHWM ${kernelPeak !== undefined ? `${mib(kernelPeak)}` : 'not available'}), growth ${mib(growth)} MiB; after the run and a full GC ${mib(rssAfter)} MiB (${mib(rssAfter - idle)} above idle)`);
    if (heapAtPeak) {
      const h = heapAtPeak.mem;
      log(`  server memory at the sampled peak: heap used ${mib(h.heapUsed)} of ${mib(h.heapTotal)} MiB, external ${mib(h.external)} MiB (array buffers ${mib(h.arrayBuffers)}); ` +
          `maxima over the run: heap total ${mib(maxOf((m) => m.heapTotal))}, external ${mib(maxOf((m) => m.external))}, array buffers ${mib(maxOf((m) => m.arrayBuffers))} MiB (${samples.heap.length} samples)`);
    }
    log(`  after the run, full GC: heap used ${mib(after.mem.heapUsed)} of ${mib(after.mem.heapTotal)} MiB, external ${mib(after.mem.external)} MiB (array buffers ${mib(after.mem.arrayBuffers)})`);
    const g = end.gcs;
    log(`  GCs during the run: ${g.minor} scavenges, ${g.major} mark-compacts, ${g.incremental} incremental marking steps, ${g.weak} weak-callback passes; ${fmt(g.pauseMs)} ms in all; ` +
        `as the GCs were reported (an upper bound of what was live): array buffers at most ${mib(g.maxArrayBuffersAfter)} MiB, external at most ${mib(g.maxExternalAfter)} MiB`);
    if (idleKinds && endKinds && afterKinds) {
      const row = (name: string, k: { heap: number; anonymous: number; files: number; other: number }) =>
        `${name}: [heap] ${mib(k.heap)}, anonymous ${mib(k.anonymous)}, files ${mib(k.files)}, other ${mib(k.other)}`;
      log(`  resident by mapping (/proc/<pid>/smaps, MiB) — ${row('idle', idleKinds)}; ${row('end of the run', endKinds)}; ${row('after the run and a full GC', afterKinds)}`);
    }
    log(`  live with ${probesInFlight} of ${probes.length} uploads in flight (two full GCs 1 s after they started, not timed): heap used ${mib(live.mem.heapUsed)} MiB, ` +
        `external ${mib(live.mem.external)} MiB, array buffers ${mib(live.mem.arrayBuffers)} MiB (${mib(live.mem.arrayBuffers - m0.arrayBuffers)} above idle); RSS then ${mib(liveRss)} MiB`);
    log(`  RSS per second of the run (max, MiB): ${Array.from(perSecond, (b) => (b === undefined ? '-' : (b / MiB).toFixed(0))).join(' ')}`);
    log(`  target: peak RSS growth < ${mib(TARGET_GROWTH)} MiB above idle: ${growth < TARGET_GROWTH ? 'MET' : 'NOT MET'} (${mib(growth)} MiB)`);
    log(`\n| uploads × MiB | concurrency | total s | MiB/s | uploads/s | p50 ms | p95 ms | idle RSS MiB | peak RSS MiB | growth MiB | server CPU s | client CPU s |`);
    log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    log(`| ${UPLOADS} × ${FILE_MIB} | ${CONCURRENCY} | ${(wallMs / 1000).toFixed(1)} | ${rate(totalBytes, wallMs).toFixed(1)} | ${(UPLOADS / (wallMs / 1000)).toFixed(2)} | ` +
        `${fmt(percentile(latencies, 0.5))} | ${fmt(percentile(latencies, 0.95))} | ${mib(idle)} | ${mib(peak)} | ${mib(growth)} | ${serverCpuS.toFixed(1)} | ${clientCpuS.toFixed(1)} |`);
    log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (failed) log('\nFAILED: not every upload was accepted and stored (see above)');
  } catch (e) {
    if (server) log(`system output (last lines):\n${server.lastOutput()}`);
    throw e;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await cleanUp();
  }
  if (failed) throw new Error('the uploads did not all succeed');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);

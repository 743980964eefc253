import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import { basename, join } from 'node:path';
import { benchEnv, fmt, log, percentile, runBench } from './bench-kit';
import {
  type Api,
  blockStream,
  capture,
  describeError,
  embeddedSettings,
  filesUnder,
  gcLine,
  heapLine,
  idleLine,
  inScratchDir,
  jsonOf,
  kindsRow,
  loadAverage,
  measureBaselines,
  measureIdle,
  measurePhase,
  MiB,
  mib,
  peakLine,
  printBaselines,
  printHost,
  rate,
  RunningServer,
  rssOf,
  rssPerSecond,
} from './system-child';

/**
 * Evidence uploads: 50 files of 20 MiB, 8 at a time, through the whole system;
 * throughput and the server's peak RSS growth above idle (target: under 64 MiB).
 *
 *   node tools/scripts/run-ts.cjs tools/bench/evidence-upload.bench.ts
 *
 * The system runs as `npm start` runs it, in a CHILD process, with DATA_DIR
 * and STORAGE_DIR in a fresh directory under the OS temp dir (a real disk), so
 * that the RSS measured is the server's alone (system-child.ts: how it is
 * started, asked for its memory and CPU over IPC, and sampled). RSS is read
 * from /proc/<pid>/status every BENCH_SAMPLE_MS, and the kernel's own peak
 * (VmHWM, reset when the measured phase starts) catches what falls between two samples.
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

const env = benchEnv;

const UPLOADS = Math.max(1, env('BENCH_UPLOADS', 50));
const CONCURRENCY = Math.max(1, env('BENCH_CONCURRENCY', 8));
const FILE_MIB = Math.max(1, env('BENCH_FILE_MIB', 20));
const SAMPLE_MS = Math.max(10, env('BENCH_SAMPLE_MS', 50));
const BASELINE_MIB = env('BENCH_BASELINE_MIB', 256);

const FILE_BYTES = FILE_MIB * MiB;
/** EVIDENCE_MAX_BYTES' default: 20 MiB exactly, and a file of exactly that size is accepted. */
const DEFAULT_EVIDENCE_MAX_BYTES = 20 * MiB;
/** The target: peak RSS at most this much above idle. */
const TARGET_GROWTH = 64 * MiB;
/** Plaintext bytes per chunk the client sends, and EncryptedStorage's default chunk size. */
const BLOCK = 64 * 1024;
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

// ---------------------------------------------------------------------------------------------
// The API

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
      body: blockStream(FILE_BYTES, block),
      duplex: 'half',
    } as RequestInit);
    const body = await jsonOf(res);
    return { requestId, status: res.status, body, ms: performance.now() - t0 };
  } catch (e) {
    return { requestId, status: 0, body: undefined, error: describeError(e), ms: performance.now() - t0 };
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

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  let failed = false;
  await inScratchDir('dsar-bench-evidence-', async ({ dir, dataDir, storageDir }, own) => {
    printHost(dir);
    const block = pdfBlock();

    if (BASELINE_MIB > 0) {
      log(`\nthis machine, one core, ${BASELINE_MIB} MiB each, before the system starts`);
      printBaselines(await measureBaselines(dir, block, BASELINE_MIB * MiB));
    }

    const token = randomBytes(24).toString('hex');
    const limit = Math.max(DEFAULT_EVIDENCE_MAX_BYTES, FILE_BYTES);
    const settings: Record<string, string> = {
      ...embeddedSettings({ dataDir, storageDir }, token),
      ...(limit !== DEFAULT_EVIDENCE_MAX_BYTES ? { EVIDENCE_MAX_BYTES: String(limit) } : {}),
    };
    log(`\nstarting the system (tools/embedded/src/main.ts, embedded mode: PGlite under DATA_DIR, in-memory bus) in a child process`);
    log(
      `  DATA_DIR=${dataDir} STORAGE_DIR=${storageDir} LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=0 ` +
        (limit !== DEFAULT_EVIDENCE_MAX_BYTES ? `EVIDENCE_MAX_BYTES=${limit}` : `EVIDENCE_MAX_BYTES default (${DEFAULT_EVIDENCE_MAX_BYTES}, the file size exactly)`),
    );
    const startT = performance.now();
    const started = await RunningServer.start(settings);
    const server = started.server;
    own(server);
    const api: Api = { url: started.url, token };
    log(`  up on ${api.url} in ${((performance.now() - startT) / 1000).toFixed(1)} s, pid ${server.pid}; RSS after start-up ${mib(await rssOf(server))} MiB`);

    const ids: string[] = [];
    const captureT = performance.now();
    for (let i = 0; i < 1 + UPLOADS + CONCURRENCY; i++) ids.push(await capture(api));
    log(`  captured ${ids.length} requests in ${((performance.now() - captureT) / 1000).toFixed(1)} s`);

    const warm = await upload(api, ids[0], block);
    if (!isAccepted(warm)) throw new Error(`the warm-up upload was answered ${warm.status}: ${warm.error ?? JSON.stringify(warm.body)}`);
    log(`  warm-up upload of ${FILE_MIB} MiB: 202 in ${fmt(warm.ms)} ms`);

    const idleState = await measureIdle(server, SAMPLE_MS);
    const idle = idleState.rss;
    const m0 = idleState.gc.mem;
    log(`  idle after the warm-up and a full GC: ${idleLine(idleState)}`);

    log(`\nuploading ${UPLOADS} files of ${FILE_MIB} MiB, ${CONCURRENCY} at a time, each to its own request; RSS sampled every ${SAMPLE_MS} ms`);
    const phase = await measurePhase(server, SAMPLE_MS, async () => {
      const results: UploadResult[] = new Array(UPLOADS);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < UPLOADS) {
          const i = next++;
          results[i] = await upload(api, ids[i + 1], block);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, UPLOADS) }, worker));
      return results;
    });
    const { result: results, wallMs, serverCpuS, clientCpuS, peak } = phase;

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
    const growth = peak - idle;

    log(
      `  ${accepted.length} of ${UPLOADS} answered 202 {artifactKey, evidenceId, requestId, status}; ${onDisk.length} of them are files on disk of ≥ ${FILE_BYTES} bytes; ` +
        `${evidenceFiles.length} evidence files in STORAGE_DIR (expected ${expectedFiles}, with the warm-up and the ${probes.length} of the live probe), ${temporary.length} temporary`,
    );
    log(`  total ${(wallMs / 1000).toFixed(2)} s for ${mib(totalBytes)} MiB: ${rate(totalBytes, wallMs).toFixed(1)} MiB/s, ${(UPLOADS / (wallMs / 1000)).toFixed(2)} uploads/s`);
    log(`  per upload: p50 ${fmt(percentile(latencies, 0.5))} ms, p95 ${fmt(percentile(latencies, 0.95))} ms, min ${fmt(Math.min(...latencies))} ms, max ${fmt(Math.max(...latencies))} ms`);
    log(
      `  CPU: server ${serverCpuS.toFixed(1)} s (${((serverCpuS / (wallMs / 1000)) * 100).toFixed(0)} % of one core; ${((serverCpuS * 1000) / (totalBytes / MiB)).toFixed(2)} ms per MiB), ` +
        `client ${clientCpuS.toFixed(1)} s (${((clientCpuS / (wallMs / 1000)) * 100).toFixed(0)} %); ${os.cpus().length} cores`,
    );
    log(`  ${peakLine(phase, idle)}; after the run and a full GC ${mib(rssAfter)} MiB (${mib(rssAfter - idle)} above idle)`);
    const heap = heapLine(phase);
    if (heap) log(`  ${heap}`);
    log(`  after the run, full GC: heap used ${mib(after.mem.heapUsed)} of ${mib(after.mem.heapTotal)} MiB, external ${mib(after.mem.external)} MiB (array buffers ${mib(after.mem.arrayBuffers)})`);
    log(`  ${gcLine(phase.end.gcs)}`);
    if (idleState.kinds && phase.endKinds && afterKinds) {
      log(
        `  resident by mapping (/proc/<pid>/smaps, MiB) — ${kindsRow('idle', idleState.kinds)}; ${kindsRow('end of the run', phase.endKinds)}; ${kindsRow('after the run and a full GC', afterKinds)}`,
      );
    }
    log(
      `  live with ${probesInFlight} of ${probes.length} uploads in flight (two full GCs 1 s after they started, not timed): heap used ${mib(live.mem.heapUsed)} MiB, ` +
        `external ${mib(live.mem.external)} MiB, array buffers ${mib(live.mem.arrayBuffers)} MiB (${mib(live.mem.arrayBuffers - m0.arrayBuffers)} above idle); RSS then ${mib(liveRss)} MiB`,
    );
    log(`  RSS per second of the run (max, MiB): ${rssPerSecond(phase)}`);
    log(`  target: peak RSS growth < ${mib(TARGET_GROWTH)} MiB above idle: ${growth < TARGET_GROWTH ? 'MET' : 'NOT MET'} (${mib(growth)} MiB)`);
    log(`\n| uploads × MiB | concurrency | total s | MiB/s | uploads/s | p50 ms | p95 ms | idle RSS MiB | peak RSS MiB | growth MiB | server CPU s | client CPU s |`);
    log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    log(
      `| ${UPLOADS} × ${FILE_MIB} | ${CONCURRENCY} | ${(wallMs / 1000).toFixed(1)} | ${rate(totalBytes, wallMs).toFixed(1)} | ${(UPLOADS / (wallMs / 1000)).toFixed(2)} | ` +
        `${fmt(percentile(latencies, 0.5))} | ${fmt(percentile(latencies, 0.95))} | ${mib(idle)} | ${mib(peak)} | ${mib(growth)} | ${serverCpuS.toFixed(1)} | ${clientCpuS.toFixed(1)} |`,
    );
    log(`load average ${loadAverage()}`);
    if (failed) log('\nFAILED: not every upload was accepted and stored (see above)');
  });
  if (failed) throw new Error('the uploads did not all succeed');
}

runBench(main);

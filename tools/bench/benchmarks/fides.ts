import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, freePort, uniqueSuffix } from '@dsar/platform/testing';
import { inTurn, jsonHeaders, peopleBodies } from '../harness/api';
import { exactly, figure } from '../harness/figures';
import { bodyFrom } from '../harness/load';
import { Proc } from '../harness/process';
import type { Benchmark, Context, Figure, Target } from '../harness/types';
import { created, processTree, REPO_ROOT, sleep, wallMs } from '../harness/util';
import { cpuByService, distributedSide, measure, type Sample, type Side } from './intake';

/**
 * fides: our intake beside Ethyca Fides's, the open-source DSR system users compare us with, on the same machine in
 * the same run (issue [throughput]: at least 5× its throughput). The recipe of
 * ../shared/reference/fides-side-by-side.md: Fides from PyPI (`ethyca-fides`, Python 3.13) and Redis from Debian,
 * installed once under .tools/ by tools/scripts/fides.sh; Fides on a fresh database of the project's PostgreSQL,
 * uvicorn with two workers, approval required so that its intake, like ours, only records the request. Both at 16
 * clients for BENCH_FIDES_S seconds, back to back, the order alternating. Runs by name only: `npm run bench -- fides`.
 */

const run = promisify(execFile);

/** Fides's own policy for an access request, created at its first start. */
const POLICY_KEY = 'default_access_policy';

interface Installed {
  uvicorn: string;
  redisServer: string;
  fidesVersion: string;
  redisVersion: string;
  python: string;
}

/** tools/scripts/fides.sh install: Fides and Redis, installed on first use (minutes) and reused after. */
async function install(ctx: Context): Promise<Installed> {
  ctx.log('  installing Fides and Redis when missing (tools/scripts/fides.sh; the first time takes minutes)');
  const { stdout, stderr } = await run('bash', ['tools/scripts/fides.sh', 'install'], { cwd: REPO_ROOT, timeout: 30 * 60_000, maxBuffer: 16 * 1024 * 1024 });
  for (const line of stderr.trimEnd().split('\n').filter(Boolean)) ctx.log(`    ${line}`);
  const paths = Object.fromEntries(stdout.split('\n').flatMap((line) => (/^[A-Z_]+=/.test(line) ? [[line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]] : [])));
  const uvicorn = paths.FIDES_UVICORN;
  const redisServer = paths.REDIS_SERVER;
  if (!uvicorn || !redisServer) throw new Error(`tools/scripts/fides.sh install printed no paths:\n${stdout}\n${stderr}`);
  const python = join(uvicorn, '../python');
  const [fides, redis, py] = await Promise.all([run(python, ['-c', "import importlib.metadata as m; print(m.version('ethyca-fides'))"]), run(redisServer, ['--version']), run(python, ['--version'])]);
  return {
    uvicorn,
    redisServer,
    fidesVersion: fides.stdout.trim(),
    redisVersion: /v=(\S+)/.exec(redis.stdout)?.[1] ?? redis.stdout.trim(),
    python: py.stdout.trim().replace(/^Python /, ''),
  };
}

/** Whether a Redis server answers PING on the port. */
function redisPong(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(2000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) socket.end();
    });
    socket.on('close', () => ok(answer.startsWith('+PONG')));
    socket.on('error', () => ok(false));
  });
}

/** Redis on a free loopback port, in memory only (no snapshot, no append-only file). */
async function startRedis(redisServer: string, dir: string): Promise<{ proc: Proc; port: number }> {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const proc = Proc.program('redis', redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {}, join(dir, 'redis.log'), dir);
  const t0 = performance.now();
  while (!(await redisPong(port))) {
    if (!proc.running || performance.now() - t0 > 30_000) {
      await proc.stop();
      throw new Error(`Redis did not answer on port ${port}:\n${proc.tail()}`);
    }
    await sleep(100);
  }
  return { proc, port };
}

/** A fresh database `fides_bench_<random>` on the project's PostgreSQL, dropped with the run's other databases on Ctrl-C. */
async function createDatabase(): Promise<{ url: URL; name: string; drop: () => Promise<void> }> {
  const db = await createTestDatabase('fides_bench');
  created.databases.push(db.name);
  return { ...db, url: new URL(db.url) };
}

export interface Fides {
  url: string;
  proc: Proc;
  token: string;
  /** The measured start (two workers) to healthy, and the first start (one worker, migrations) to healthy. */
  readyMs: number;
  migrateMs: number;
}

/** The recipe's environment: its database and Redis, approval required (intake only records), no rate limit, warnings only. */
export function fidesEnv(db: URL, redisPort: number, client: { id: string; secret: string }): Record<string, string> {
  return {
    FIDES__DATABASE__SERVER: db.hostname,
    FIDES__DATABASE__PORT: db.port || '5432',
    FIDES__DATABASE__USER: decodeURIComponent(db.username),
    FIDES__DATABASE__PASSWORD: decodeURIComponent(db.password),
    FIDES__DATABASE__DB: db.pathname.slice(1),
    FIDES__REDIS__HOST: '127.0.0.1',
    FIDES__REDIS__PORT: String(redisPort),
    FIDES__REDIS__PASSWORD: '',
    FIDES__REDIS__SSL: 'false',
    FIDES__REDIS__ENABLED: 'true',
    FIDES__SECURITY__APP_ENCRYPTION_KEY: randomBytes(16).toString('hex'),
    FIDES__SECURITY__OAUTH_ROOT_CLIENT_ID: client.id,
    FIDES__SECURITY__OAUTH_ROOT_CLIENT_SECRET: client.secret,
    FIDES__SECURITY__ENV: 'dev',
    FIDES__SECURITY__REQUEST_RATE_LIMIT: '100000/minute',
    FIDES__EXECUTION__REQUIRE_MANUAL_REQUEST_APPROVAL: 'true',
    FIDES__EXECUTION__SUBJECT_IDENTITY_VERIFICATION_REQUIRED: 'false',
    FIDES__CELERY__TASK_ALWAYS_EAGER: 'true',
    FIDES__LOGGING__LEVEL: 'WARNING',
    // No usage reports to Ethyca from a benchmark.
    FIDES__USER__ANALYTICS_OPT_OUT: 'true',
  };
}

/** Fides's answer to a create: one verdict per request of the batch. */
interface FidesAnswer {
  succeeded?: unknown[];
  failed?: unknown[];
}

/** How many of a batch's requests Fides accepted, from its answer's body (0 for anything else). */
export function succeededIn(text: string): number {
  try {
    const answer = JSON.parse(text) as FidesAnswer;
    return Array.isArray(answer.succeeded) ? answer.succeeded.length : 0;
  } catch {
    return 0;
  }
}

/** The recipe's body: one access request by email under Fides's default access policy. */
export function fidesBody(requestedAt: Date, email = 'jane@example.org'): string {
  return JSON.stringify([{ identity: { email }, policy_key: POLICY_KEY, requested_at: requestedAt.toISOString() }]);
}

async function token(url: string, client: { id: string; secret: string }): Promise<string> {
  const res = await fetch(`${url}/api/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: client.id, client_secret: client.secret, grant_type: 'client_credentials' }).toString(),
  });
  const text = await res.text();
  const access = res.ok ? (JSON.parse(text) as { access_token?: unknown }).access_token : undefined;
  if (typeof access !== 'string') throw new Error(`POST /api/v1/oauth/token answered ${res.status}: ${text.slice(0, 300)}`);
  return access;
}

/** Whether Fides answers its health check (it does once its migrations are done and it serves). */
async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** uvicorn with `workers` workers in `dir` (holding the empty data/saas folders the wheel lacks), polled until healthy. */
async function launchFides(ctx: Context, installed: Installed, env: Record<string, string>, dir: string, workers: number): Promise<{ url: string; proc: Proc; readyMs: number }> {
  for (const d of ['config', 'dataset', 'icon']) mkdirSync(join(dir, 'data/saas', d), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ['fides.api.main:app', '--host', '127.0.0.1', '--port', String(port), '--workers', String(workers)];
  const proc = Proc.program(`fides-${workers}`, installed.uvicorn, args, env, join(dir, `fides-${workers}-workers.log`), dir);
  try {
    const timeoutMs = ctx.settings.fidesReadyTimeoutS * 1000;
    while (!(await healthy(url))) {
      if (!proc.running) throw new Error(`Fides ${proc.exit} before it was ready; last lines of ${proc.logFile}:\n${proc.tail(40)}`);
      if (performance.now() - proc.startedAt > timeoutMs) throw new Error(`Fides not ready within ${ctx.settings.fidesReadyTimeoutS} s:\n${proc.tail(40)}`);
      await sleep(1000);
    }
    return { url, proc, readyMs: performance.now() - proc.startedAt };
  } catch (e) {
    await proc.stop();
    throw e;
  }
}

/**
 * Fides as the recipe runs it, two workers, on a database its first start (one worker) has migrated and seeded: two
 * workers migrating a fresh database at once collide (one dies on a duplicate key and uvicorn starts it again). Then
 * a token of its root client, and one create checked.
 */
async function startFides(ctx: Context, installed: Installed, db: URL, redisPort: number, dir: string, body: string): Promise<Fides> {
  const client = { id: `bench-${uniqueSuffix()}`, secret: randomBytes(24).toString('base64url') };
  const env = fidesEnv(db, redisPort, client);
  const first = await launchFides(ctx, installed, env, dir, 1);
  await first.proc.stop();
  ctx.log(`  Fides migrated its database in ${(first.readyMs / 1000).toFixed(0)} s (one worker); starting it with two`);
  const { url, proc, readyMs } = await launchFides(ctx, installed, env, dir, 2);
  try {
    const access = await token(url, client);
    const res = await fetch(`${url}/api/v1/privacy-request`, { method: 'POST', headers: jsonHeaders(access), body });
    const text = await res.text();
    if (res.status !== 200 || succeededIn(text) !== 1) throw new Error(`Fides refused the benchmark's create (${res.status}): ${text.slice(0, 500)}`);
    return { url, proc, token: access, readyMs, migrateMs: first.readyMs };
  } catch (e) {
    await proc.stop();
    throw e;
  }
}

/**
 * Fides under load: its creates through `requests` so that each answer's verdicts are counted. `restarts` lists the
 * workers uvicorn replaced during a measured run: its supervisor kills a worker that does not answer its ping within
 * 5 s (uvicorn 0.30, not configurable), which a loaded machine causes; that run's CPU is then unknown (the killed
 * worker's time is gone with it) and left out, and the requests it dropped count as errors.
 */
export function fidesSide(fides: Fides, nextBody: () => string): Side & { restarts: number[][] } {
  let succeeded = 0;
  let before: number[] = [];
  const restarts: number[][] = [];
  return {
    name: 'fides',
    restarts,
    spec: (connections, durationS) => {
      succeeded = 0;
      before = processTree(fides.proc.pid);
      return {
        url: fides.url,
        connections,
        durationS,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/privacy-request',
            headers: jsonHeaders(fides.token),
            setupRequest: bodyFrom(nextBody),
            onResponse: (status, text) => {
              if (status === 200) succeeded += succeededIn(text);
            },
          },
        ],
      };
    },
    // The uvicorn supervisor, its workers and multiprocessing's resource tracker (started with them).
    pids: () => processTree(fides.proc.pid),
    recount: (s) => {
      const counted = recount(s, succeeded);
      const after = new Set(processTree(fides.proc.pid));
      const gone = before.filter((pid) => !after.has(pid));
      if (gone.length === 0) return counted;
      restarts.push(gone);
      return { ...counted, cpuMsPerOk: NaN, cpuMsPerOkByPid: {} };
    },
  };
}

/** A run's summary counting only the requests Fides accepted: a 200 without a succeeded verdict is an error. */
export function recount(s: Sample, succeeded: number): Sample {
  const perAccepted = (ms: number): number => (succeeded > 0 ? (ms * s.ok) / succeeded : NaN);
  return {
    ...s,
    ok: succeeded,
    errors: s.errors + Math.max(0, s.ok - succeeded),
    throughput: s.durationS > 0 ? succeeded / s.durationS : 0,
    cpuMsPerOk: perAccepted(s.cpuMsPerOk),
    cpuMsPerOkByPid: Object.fromEntries(Object.entries(s.cpuMsPerOkByPid).map(([pid, ms]) => [pid, perAccepted(ms)])),
  };
}

const atLeastFides = (bound: number): Target => ({ kind: 'ratio-min', bound, text: `≥ ${bound}× Fides` });

function figuresOf(samples: Record<string, Record<number, Sample[]>>, clients: number): Figure[] {
  const ours = samples.ours[clients];
  const fides = samples.fides[clients];
  const pick = (k: keyof Sample): number[] => ours.map((s) => s[k] as number);
  const fidesPick = (k: keyof Sample) => ({ label: 'Fides', samples: fides.map((s) => s[k] as number) });
  return [
    figure(`c${clients}.throughput`, `${clients} clients: throughput (accepted creates)`, 'req/s', pick('throughput'), { floor: fidesPick('throughput'), target: atLeastFides(5) }),
    figure(`c${clients}.p50`, `${clients} clients: p50`, 'ms', pick('p50'), { floor: fidesPick('p50') }),
    figure(`c${clients}.p99`, `${clients} clients: p99`, 'ms', pick('p99'), { floor: fidesPick('p99') }),
    figure(`c${clients}.errors`, `${clients} clients: errors (refused, transport, timeouts)`, 'count', pick('errors'), { floor: fidesPick('errors'), target: exactly(0, '0') }),
    figure(`c${clients}.cpu`, `${clients} clients: CPU per create, server processes (no PostgreSQL, Kafka, Redis)`, 'ms', pick('cpuMsPerOk'), { floor: fidesPick('cpuMsPerOk') }),
  ];
}

export const fides: Benchmark = {
  name: 'fides',
  summary: "POST /requests in distributed mode beside Ethyca Fides's POST /privacy-request (installed from PyPI, Redis from Debian) at 16 clients",
  inDefault: false,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const dir = join(ctx.scratch, 'fides');
    const installed = await install(ctx);
    ctx.log(`  Fides ${installed.fidesVersion} (Python ${installed.python}), Redis ${installed.redisVersion}`);

    const stops: (() => Promise<unknown>)[] = [];
    // Stopped at the end of this benchmark, or at the end of the run when it is interrupted.
    const stopAll = async (): Promise<void> => {
      for (const stop of stops.splice(0).reverse()) await stop().catch((e: unknown) => ctx.log(`  fides cleanup: ${String(e)}`));
    };
    ctx.defer(stopAll);
    try {
      const redis = await startRedis(installed.redisServer, join(dir, 'redis'));
      stops.push(() => redis.proc.stop());
      const db = await createDatabase();
      stops.push(db.drop);
      // Requested a minute before the run, as our creates are received a minute before it.
      const requestedAt = new Date(wallMs() - 60_000);
      const fidesRequest = fidesBody(requestedAt);
      ctx.log(`  starting Fides (uvicorn; database ${db.name}, Redis on port ${redis.port}): migrating a fresh database takes a while`);
      const peer = await startFides(ctx, installed, db.url, redis.port, join(dir, 'server'), fidesRequest);
      stops.push(() => peer.proc.stop());
      ctx.log(`  Fides (two workers) ready in ${(peer.readyMs / 1000).toFixed(0)} s on ${peer.url}; its processes ${processTree(peer.proc.pid).join(', ')}`);

      const sys = await ctx.distributed();
      // Each request of another person on both sides, as a day of requests is.
      const fidesLoad = fidesSide(
        peer,
        inTurn((n) => fidesBody(requestedAt, `person-${n}@fides.bench.example`)),
      );
      const sides = [fidesLoad, distributedSide(sys, inTurn(peopleBodies(requestedAt, 'fides-ours.bench.example')))];
      ctx.log(`  ours (distributed mode) and Fides, ${settings.clients} clients, ${settings.fidesS} s each, order alternating`);
      const samples = await measure(ctx, sides, () => [...sys.pids, ...processTree(peer.proc.pid)], { clients: [settings.clients], durationS: settings.fidesS });
      sys.assertRunning();
      if (!peer.proc.running) throw new Error(`Fides ${peer.proc.exit}:\n${peer.proc.tail()}`);

      return {
        title: "fides — our POST /api/v1/requests beside Ethyca Fides's POST /api/v1/privacy-request",
        method:
          `autocannon (keep-alive, one request in flight per client) at ${settings.clients} clients for ${settings.fidesS} s on each side, back to back in every repetition (order alternating, ` +
          `a ${settings.warmupS} s warm-up on each first), each system left to go idle before each run; **the floor column holds Fides**, the ratio is ours / Fides. ` +
          `Ours: distributed mode as the intake benchmark starts it, the same create; on both sides each request is of another person. Fides ${installed.fidesVersion} (PyPI \`ethyca-fides\`, Python ${installed.python}) ` +
          `as ../shared/reference/fides-side-by-side.md runs it: \`uvicorn fides.api.main:app --workers 2\` (after a first start with one worker has migrated its database), Redis ${installed.redisVersion} (Debian) in memory, a fresh database on the same PostgreSQL, ` +
          'manual approval required (its intake only records the request, as ours does), no rate limit, log level WARNING; the body ' +
          `\`[{"identity":{"email":"…"},"policy_key":"${POLICY_KEY}","requested_at":"…"}]\` with a bearer token of its root client. ` +
          "Fides's throughput counts the `succeeded` entries of its 200 answers (a 200 without one is an error). CPU: user + system time from /proc over the run, per accepted create: " +
          "our eight processes (each one's share below); Fides's uvicorn process tree (the supervisor, its two workers, a helper of Python's multiprocessing).",
        figures: [...figuresOf(samples, settings.clients), ...cpuByService(samples.ours[settings.clients], sys.serviceOfPid, settings.clients)],
        notes: [
          ...(fidesLoad.restarts.length > 0
            ? [
                `uvicorn replaced a Fides worker during ${fidesLoad.restarts.length} of the ${ctx.repeat} measured runs on its side (pids ${fidesLoad.restarts.map((g) => g.join(', ')).join('; ')}): ` +
                  'its supervisor kills a worker that does not answer its ping within 5 s, as happens on a loaded machine. Those runs count the requests the worker dropped as errors and have no CPU figure.',
              ]
            : []),
          `Installed by \`tools/scripts/fides.sh install\` (once, reused after): \`ethyca-fides==${installed.fidesVersion}\` into .tools/fides, redis-server ${installed.redisVersion} at ${installed.redisServer}. Fides's first start (one worker: migrations and seed data of the fresh database) was healthy after ${(peer.migrateMs / 1000).toFixed(0)} s, the measured one (two workers) after ${(peer.readyMs / 1000).toFixed(0)} s.`,
        ],
        raw: { ...samples, installed, fidesReadyMs: peer.readyMs, fidesMigrateMs: peer.migrateMs, fidesWorkersReplaced: fidesLoad.restarts },
      };
    } finally {
      await stopAll();
    }
  },
};

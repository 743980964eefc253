import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, createTestTopics, freePort, kafkaBroker, kafkaBrokers, postgresServer, waitFor } from '@dsar/platform/testing';
import { type Aftermath, checkAftermath, logLinesNaming, unexpectedErrors } from './aftermath';
import { DistributedProcesses, EmbeddedProcess, isReady, repoRoot, scenarioKeys, type ServiceName } from './processes';
import { type CreateOutcome, errorSummary, SteadyLoad } from './steady-load';

/**
 * Faults under load (`npm run test:resilience`): a steady 20 creates per
 * second, each with its own Idempotency-Key and retried with it on errors,
 * while one part of the running system is killed or stopped and brought back.
 * After each fault: every acknowledged request is readable, no key made two
 * requests, every audit chain holds its creation event within CHAIN_BOUND_MS of
 * the end of the fault (after a broker restart: a few seconds for the broker's
 * group coordinator, then at most KAFKA_SESSION_TIMEOUT_MS, 10 s, for consumers
 * to rejoin, then the backlog), and clients saw only problem+json 503s (connection
 * failures only where the whole process was down), never a 500 or a hang.
 * Figures of every run go to .reports/resilience.json (docs/reliability.md).
 */
const CHAIN_BOUND_MS = 30_000;
const LOAD = { ratePerSecond: 20, count: 200, requestTimeoutMs: 10_000, retryForMs: 90_000 };

interface ScenarioReport {
  scenario: string;
  sent: number;
  acknowledged: number;
  faultMs: number;
  recoveryMs?: number;
  clientErrors: Record<string, number>;
  aftermath: Aftermath;
}
const reports: ScenarioReport[] = [];

afterAll(async () => {
  const dir = path.join(repoRoot, '.reports');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'resilience.json'), JSON.stringify({ chainBoundMs: CHAIN_BOUND_MS, load: LOAD, scenarios: reports }, null, 2));
});

/**
 * Runs the load, injects the fault once `faultAfter` creates were acknowledged, and checks the aftermath.
 * `fault` resolves when the system is whole again; its time is the fault's length.
 */
async function underLoad(
  scenario: string,
  baseUrl: () => string,
  token: string,
  fault: () => Promise<{ recoveryMs?: number } | void>,
  options: { connectionErrorsAllowed: boolean; inProgressAllowed?: boolean; faultAfter?: number; logDir: string },
): Promise<ScenarioReport> {
  const load = new SteadyLoad(baseUrl(), token, LOAD);
  const running = load.run();
  await waitFor('the load to be under way', () => load.outcomes.filter((o) => o.id).length >= (options.faultAfter ?? 40), { timeoutMs: 60_000 });
  const faultStart = performance.now();
  const faultResult = await fault();
  const faultEnd = performance.now();
  const outcomes: CreateOutcome[] = await running;
  const aftermath = await checkAftermath(baseUrl(), token, outcomes, faultEnd, CHAIN_BOUND_MS);
  const report: ScenarioReport = {
    scenario,
    sent: outcomes.length,
    acknowledged: outcomes.filter((o) => o.id).length,
    faultMs: Math.round(faultEnd - faultStart),
    ...(faultResult?.recoveryMs !== undefined ? { recoveryMs: faultResult.recoveryMs } : {}),
    clientErrors: errorSummary(outcomes),
    aftermath,
  };
  reports.push(report);
  expect({ scenario, ...aftermath, chainsCompleteAfterMs: undefined }).toEqual({
    scenario,
    unacknowledged: [],
    unreadable: [],
    extraRequests: 0,
    replayMismatches: [],
    missingChains: [],
    chainsCompleteAfterMs: undefined,
  });
  const unexpected = unexpectedErrors(outcomes, options);
  const requestIds = outcomes.flatMap((o) => o.errors.flatMap((e) => (e.kind === 'http' && e.requestId && e.status !== 503 && e.status !== 409 ? [e.requestId] : [])));
  const logged = unexpected.length > 0 ? await logLinesNaming(options.logDir, requestIds) : [];
  expect({ unexpected, logged }).toEqual({ unexpected: [], logged: [] });
  return report;
}

describe('embedded mode: the process is SIGKILLed under load and restarted on the same data', () => {
  let dataDir: string;
  let embedded: EmbeddedProcess;
  const keys = scenarioKeys(['embedded-kill']);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-resilience-'));
    const port = await freePort();
    embedded = new EmbeddedProcess(`http://127.0.0.1:${port}`, port, dataDir, keys);
    await embedded.startAndWait();
  });
  afterAll(async () => {
    await embedded?.process.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('loses nothing acknowledged, duplicates nothing, and is ready again at once', async () => {
    const report = await underLoad(
      'embedded process SIGKILLed and restarted',
      () => embedded.url,
      keys[0].token,
      async () => {
        await embedded.process.kill();
        const restarted = performance.now();
        await embedded.startAndWait();
        return { recoveryMs: Math.round(performance.now() - restarted) };
      },
      { connectionErrorsAllowed: true, inProgressAllowed: true, logDir: dataDir },
    );
    // The process was really down: some attempts found no one listening.
    expect(Object.keys(report.clientErrors).some((e) => e.startsWith('network'))).toBe(true);
  });
});

describe('distributed mode (PostgreSQL, Kafka): faults of one service, the broker and the database', () => {
  const tenants = ['kill-lifecycle', 'kill-audit', 'kafka-down', 'postgres-down'];
  const keys = scenarioKeys(tenants);
  const token = (tenant: string) => keys[tenants.indexOf(tenant)].token;
  let system: DistributedProcesses;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let logDir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    logDir = await mkdtemp(path.join(tmpdir(), 'dsar-resilience-logs-'));
    system = new DistributedProcesses({ databaseUrl: db.url, kafkaBrokers: kafkaBrokers(), topicPrefix: await createTestTopics(), logDir, apiKeys: keys });
    await system.start();
  });
  afterAll(async () => {
    await system?.stop();
    await db?.drop().catch(() => undefined);
  });

  async function killAndRestart(service: ServiceName, downMs: number): Promise<{ recoveryMs: number }> {
    const p = system.service(service);
    await p.kill();
    await sleep(downMs);
    const restarted = performance.now();
    await p.start();
    await waitFor(`${service} and the gateway to be ready`, () => isReady(system.gatewayUrl), { timeoutMs: 60_000, intervalMs: 100 });
    return { recoveryMs: Math.round(performance.now() - restarted) };
  }

  /** Stops a server of the local infrastructure for `downMs`, starts it again (also when the wait fails), waits for readiness. */
  async function outage(server: (action: 'stop' | 'start') => Promise<void>, downMs: number): Promise<{ recoveryMs: number }> {
    await server('stop');
    let restarted = performance.now();
    try {
      await sleep(downMs);
    } finally {
      restarted = performance.now();
      await server('start');
    }
    await waitFor('the services to be ready again', () => isReady(system.gatewayUrl), { timeoutMs: 60_000, intervalMs: 100 });
    return { recoveryMs: Math.round(performance.now() - restarted) };
  }

  it('lifecycle-clock SIGKILLed for 5 s: creates answer 503 meanwhile, nothing acknowledged is lost', async () => {
    const report = await underLoad(
      'lifecycle-clock SIGKILLed, restarted after 5 s',
      () => system.gatewayUrl,
      token('kill-lifecycle'),
      () => killAndRestart('lifecycle-clock', 5000),
      {
        connectionErrorsAllowed: false,
        logDir,
        inProgressAllowed: true,
      },
    );
    expect(Object.keys(report.clientErrors).some((e) => e.startsWith('503'))).toBe(true);
  });

  it('audit-ledger SIGKILLed for 3 s: creates go on, the chains catch up', async () => {
    await underLoad(
      'audit-ledger SIGKILLed, restarted after 3 s',
      () => system.gatewayUrl,
      token('kill-audit'),
      () => killAndRestart('audit-ledger', 3000),
      { connectionErrorsAllowed: false, logDir },
    );
  });

  it('Kafka stopped for 15 s: every create is acknowledged, and the consumers rejoin promptly when it is back', async () => {
    const report = await underLoad(
      'Kafka stopped for 15 s',
      () => system.gatewayUrl,
      token('kafka-down'),
      () => outage(kafkaBroker, 15_000),
      { connectionErrorsAllowed: false, logDir },
    );
    expect(report.clientErrors).toEqual({});
  });

  it('PostgreSQL stopped and started: clients get 503 with Retry-After, never 500, and the services recover by themselves', async () => {
    const report = await underLoad(
      'PostgreSQL stopped and started',
      () => system.gatewayUrl,
      token('postgres-down'),
      () => outage(postgresServer, 5000),
      // A create whose transaction the outage broke could not release its key either: retries get 409 until the lease ends.
      { connectionErrorsAllowed: false, inProgressAllowed: true, logDir },
    );
    expect(Object.keys(report.clientErrors).some((e) => e.startsWith('503'))).toBe(true);
  });
});

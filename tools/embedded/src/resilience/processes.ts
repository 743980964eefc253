import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@dsar/platform/testing';

const run = promisify(execFile);
export const repoRoot = path.resolve(__dirname, '../../../..');

/** Whether `url`/health/ready answers 200 now. */
export async function isReady(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/** One product process, started the way its users start it, its output kept in a log file. */
export class ProductProcess {
  private child?: ChildProcess;
  private log?: WriteStream;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  async start(): Promise<void> {
    await mkdir(path.dirname(this.logFile), { recursive: true });
    this.log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['tools/scripts/run-ts.cjs', this.entry], { cwd: repoRoot, env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.child = child;
  }

  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    this.log?.end();
  }
}

/** The test API keys: one tenant per scenario, so each scenario's queue holds its own requests only. */
export function scenarioKeys(tenants: string[]): Array<{ token: string; tenantId: string; roles: string[] }> {
  return tenants.map((tenantId) => ({ token: `resilience-${tenantId}-${randomBytes(12).toString('hex')}`, tenantId, roles: ['admin'] }));
}

/** `npm start` as a child process on its own data directory. */
export class EmbeddedProcess {
  readonly process: ProductProcess;

  constructor(
    readonly url: string,
    port: number,
    dataDir: string,
    apiKeys: ReturnType<typeof scenarioKeys>,
  ) {
    this.process = new ProductProcess(
      'embedded',
      'tools/embedded/src/main.ts',
      { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DSAR_API_KEYS: JSON.stringify(apiKeys), RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
      path.join(dataDir, 'embedded.log'),
    );
  }

  async startAndWait(timeoutMs = 60_000): Promise<void> {
    await this.process.start();
    await waitFor('the embedded process to be ready', () => isReady(this.url), { timeoutMs, intervalMs: 100 });
  }
}

const SERVICES = ['policy-registry', 'lifecycle-clock', 'intake-gateway', 'verification', 'fulfilment-delivery', 'audit-ledger', 'notifier', 'api-gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * Distributed mode as `npm run start:distributed` runs it: eight processes on
 * PostgreSQL and Kafka (a fresh database and topic prefix), each on a free
 * loopback port, each of which a scenario can kill and start again.
 */
export class DistributedProcesses {
  readonly processes = new Map<ServiceName, ProductProcess>();
  gatewayUrl = '';

  constructor(private readonly settings: { databaseUrl: string; kafkaBrokers: string; topicPrefix: string; logDir: string; apiKeys: ReturnType<typeof scenarioKeys> }) {}

  async start(timeoutMs = 120_000): Promise<void> {
    const ports = new Map<ServiceName, number>();
    for (const s of SERVICES) ports.set(s, await freePort());
    const urls = Object.fromEntries(SERVICES.filter((s) => s !== 'api-gateway').map((s) => [`${s.toUpperCase().replace(/-/g, '_')}_URL`, `http://127.0.0.1:${ports.get(s)}`]));
    const common = {
      DB_DRIVER: 'postgres',
      DATABASE_URL: this.settings.databaseUrl,
      DB_MIGRATIONS: 'check',
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: this.settings.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: this.settings.topicPrefix,
      KAFKA_GROUP_PREFIX: `resilience-${randomBytes(4).toString('hex')}`,
      OUTBOX_POLL_MS: '250',
      INTERNAL_AUTH_KEY: randomBytes(32).toString('base64'),
      // Read by the notifier and intake-gateway only (the others ignore it).
      REQUEST_REFERENCE_KEY: randomBytes(32).toString('base64'),
      // Read by lifecycle-clock only (the others ignore it).
      IDENTITY_INDEX_KEY: randomBytes(32).toString('base64'),
      // Read by the notifier only: the download page its delivery emails link to, on this gateway.
      PORTAL_URL: `http://127.0.0.1:${ports.get('api-gateway')}/portal/`,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...urls,
    };
    await run(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/embedded/src/migrate.ts'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: this.settings.databaseUrl }, timeout: 120_000 });
    for (const s of SERVICES) {
      const own: Record<string, string> = s === 'api-gateway' ? { DSAR_API_KEYS: JSON.stringify(this.settings.apiKeys), RATE_LIMIT_PER_MINUTE: '0' } : {};
      const p = new ProductProcess(s, `apps/${s}/src/main.ts`, { ...common, ...own, PORT: String(ports.get(s)) }, path.join(this.settings.logDir, `${s}.log`));
      this.processes.set(s, p);
      await p.start();
    }
    this.gatewayUrl = `http://127.0.0.1:${ports.get('api-gateway')}`;
    await waitFor('the eight services to be ready', () => isReady(this.gatewayUrl), { timeoutMs, intervalMs: 200 });
  }

  service(name: ServiceName): ProductProcess {
    const p = this.processes.get(name);
    if (!p) throw new Error(`${name} was not started`);
    return p;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.processes.values()].map((p) => p.stop()));
  }
}

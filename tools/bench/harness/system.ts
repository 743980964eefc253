import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { createTestDatabase, createTestTopics, freePort, kafkaBrokers } from '@dsar/platform/testing';
import { Proc, waitReady } from './process';
import { created, REPO_ROOT } from './util';

/**
 * The product as the benchmarks run it.
 *
 * Distributed mode as `npm run start:distributed` (tools/scripts/start-distributed.sh) runs it: the eight
 * services as eight processes (`node tools/scripts/run-ts.cjs apps/<service>/src/main.ts`, or the built JavaScript
 * of `npm run build` that the image runs, for the footprint and smoke runs), on the project's own PostgreSQL and Kafka (DATABASE_URL and
 * KAFKA_BROKERS from `deploy/local/infra.sh env`), with a fresh database and a fresh topic prefix, each service
 * on a free loopback port, the migrations applied first (`tools/embedded/src/migrate.ts`, as the Helm hook does).
 * Settings are the production defaults except: LOG_LEVEL=warn, no rate limit at the gateway, one admin API key
 * per benchmark tenant, files and development keys under the run's scratch directory.
 *
 * Embedded mode as `npm start` runs it: one process, PGlite under a fresh DATA_DIR, the in-memory bus.
 */

const run = promisify(execFile);

export const SERVICES = ['policy-registry', 'lifecycle-clock', 'intake-gateway', 'verification', 'fulfilment-delivery', 'audit-ledger', 'notifier', 'api-gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The tenants of the benchmarks, one admin API key each. */
export const TENANTS = ['bench-intake', 'bench-warmup', 'bench-propagation', 'bench-burst', 'bench-reads', 'bench-relay', 'bench-fanout', 'bench-catchup', 'bench-soak'] as const;
export type Tenant = (typeof TENANTS)[number];

export type ApiKeys = Record<Tenant, string>;

function apiKeys(): { keys: ApiKeys; json: string } {
  const keys = Object.fromEntries(TENANTS.map((t) => [t, `bench-${randomBytes(18).toString('base64url')}`])) as ApiKeys;
  return { keys, json: JSON.stringify(TENANTS.map((t) => ({ token: keys[t], tenantId: t, roles: ['admin'] }))) };
}

/** Deletes every topic under a prefix (the benchmarks' own topics). */
export async function dropTopics(prefix: string): Promise<void> {
  const kafka = new Kafka({ clientId: 'dsar-bench', brokers: kafkaBrokers().split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
  } finally {
    await admin.disconnect();
  }
}

export interface DistributedOptions {
  /** Entry of a service: the TypeScript source (default) or a built file. */
  entry?: (service: ServiceName) => string;
  /** Entry of the migrations (tools/embedded/src/migrate.ts by default). */
  migrate?: string;
  /** Where the processes' logs and files go. */
  dir: string;
  readyTimeoutMs?: number;
}

/** The systems not stopped yet, so that an interrupted run can stop them (and drop their databases). */
const running = new Set<DistributedSystem>();

export async function stopAllSystems(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop().catch(() => undefined)));
}

export class DistributedSystem {
  readonly processes = new Map<ServiceName, Proc>();
  readonly urls = new Map<ServiceName, string>();
  gatewayUrl = '';
  /** KAFKA_GROUP_PREFIX of the services: their consumer groups are `<groupPrefix>.<service>`. */
  readonly groupPrefix = `bench-${randomBytes(4).toString('hex')}`;
  /** Time from the first spawn to every service ready. */
  readyMs = 0;
  private pgPool?: Pool;
  private stopping?: Promise<void>;

  private constructor(
    readonly db: { url: string; name: string; drop: () => Promise<void> },
    readonly topicPrefix: string,
    readonly keys: ApiKeys,
    private readonly options: DistributedOptions,
  ) {}

  static async start(options: DistributedOptions): Promise<DistributedSystem> {
    const db = await createTestDatabase();
    created.databases.push(db.name);
    let topicPrefix = '';
    try {
      topicPrefix = await createTestTopics();
      created.topicPrefixes.push(topicPrefix);
      const { keys, json } = apiKeys();
      const system = new DistributedSystem(db, topicPrefix, keys, options);
      running.add(system);
      try {
        await system.launch(json);
      } catch (e) {
        await system.stop();
        throw e;
      }
      return system;
    } catch (e) {
      if (topicPrefix) await dropTopics(topicPrefix).catch(() => undefined);
      await db.drop().catch(() => undefined);
      throw e;
    }
  }

  private async launch(keysJson: string): Promise<void> {
    const entry = this.options.entry ?? ((s: ServiceName) => `apps/${s}/src/main.ts`);
    const migrate = this.options.migrate ?? 'tools/embedded/src/migrate.ts';
    await run(process.execPath, migrate.endsWith('.ts') ? ['tools/scripts/run-ts.cjs', migrate] : [migrate], {
      cwd: REPO_ROOT,
      env: { ...process.env, DB_DRIVER: 'postgres', DATABASE_URL: this.db.url, DATA_DIR: join(this.options.dir, 'data') },
      timeout: 180_000,
    });
    for (const s of SERVICES) this.urls.set(s, `http://127.0.0.1:${await freePort()}`);
    const upstreams = Object.fromEntries(SERVICES.filter((s) => s !== 'api-gateway').map((s) => [`${s.toUpperCase().replace(/-/g, '_')}_URL`, this.urls.get(s) as string]));
    const common: Record<string, string> = {
      NODE_ENV: 'production',
      DB_DRIVER: 'postgres',
      DATABASE_URL: this.db.url,
      DB_MIGRATIONS: 'check',
      BUS_DRIVER: 'kafka',
      KAFKA_BROKERS: kafkaBrokers(),
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      KAFKA_GROUP_PREFIX: this.groupPrefix,
      INTERNAL_AUTH_KEY: randomBytes(32).toString('base64'),
      // Read by the notifier and intake-gateway only (the others ignore it).
      REQUEST_REFERENCE_KEY: randomBytes(32).toString('base64'),
      // Read by lifecycle-clock only (the others ignore it).
      IDENTITY_INDEX_KEY: randomBytes(32).toString('base64'),
      // Read by the notifier only: the download page its delivery emails link to, on this gateway.
      PORTAL_URL: `${this.urls.get('api-gateway')}/portal/`,
      STORAGE_MASTER_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: join(this.options.dir, 'data'),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...upstreams,
    };
    const t0 = performance.now();
    for (const s of SERVICES) {
      const own: Record<string, string> =
        s === 'api-gateway'
          ? { DSAR_API_KEYS: keysJson, RATE_LIMIT_PER_MINUTE: '0' }
          : s === 'verification' || s === 'fulfilment-delivery'
            ? { STORAGE_DIR: join(this.options.dir, 'data', s, 'storage') }
            : {};
      const port = new URL(this.urls.get(s) as string).port;
      this.processes.set(s, Proc.node(s, entry(s), { ...common, ...own, PORT: port }, join(this.options.dir, 'logs', `${s}.log`)));
    }
    this.gatewayUrl = this.urls.get('api-gateway') as string;
    await waitReady([...this.urls.values()], [...this.processes.values()], this.options.readyTimeoutMs ?? 180_000);
    this.readyMs = performance.now() - t0;
  }

  get pids(): number[] {
    return [...this.processes.values()].map((p) => p.pid);
  }

  /** The service each process runs, by pid. */
  get serviceOfPid(): Record<number, string> {
    return Object.fromEntries([...this.processes.entries()].map(([name, p]) => [p.pid, name]));
  }

  service(name: ServiceName): Proc {
    const p = this.processes.get(name);
    if (!p) throw new Error(`${name} was not started`);
    return p;
  }

  /** Fails with the end of its log when a service has exited. */
  assertRunning(): void {
    for (const p of this.processes.values()) if (!p.running) throw new Error(`${p.name} ${p.exit}; last lines of ${p.logFile}:\n${p.tail()}`);
  }

  /** A pool on the system's database, for checks the benchmarks make beside the API (closed by stop()). */
  pool(): Pool {
    this.pgPool ??= new Pool({ connectionString: this.db.url, max: 2, application_name: 'dsar-bench' });
    return this.pgPool;
  }

  stop(): Promise<void> {
    running.delete(this);
    this.stopping ??= (async () => {
      await this.pgPool?.end().catch(() => undefined);
      await Promise.all([...this.processes.values()].map((p) => p.stop()));
      await dropTopics(this.topicPrefix).catch(() => undefined);
      await this.db.drop();
    })();
    return this.stopping;
  }
}

export interface EmbeddedSystem {
  url: string;
  proc: Proc;
  keys: ApiKeys;
  /** From the spawn to the first 200 of /health/ready. */
  readyMs: number;
}

/** `npm start` (or its built entry) on DATA_DIR `dir`/data (fresh unless seeded), polled every 50 ms until ready; `env` adds settings. */
export async function startEmbedded(dir: string, entry = 'tools/embedded/src/main.ts', name = 'embedded', env: Record<string, string> = {}): Promise<EmbeddedSystem> {
  const { keys, json } = apiKeys();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = Proc.node(
    name,
    entry,
    {
      NODE_ENV: 'production',
      DB_DRIVER: 'pglite',
      BUS_DRIVER: 'memory',
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      DATA_DIR: join(dir, 'data'),
      STORAGE_DIR: join(dir, 'storage'),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DSAR_API_KEYS: json,
      RATE_LIMIT_PER_MINUTE: '0',
      ...env,
    },
    join(dir, `${name}.log`),
  );
  try {
    await waitReady([url], [proc], 180_000, 50);
  } catch (e) {
    await proc.stop();
    throw e;
  }
  return { url, proc, keys, readyMs: performance.now() - proc.startedAt };
}

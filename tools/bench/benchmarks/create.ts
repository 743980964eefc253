import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { DataSource } from 'typeorm';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, INTERNAL_API_PREFIX, type NewRequestCommand, type Principal } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { INTERNAL_AUTH, type InternalAuthKey, signedIdentityHeaders } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { deadlineMonitorSettingsFrom, identityIndexSettingsFrom, lifecycleClockServiceWith, RequestRegistry } from '@dsar/services/lifecycle-clock';
import { recordStatements, type StatementRecorder } from '../bench-kit';
import { exactly, figure } from '../harness/figures';
import type { Benchmark, Context, Figure } from '../harness/types';
import { created, num } from '../harness/util';
import { accessCommand } from '../lifecycle-clock-kit';

/**
 * create: what one new request costs lifecycle-clock, in process, on each database (issue 42, "the hot insert"):
 * the statements it sends (each a round trip to the database) and the CPU it spends, for the kinds of create there
 * are. lifecycle-clock hosted as its app hosts it (real migrations, real module), on a throw-away database of the
 * local PostgreSQL and on PGlite in memory (embedded mode's driver). Creates one at a time:
 * - `plain`, `fresh`, `repeat` through RequestRegistry.create() (no HTTP): without identities; with an email and a
 *   phone no open request carries (the duplicate check runs and marks nothing); repeating an open request (marked);
 * - `keyed` through the service's own HTTP handler, POST /internal/v1/requests with an Idempotency-Key and a signed
 *   identity (as intake-gateway calls it; the client is in this process, so its CPU counts too): the key's claim, the
 *   create and the record of its answer.
 * Runs by name: `npm run bench -- create`.
 */

const KINDS = ['plain', 'fresh', 'repeat', 'keyed'] as const;
type Kind = (typeof KINDS)[number];
const DRIVERS = ['postgres', 'pglite'] as const;
type Driver = (typeof DRIVERS)[number];
const WARMUP_ROUNDS = 100;

const KIND_TEXT: Record<Kind, string> = {
  plain: 'RequestRegistry.create(), no identity',
  fresh: 'RequestRegistry.create(), a new email and phone (checked, not marked)',
  repeat: 'RequestRegistry.create(), repeating an open request (marked)',
  keyed: 'POST /internal/v1/requests with an Idempotency-Key (claim, create, record)',
};

interface KindRun {
  /** Per create: statements sent through the DataSource's query runners (one round trip each), CPU and wall ms. */
  statements: number[];
  cpuMs: number[];
  wallMs: number[];
  /** Creates whose outcome was not the expected one (a repeat not marked, another marked, a replay that was not one). */
  wrong: number;
  /** The statements of the last create, shortened: what a reader checks the count against. */
  lastSql: string[];
}

interface Subject {
  service: HostedService;
  ds: DataSource;
  registry: RequestRegistry;
  key: InternalAuthKey;
  close(): Promise<void>;
}

async function host(driver: Driver, ctx: Context): Promise<Subject> {
  const definition = lifecycleClockServiceWith(
    deadlineMonitorSettingsFrom({}),
    undefined,
    identityIndexSettingsFrom({ IDENTITY_INDEX_KEY: randomBytes(32).toString('base64'), IDENTITY_DUPLICATE_WINDOW_DAYS: 30 }),
  );
  let drop: (() => Promise<void>) | undefined;
  let config;
  if (driver === 'postgres') {
    const db = await createTestDatabase();
    created.databases.push(db.name);
    drop = db.drop;
    config = testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 4 });
  } else {
    config = testHostConfig({ DATA_DIR: `memory://bench-create-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' });
  }
  const service = await hostService(definition, config, { shutdownHooks: false });
  ctx.log(`  ${driver}: lifecycle-clock hosted in process (migrations run, outbox relay not started)`);
  // Closed once its driver's creates are done, and at the end of the run when they fail: the first call does it.
  let closing: Promise<void> | undefined;
  return {
    service,
    ds: service.app.get(UnitOfWork).dataSource,
    registry: service.app.get(RequestRegistry),
    key: service.app.get<InternalAuthKey>(INTERNAL_AUTH),
    close: () =>
      (closing ??= (async () => {
        await service.close();
        await drop?.();
      })()),
  };
}

/** One POST to the service's internal create, as intake-gateway sends it (signed identity, a key); its status, body and replay header. */
function post(subject: Subject, agent: Agent, principal: Principal, command: NewRequestCommand, key: string): Promise<{ status: number; body: string; replayed: boolean }> {
  const url = new URL(`${INTERNAL_API_PREFIX}/requests`, subject.service.url);
  const body = JSON.stringify(command);
  const headers = {
    ...signedIdentityHeaders(subject.key, 'POST', url.pathname, principal),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    [IDEMPOTENCY_KEY_HEADER]: key,
  };
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), replayed: res.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true' }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** Rounds of one create of every kind (the order rotating), the first `warmup` of them not counted. */
async function runCreates(subject: Subject, recorder: StatementRecorder, rounds: number, warmup: number): Promise<Record<Kind, KindRun>> {
  const tenantId = `bench-create-${uniqueSuffix()}`;
  const principal: Principal = { id: 'service:intake-gateway', tenantId, roles: ['admin'] };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const receivedAt = new Date(Date.now() - 60_000).toISOString();
  const command = (requestor?: NewRequestCommand['requestor']): NewRequestCommand => accessCommand(receivedAt, requestor);
  const person = (i: number) => ({ type: 'subject' as const, email: `writer.${i}@intake${i % 9}.example`, phone: `+49152${String(i).padStart(8, '0')}` });
  const total = warmup + rounds;
  // The open requests the repeats repeat, one per round.
  const firsts: string[] = [];
  for (let i = 0; i < total; i++) firsts.push((await subject.registry.create({ tenantId }, command(person(i)))).id);
  const runs = Object.fromEntries(KINDS.map((k): [Kind, KindRun] => [k, { statements: [], cpuMs: [], wallMs: [], wrong: 0, lastSql: [] }])) as Record<Kind, KindRun>;
  try {
    for (let i = 0; i < total; i++) {
      const order = [...KINDS.slice(i % KINDS.length), ...KINDS.slice(0, i % KINDS.length)];
      for (const kind of order) {
        recorder.take();
        const key = randomUUID();
        const cpu0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        let wrong = false;
        if (kind === 'keyed') {
          const answer = await post(subject, agent, principal, command(person(2 * total + i)), key);
          wrong = answer.status !== 202 || answer.replayed;
        } else {
          const requestor = kind === 'plain' ? undefined : kind === 'fresh' ? person(total + i) : person(i);
          const row = await subject.registry.create({ tenantId }, command(requestor));
          wrong = kind === 'repeat' ? row.duplicateOf !== firsts[i] : row.duplicateOf !== null;
        }
        const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
        const cpu = process.cpuUsage(cpu0);
        const statements = recorder.take();
        if (kind === 'keyed') {
          // The same call again is a replay of the first answer (not timed).
          const again = await post(subject, agent, principal, command(person(2 * total + i)), key);
          wrong ||= again.status !== 202 || !again.replayed;
        }
        if (i < warmup) continue;
        const run = runs[kind];
        run.statements.push(statements.length);
        run.lastSql = statements.map((q) => q.sql.replace(/\s+/g, ' ').trim().slice(0, 160));
        run.cpuMs.push((cpu.user + cpu.system) / 1000);
        run.wallMs.push(wallMs);
        if (wrong) run.wrong++;
      }
    }
  } finally {
    agent.destroy();
  }
  return runs;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export const create: Benchmark = {
  name: 'create',
  summary: "lifecycle-clock's create in process, on PostgreSQL and PGlite: statements (round trips) and CPU per create, by kind",
  inDefault: false,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const runs: Record<Driver, Record<Kind, KindRun>[]> = { postgres: [], pglite: [] };
    for (const driver of DRIVERS) {
      const subject = await host(driver, ctx);
      ctx.defer(() => subject.close());
      const recorder = recordStatements(subject.ds);
      try {
        for (let rep = 0; rep < ctx.repeat; rep++) {
          const run = await runCreates(subject, recorder, settings.createRounds, rep === 0 ? (ctx.smoke ? 2 : WARMUP_ROUNDS) : 0);
          runs[driver].push(run);
          for (const k of KINDS) {
            const r = run[k];
            ctx.log(
              `    ${driver} rep ${rep + 1} ${k.padEnd(6)}: ${num(mean(r.statements))} statements, CPU ${num(mean(r.cpuMs))} ms, wall ${num(mean(r.wallMs))} ms per create, wrong ${r.wrong}/${r.cpuMs.length}`,
            );
          }
        }
      } finally {
        recorder.stop();
        await subject.close();
      }
    }
    const figures: Figure[] = [];
    for (const driver of DRIVERS) {
      for (const k of KINDS) {
        const reps = runs[driver].map((r) => r[k]);
        figures.push(
          figure(
            `${driver}.${k}.statements`,
            `${driver}, ${KIND_TEXT[k]}: statements (round trips) per create`,
            '',
            reps.map((r) => mean(r.statements)),
          ),
          figure(
            `${driver}.${k}.cpu`,
            `${driver}, ${KIND_TEXT[k]}: CPU per create (this process${driver === 'pglite' ? ', the database included' : ''})`,
            'ms',
            reps.map((r) => mean(r.cpuMs)),
          ),
          figure(
            `${driver}.${k}.wall`,
            `${driver}, ${KIND_TEXT[k]}: wall time per create`,
            'ms',
            reps.map((r) => mean(r.wallMs)),
          ),
        );
      }
      figures.push(
        figure(
          `${driver}.wrong`,
          `${driver}: creates with a wrong outcome (a repeat not marked, another marked, a keyed call not 202 or its retry not replayed)`,
          '',
          runs[driver].map((rep) => KINDS.reduce((a, k) => a + rep[k].wrong, 0)),
          { target: exactly(0) },
        ),
      );
    }
    return {
      title: "create — lifecycle-clock's create in process (statements and CPU)",
      method:
        `lifecycle-clock hosted in this process as its app hosts it, on a throw-away database of the local PostgreSQL (pool of 4) and on PGlite in memory. ` +
        `${settings.createRounds} rounds per repetition, one create of each kind per round (order rotating), one at a time, after ${WARMUP_ROUNDS} rounds of warm-up: ` +
        KINDS.map((k) => `${k}: ${KIND_TEXT[k]}`).join('; ') +
        '. Statements: every statement sent through the DataSource’s query runners (BEGIN and COMMIT included), each one round trip. CPU: this process’s user + system time around each create.',
      figures,
      raw: { runs },
    };
  },
};

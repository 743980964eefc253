import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type IdentityKind, type NewRequestCommand, OPEN_STATUSES, type QueueQuery } from '@dsar/contracts';
import { hostService } from '@dsar/platform/host';
import type { TenantScope } from '@dsar/platform/http';
import { schemaNameFor, UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig } from '@dsar/platform/testing';
import { deadlineMonitorSettingsFrom, identityIndexSettingsFrom, lifecycleClockServiceWith, RequestIdentities, RequestRegistry } from '@dsar/services/lifecycle-clock';
import { explain, recordStatements, type Statement } from '../bench-kit';
import { atMost, exactly, figure } from '../harness/figures';
import type { Benchmark, Context, Figure } from '../harness/types';
import { created, median, num, percentileOf } from '../harness/util';
import { accessCommand, accessPaths, bulkSession, lifecycleClockProvider, type QueuePager, type Recorded, recordQueueStatements, requestsLoadSql, otherTenant } from '../lifecycle-clock-kit';

/**
 * identity: finding a tenant's requests by a person's identity at a million requests, and what the identity index adds
 * to a create (issue 40, docs/identity.md). In this process, on a throw-away database of the local PostgreSQL:
 * lifecycle-clock hosted as its app hosts it (real migrations, real module, its own IDENTITY_INDEX_KEY), the queue
 * benchmark's bulk loader for the requests, then 1–3 rows per request in `request_identities` (email; phone; account
 * id), written by SQL with the digests the service's own IdentityBlindIndex computes. Searches go through the real
 * RequestQueue.page() (as the queue benchmark times the queue: in process, no HTTP); creates through the real
 * RequestRegistry.create(). Runs by name: `npm run bench -- identity`.
 */

const REQUESTS = `"${schemaNameFor('lifecycle-clock')}"."requests"`;
const IDENTITIES = `"${schemaNameFor('lifecycle-clock')}"."request_identities"`;
const COUNTS = `"${schemaNameFor('lifecycle-clock')}"."request_counts"`;
const BIG_TENANT = 'bench-big';
const SMALL_TENANT = otherTenant(7);
/** Where one create is made before the load, to compare the service's index rows with the loader's. */
const PROBE_TENANT = 'bench-probe';
/** Requests of the big tenant that carry the campaign's email: one person writing again and again. */
const CAMPAIGN_REQUESTS = 500;
const CAMPAIGN_EMAIL = 'campaign.sender@letters.example';
/** Share of the persons with 2–5 requests; the others have one. */
const REPEATED_PERSONS = 0.05;
/** Identities per request: email only, email and phone, or those and an account id. */
const WITH_PHONE = 0.45;
const WITH_ACCOUNT = 0.15;
/** Index rows per INSERT of the load. */
const BATCH = 20_000;
const WARMUP_SEARCHES = 40;
const WARMUP_CREATES = 20;

/** A small deterministic generator, so that every run loads the same identities. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** The identities of person `p` of a tenant, normalised as the index keeps them (the tenant is in the digest, not here). */
const emailOf = (p: number, campaign: boolean): string => (campaign ? CAMPAIGN_EMAIL : `p${p}.reader@mail${p % 40}.example`);
const phoneOf = (p: number): string => `+49151${String(p).padStart(8, '0')}`;
const accountOf = (p: number): string => `ACCT-${p.toString(36)}`;
const KINDS: readonly IdentityKind[] = ['email', 'phone', 'account'];

/** The service's IdentityBlindIndex, as the tests of its digests use it. */
interface BlindIndex {
  readonly currentKeyId: string;
  digest(tenantId: string, kind: IdentityKind, normalised: string): Buffer;
}

/**
 * The loaded requests in receipt order, and who each one is from: `person` (per tenant; in the big tenant person 0 is
 * the campaign) and how many identities it carries (1 email, 2 and a phone, 3 and an account id).
 */
interface Population {
  ids: string[];
  tenants: string[];
  statuses: string[];
  person: Int32Array;
  identities: Uint8Array;
  /** Per searched tenant, its requests by person (row numbers). */
  byPerson: Map<string, Map<number, number[]>>;
  /** Row numbers of the big tenant and of the small one, to pick searched identities from. */
  rowsOf: Map<string, number[]>;
}

/** The queue benchmark's bulk load; returns its seconds. */
async function loadRequests(ctx: Context, ds: DataSource): Promise<number> {
  const { settings } = ctx;
  const qr = ds.createQueryRunner();
  try {
    await bulkSession(qr);
    const t = performance.now();
    await qr.query(requestsLoadSql(REQUESTS), [settings.identityTenantRows, settings.identityOtherRows, settings.identityOtherTenants, BIG_TENANT]);
    const loadS = (performance.now() - t) / 1000;
    ctx.log(`    requests: ${(settings.identityTenantRows + settings.identityOtherRows).toLocaleString('en-US')} rows in ${loadS.toFixed(1)} s (the queue benchmark's loader)`);
    return loadS;
  } finally {
    await qr.release();
  }
}

/** Who each request is from: most persons write once, REPEATED_PERSONS 2–5 times, and the campaign CAMPAIGN_REQUESTS times in the big tenant. */
async function assignPersons(ds: DataSource, random: () => number): Promise<Population> {
  const rows: Array<{ id: string; tenant_id: string; status: string }> = await ds.query(`SELECT id, tenant_id, status FROM ${REQUESTS} ORDER BY received_at, id`);
  const n = rows.length;
  const pop: Population = {
    ids: rows.map((r) => r.id),
    tenants: rows.map((r) => r.tenant_id),
    statuses: rows.map((r) => r.status),
    person: new Int32Array(n),
    identities: new Uint8Array(n),
    byPerson: new Map(),
    rowsOf: new Map(),
  };
  const perTenant = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const list = perTenant.get(pop.tenants[i]);
    if (list) list.push(i);
    else perTenant.set(pop.tenants[i], [i]);
  }
  for (const [tenant, list] of perTenant) {
    const owners: number[] = [];
    let next = 0;
    if (tenant === BIG_TENANT) {
      for (let k = 0; k < Math.min(CAMPAIGN_REQUESTS, Math.floor(list.length / 4)); k++) owners.push(0);
      next = 1;
    }
    while (owners.length < list.length) {
      const times = random() < REPEATED_PERSONS ? 2 + Math.floor(random() * 4) : 1;
      for (let k = 0; k < times && owners.length < list.length; k++) owners.push(next);
      next++;
    }
    shuffle(owners, random);
    list.forEach((row, k) => {
      pop.person[row] = owners[k];
      const r = random();
      pop.identities[row] = r < WITH_ACCOUNT ? 3 : r < WITH_ACCOUNT + WITH_PHONE ? 2 : 1;
    });
    if (tenant === BIG_TENANT || tenant === SMALL_TENANT) {
      const byPerson = new Map<number, number[]>();
      for (const row of list) {
        const p = pop.person[row];
        const rowsOfPerson = byPerson.get(p);
        if (rowsOfPerson) rowsOfPerson.push(row);
        else byPerson.set(p, [row]);
      }
      pop.byPerson.set(tenant, byPerson);
      pop.rowsOf.set(tenant, list);
    }
  }
  return pop;
}

const valueOf = (pop: Population, row: number, kind: IdentityKind): string => {
  const p = pop.person[row];
  if (kind === 'email') return emailOf(p, p === 0 && pop.tenants[row] === BIG_TENANT);
  return kind === 'phone' ? phoneOf(p) : accountOf(p);
};

/** The index rows, in receipt order (as creates would write them), in batches of BATCH; returns the rows written. */
async function loadIdentities(ctx: Context, ds: DataSource, pop: Population, index: BlindIndex, rulesVersion: number): Promise<{ rows: number; digestS: number; insertS: number }> {
  const qr = ds.createQueryRunner();
  let written = 0;
  let digestMs = 0;
  let insertMs = 0;
  try {
    await bulkSession(qr);
    let batch = { requests: [] as string[], tenants: [] as string[], kinds: [] as string[], digests: [] as string[] };
    const flush = async () => {
      if (batch.requests.length === 0) return;
      const t = performance.now();
      await qr.query(
        `INSERT INTO ${IDENTITIES} (request_id, tenant_id, kind, key_id, rules_version, digest)
         SELECT e.request_id, e.tenant_id, e.kind, $5, $6, decode(e.hex, 'hex') FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS e(request_id, tenant_id, kind, hex)`,
        [batch.requests, batch.tenants, batch.kinds, batch.digests, index.currentKeyId, rulesVersion],
      );
      insertMs += performance.now() - t;
      written += batch.requests.length;
      batch = { requests: [], tenants: [], kinds: [], digests: [] };
    };
    for (let row = 0; row < pop.ids.length; row++) {
      const t = performance.now();
      for (let k = 0; k < pop.identities[row]; k++) {
        const kind = KINDS[k];
        batch.requests.push(pop.ids[row]);
        batch.tenants.push(pop.tenants[row]);
        batch.kinds.push(kind);
        batch.digests.push(index.digest(pop.tenants[row], kind, valueOf(pop, row, kind)).toString('hex'));
      }
      digestMs += performance.now() - t;
      if (batch.requests.length >= BATCH) await flush();
    }
    await flush();
  } finally {
    await qr.release();
  }
  return { rows: written, digestS: digestMs / 1000, insertS: insertMs / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Searches

const SHAPES = {
  known: { label: 'known email', share: 0.5 },
  knownOpen: { label: 'known email + status (the 4 open)', share: 0.15 },
  unknown: { label: 'unknown email', share: 0.1 },
  campaign: { label: `campaign email (${CAMPAIGN_REQUESTS} requests)`, share: 0.1 },
  campaignOpen: { label: 'campaign email + status (the 4 open)', share: 0.05 },
  phone: { label: 'known phone (identityKind=phone)', share: 0.05 },
  small: { label: `known email, small tenant (${SMALL_TENANT})`, share: 0.05 },
} as const;
type ShapeKey = keyof typeof SHAPES;
const SHAPE_KEYS = Object.keys(SHAPES) as ShapeKey[];
/** The shapes whose plans are printed (EXPLAIN ANALYZE of the last call). */
const EXPLAINED: ShapeKey[] = ['known', 'knownOpen', 'unknown', 'campaign', 'campaignOpen'];

interface Search {
  shape: ShapeKey;
  scope: TenantScope;
  query: QueueQuery;
  /** The ids of the requests that carry the identity (in the status filter), from the loader's own bookkeeping. */
  expected: Set<string>;
}

/** A search for the identity of `kind` that request `row` carries, in the row's tenant; `open` keeps the open requests only. */
function searchOf(pop: Population, shape: ShapeKey, row: number, kind: IdentityKind, open: boolean, random: () => number): Search {
  const tenant = pop.tenants[row];
  const value = valueOf(pop, row, kind);
  const rows = (pop.byPerson.get(tenant)?.get(pop.person[row]) ?? []).filter((r) => pop.identities[r] > KINDS.indexOf(kind));
  const statuses: readonly string[] = OPEN_STATUSES;
  const expected = new Set(rows.filter((r) => !open || statuses.includes(pop.statuses[r])).map((r) => pop.ids[r]));
  // Half the emails as a person might type them: in capitals (an email matches in any case).
  const typed = kind === 'email' && random() < 0.5 ? value.toUpperCase() : value;
  return { shape, scope: { tenantId: tenant }, query: { identity: typed, identityKind: kind, ...(open ? { status: [...OPEN_STATUSES] } : {}) }, expected };
}

/** `count` searches over the shapes (each at least one), shuffled: a fresh identity for every known one. */
function schedule(pop: Population, count: number, random: () => number, round: number): Search[] {
  const big = pop.rowsOf.get(BIG_TENANT) ?? [];
  const small = pop.rowsOf.get(SMALL_TENANT) ?? [];
  // A random request (not the campaign's) that `ok` accepts.
  const pick = (rows: number[], ok: (row: number) => boolean = () => true): number => {
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const row = rows[Math.floor(random() * rows.length)];
      if (row !== undefined && ok(row) && pop.person[row] !== 0) return row;
    }
    throw new Error(`no request to search for among ${rows.length}: the sizes are too small (BENCH_IDENTITY_TENANT_ROWS, BENCH_IDENTITY_OTHER_TENANTS ≥ 8)`);
  };
  const campaignRow = big.find((row) => pop.person[row] === 0) as number;
  const out: Search[] = [];
  for (const shape of SHAPE_KEYS) {
    const n = Math.max(1, Math.round(count * SHAPES[shape].share));
    for (let i = 0; i < n; i++) {
      if (shape === 'known') out.push(searchOf(pop, shape, pick(big), 'email', false, random));
      else if (shape === 'knownOpen') out.push(searchOf(pop, shape, pick(big), 'email', true, random));
      else if (shape === 'campaign') out.push(searchOf(pop, shape, campaignRow, 'email', false, random));
      else if (shape === 'campaignOpen') out.push(searchOf(pop, shape, campaignRow, 'email', true, random));
      else if (shape === 'phone')
        out.push(
          searchOf(
            pop,
            shape,
            pick(big, (row) => pop.identities[row] >= 2),
            'phone',
            false,
            random,
          ),
        );
      else if (shape === 'small') out.push(searchOf(pop, shape, pick(small), 'email', false, random));
      else out.push({ shape, scope: { tenantId: BIG_TENANT }, query: { identity: `nobody.${round}.${i}@unknown${i % 7}.example`, identityKind: 'email' }, expected: new Set() });
    }
  }
  return shuffle(out, random);
}

interface Timed {
  shape: ShapeKey;
  ms: number;
  selectMs: number;
  totalMs: number;
  total: number;
  wrong: boolean;
}

async function runSearches(queue: QueuePager, recorder: { take(): Recorded[] }, searches: Search[], now: Date, last: Map<ShapeKey, Recorded[]>): Promise<Timed[]> {
  const out: Timed[] = [];
  for (const s of searches) {
    recorder.take();
    const t0 = process.hrtime.bigint();
    const slice = await queue.page(s.scope, s.query, now);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const statements = recorder.take();
    const sum = (kind: Recorded['kind']) => statements.filter((q) => q.kind === kind).reduce((a, q) => a + q.ms, 0);
    // Right when the total is the number of requests that carry the identity and every row on the page is one of them.
    const wrong = !slice.totalExact || slice.total !== s.expected.size || slice.rows.length !== Math.min(25, s.expected.size) || slice.rows.some((r) => !s.expected.has(r.id));
    out.push({ shape: s.shape, ms, selectMs: sum('select'), totalMs: sum('total'), total: slice.total, wrong });
    last.set(s.shape, statements);
  }
  return out;
}

/** Raw SQL on the same data, not through RequestQueue: the statements page() sent, and what would answer the same with less. */
const ALTERNATIVES = {
  select: 'page SELECT as sent',
  total: 'total statement as sent',
  indexCount: 'total counted in request_identities alone',
  windowed: 'page and total in one statement, count(*) OVER ()',
  receiptPage: 'page from an index in receipt order',
} as const;
type AlternativeKey = keyof typeof ALTERNATIVES;
const ALTERNATIVE_SHAPES: ShapeKey[] = ['known', 'campaign', 'campaignOpen'];
/** A copy of the index rows with the request's receipt, for the receiptPage remedy (in the throw-away database only). */
const BY_RECEIPT = `"${schemaNameFor('lifecycle-clock')}"."bench_identities_by_receipt"`;

interface Alternative {
  shape: ShapeKey;
  key: AlternativeKey;
  /** Rows of the page, or the total. */
  result: number;
  ms: number[];
}

interface Alternatives {
  results: Alternative[];
  /** Seconds to copy the index rows with their receipt and index the copy. */
  byReceiptS: number;
  /** EXPLAIN (ANALYZE, BUFFERS) of the receiptPage statement, per shape. */
  plans: Record<string, string[]>;
}

/**
 * For the last search of each of ALTERNATIVE_SHAPES, `rounds` times (each round every statement once, after 5 rounds
 * of warm-up): the two statements of page() one after the other; the total counted from the index alone where the
 * identity is the only row filter; the page with its total in one statement; and the page read from an index of the
 * identity rows in receipt order (a copy of request_identities with received_at, made here), under the current key's
 * digest (one key: an equality, so the index gives the order).
 */
async function alternatives(ds: DataSource, last: Map<ShapeKey, Recorded[]>, rounds: number): Promise<Alternatives> {
  const t = performance.now();
  await ds.query(`CREATE TABLE ${BY_RECEIPT} AS SELECT i.tenant_id, i.digest, r.received_at, i.request_id FROM ${IDENTITIES} i JOIN ${REQUESTS} r ON r.id = i.request_id`);
  await ds.query(`CREATE INDEX bench_identities_by_receipt_lookup ON ${BY_RECEIPT} (tenant_id, digest, received_at DESC, request_id DESC)`);
  await ds.query(`VACUUM (ANALYZE) ${BY_RECEIPT}`);
  const byReceiptS = (performance.now() - t) / 1000;
  const results: Alternative[] = [];
  const plans: Record<string, string[]> = {};
  const runs: Array<{ alt: Alternative; run: () => Promise<number> }> = [];
  for (const shape of ALTERNATIVE_SHAPES) {
    const statements = last.get(shape) ?? [];
    const select = statements.find((q) => q.kind === 'select');
    const total = statements.find((q) => q.kind === 'total' && !/^\s*EXPLAIN/.test(q.sql));
    if (!select || !total) continue;
    const tenant = select.params[0];
    const digests = select.params.find((p): p is Buffer[] => Array.isArray(p)) ?? [];
    const open = shape === 'campaignOpen';
    const add = (key: AlternativeKey, run: () => Promise<number>) => {
      const alt: Alternative = { shape, key, result: 0, ms: [] };
      results.push(alt);
      runs.push({ alt, run });
    };
    add('select', async () => (await ds.query(select.sql, select.params)).length);
    // The capped count answers `matching`, an identity search's count from the index alone `n`.
    add('total', async () => {
      const [row] = await ds.query(total.sql, total.params);
      return Number(row.matching ?? row.n);
    });
    if (!open) {
      add('indexCount', async () => {
        const [row] = await ds.query(`SELECT count(DISTINCT i.request_id)::int AS n FROM ${IDENTITIES} i WHERE i.tenant_id = $1 AND i.digest = ANY($2::bytea[])`, [tenant, digests]);
        return row.n;
      });
    }
    add('windowed', async () => {
      const rows = await ds.query(select.sql.replace(/^\s*SELECT /, 'SELECT count(*) OVER () AS total_rows, '), select.params);
      return rows.length === 0 ? 0 : Number(rows[0].total_rows);
    });
    // The page in receipt order straight from the index: 25 entries, and their rows (with a status filter, the rows until 25 match).
    const receipt = open
      ? {
          sql: `SELECT r.* FROM ${BY_RECEIPT} i JOIN ${REQUESTS} r ON r.id = i.request_id
                 WHERE i.tenant_id = $1 AND i.digest = $2 AND r.tenant_id = $1 AND r.status = ANY($3)
                 ORDER BY i.received_at DESC, i.request_id DESC LIMIT 25`,
          params: [tenant, digests[0], [...OPEN_STATUSES]],
        }
      : {
          sql: `SELECT r.* FROM ${REQUESTS} r
                 WHERE r.tenant_id = $1 AND r.id IN (SELECT i.request_id FROM ${BY_RECEIPT} i WHERE i.tenant_id = $1 AND i.digest = $2 ORDER BY i.received_at DESC, i.request_id DESC LIMIT 25)
                 ORDER BY r.received_at DESC, r.id DESC`,
          params: [tenant, digests[0]],
        };
    add('receiptPage', async () => (await ds.query(receipt.sql, receipt.params)).length);
    plans[shape] = await explain(ds, receipt);
  }
  for (let round = 0; round < rounds + 5; round++) {
    for (const { alt, run } of runs) {
      const t0 = process.hrtime.bigint();
      alt.result = await run();
      if (round >= 5) alt.ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return { results, byReceiptS, plans };
}

// ---------------------------------------------------------------------------------------------
// Creates

const CREATES = {
  plain: 'without identities',
  fresh: 'with 2 new identities',
  repeat: 'repeating an open request (marked)',
  campaign: "with the campaign's email (marked)",
} as const;
type CreateKey = keyof typeof CREATES;
const CREATE_KEYS = Object.keys(CREATES) as CreateKey[];

/**
 * The statements of the identity index in a create (markIfDuplicate's; RequestIdentities.write's in a correction), by
 * what they do. A create's index rows go out in the one statement that writes its request row (`WITH w1 AS (INSERT …`),
 * which is not counted here.
 */
const IDENTITY_STATEMENTS = {
  write: /^\s*(DELETE FROM|INSERT INTO) \S*request_identities/,
  locks: /pg_advisory_xact_lock/,
  candidates: /array_agg\(DISTINCT i\.kind\)/,
  primaries: /approve_verification/,
  activity: /count\(DISTINCT \w+\.request_id\)/,
  other: /request_identities/,
} as const;
type IdentityStatement = keyof typeof IDENTITY_STATEMENTS;
const STATEMENT_KEYS = Object.keys(IDENTITY_STATEMENTS) as IdentityStatement[];
const statementOf = (sql: string): IdentityStatement | undefined => (/^\s*WITH w1 /.test(sql) ? undefined : STATEMENT_KEYS.find((k) => IDENTITY_STATEMENTS[k].test(sql)));

interface CreateTimes {
  ms: number[];
  /** Per create, the identity index's statements' time, in all and by what they do. */
  identityMs: number[];
  byStatement: Record<IdentityStatement, number[]>;
  marked: number;
  wrong: number;
}

interface CreateRun {
  times: Record<CreateKey, CreateTimes>;
  /** The statements of the last create with the campaign's email: its duplicate check's SELECTs are explained. */
  lastCampaign: Statement[];
}

/** Each round creates one request of every kind (the order rotating); the repeats repeat requests created just before the rounds. */
async function runCreates(ctx: Context, registry: RequestRegistry, ds: DataSource, rep: number, count: number, warmup: number): Promise<CreateRun> {
  const scope: TenantScope = { tenantId: BIG_TENANT };
  const receivedAt = new Date(Date.now() - 60_000).toISOString();
  const command = (requestor?: NewRequestCommand['requestor']): NewRequestCommand => accessCommand(receivedAt, requestor);
  const person = (i: number) => ({ email: `writer.${rep}.${i}@intake${i % 9}.example`, phone: `+49152${String(rep * 100_000 + i).padStart(8, '0')}` });
  const total = warmup + count;
  // The first requests of the persons the repeats come from.
  const firsts: string[] = [];
  for (let i = 0; i < total; i++) firsts.push((await registry.create(scope, command({ type: 'subject', ...person(i) }))).id);

  const recorder = recordStatements(ds);
  const times = Object.fromEntries(
    CREATE_KEYS.map((k): [CreateKey, CreateTimes] => [
      k,
      { ms: [], identityMs: [], byStatement: Object.fromEntries(STATEMENT_KEYS.map((x) => [x, []])) as unknown as Record<IdentityStatement, number[]>, marked: 0, wrong: 0 },
    ]),
  ) as Record<CreateKey, CreateTimes>;
  let lastCampaign: Statement[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const order = [...CREATE_KEYS.slice(i % CREATE_KEYS.length), ...CREATE_KEYS.slice(0, i % CREATE_KEYS.length)];
      for (const kind of order) {
        const cmd =
          kind === 'plain'
            ? command()
            : kind === 'fresh'
              ? command({ type: 'subject', ...person(total + i) })
              : kind === 'repeat'
                ? command({ type: 'subject', ...person(i) })
                : command({ type: 'subject', email: CAMPAIGN_EMAIL.toUpperCase() });
        recorder.take();
        const t0 = process.hrtime.bigint();
        const row = await registry.create(scope, cmd);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const statements = recorder.take();
        if (kind === 'campaign') lastCampaign = statements;
        if (i < warmup) continue;
        const t = times[kind];
        t.ms.push(ms);
        const by = Object.fromEntries(STATEMENT_KEYS.map((x) => [x, 0])) as Record<IdentityStatement, number>;
        for (const q of statements) {
          const what = statementOf(q.sql);
          if (what) by[what] += q.ms;
        }
        for (const x of STATEMENT_KEYS) t.byStatement[x].push(by[x]);
        t.identityMs.push(STATEMENT_KEYS.reduce((a, x) => a + by[x], 0));
        if (row.duplicateOf) t.marked++;
        // A repeat is marked as a duplicate of its person's first request; a new person's request and one without identities are not marked.
        if ((kind === 'repeat' && row.duplicateOf !== firsts[i]) || ((kind === 'plain' || kind === 'fresh') && row.duplicateOf !== null)) t.wrong++;
      }
    }
  } finally {
    recorder.stop();
  }
  for (const k of CREATE_KEYS)
    ctx.log(`    rep ${rep + 1} create ${k.padEnd(8)}: mean ${num(mean(times[k].ms))} ms, p95 ${num(percentileOf(times[k].ms, 0.95))} ms, marked ${times[k].marked}/${times[k].ms.length}`);
  return { times, lastCampaign };
}

/** The Execution Time line of an EXPLAIN ANALYZE. */
const executionTime = (plan: string[]): string => plan.find((l) => l.startsWith('Execution Time'))?.replace(':', '') ?? 'no plan';

const mean = (values: readonly number[]): number => values.reduce((a, v) => a + v, 0) / values.length;

// ---------------------------------------------------------------------------------------------
// The CPU of one digest

interface DigestCosts {
  /** µs of CPU (user + system) per call. */
  digestUs: number;
  searchEmailUs: number;
  searchPhoneUs: number;
  constructUs: number;
}

function cpuPerCall(n: number, fn: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) fn(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

function digestCosts(index: BlindIndex, identities: RequestIdentities, IndexClass: new (keys: readonly string[]) => BlindIndex, key: string, smoke: boolean): DigestCosts {
  const n = smoke ? 5_000 : 200_000;
  const emails = Array.from({ length: 1000 }, (_, i) => emailOf(i + 1, false));
  const phones = Array.from({ length: 1000 }, (_, i) => phoneOf(i + 1));
  return {
    digestUs: cpuPerCall(n, (i) => index.digest(BIG_TENANT, 'email', emails[i % 1000])),
    searchEmailUs: cpuPerCall(n / 4, (i) => identities.searchDigests(BIG_TENANT, 'email', emails[i % 1000].toUpperCase())),
    searchPhoneUs: cpuPerCall(n / 4, (i) => identities.searchDigests(BIG_TENANT, 'phone', phones[i % 1000])),
    constructUs: cpuPerCall(smoke ? 100 : 2000, () => new IndexClass([key])),
  };
}

// ---------------------------------------------------------------------------------------------

export const identity: Benchmark = {
  name: 'identity',
  summary: 'search by identity (RequestQueue.page(), blind index) on 1,000,000 requests of one tenant: p50/p95/p99; the identity index’s added cost per create',
  inDefault: false,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const random = generator(40);
    const db = await createTestDatabase();
    created.databases.push(db.name);
    ctx.defer(() => db.drop());
    // A key of its own, as IDENTITY_INDEX_KEY gives one; duplicates marked within 30 days (the default window).
    const key = randomBytes(32).toString('base64');
    const definition = lifecycleClockServiceWith(deadlineMonitorSettingsFrom({}), undefined, identityIndexSettingsFrom({ IDENTITY_INDEX_KEY: key, IDENTITY_DUPLICATE_WINDOW_DAYS: 30 }));
    const service = await hostService(definition, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 4 }), { shutdownHooks: false });
    ctx.defer(() => service.close());
    ctx.log(`  lifecycle-clock hosted in process on database ${db.name} (migrations run, outbox relay not started)`);
    const ds = service.app.get(UnitOfWork).dataSource;
    const registry = service.app.get(RequestRegistry);
    const identities = service.app.get(RequestIdentities);
    const IndexClass = lifecycleClockProvider('IdentityBlindIndex', definition) as unknown as new (keys: readonly string[]) => BlindIndex;
    const index = service.app.get(IndexClass) as BlindIndex;
    const queue = service.app.get(lifecycleClockProvider('RequestQueue')) as QueuePager;

    // The loader writes what the service writes: one create through the registry, its rows read back and compared.
    const probe = await registry.create(
      { tenantId: PROBE_TENANT },
      {
        jurisdiction: 'DE',
        requestType: 'access',
        requestTypeInferred: false,
        intakeSource: { channel: 'email', rawText: 'Send me my data.', receivedAt: new Date(Date.now() - 60_000).toISOString(), sourceEvidence: [{ type: 'account_id', reference: accountOf(7) }] },
        requestor: { type: 'subject', email: emailOf(7, false).toUpperCase(), phone: phoneOf(7) },
      },
    );
    const probeRows: Array<{ kind: IdentityKind; key_id: string; rules_version: number; hex: string }> = await ds.query(
      `SELECT kind, key_id, rules_version, encode(digest, 'hex') AS hex FROM ${IDENTITIES} WHERE request_id = $1 ORDER BY kind`,
      [probe.id],
    );
    const loaderRows = KINDS.map((kind) => ({ kind, hex: index.digest(PROBE_TENANT, kind, kind === 'email' ? emailOf(7, false) : kind === 'phone' ? phoneOf(7) : accountOf(7)).toString('hex') }));
    const same = loaderRows.every((l) => probeRows.some((p) => p.kind === l.kind && p.hex === l.hex && p.key_id === index.currentKeyId));
    if (probeRows.length !== 3 || !same) throw new Error(`the loader's digests are not the service's: ${probeRows.length} rows written for the probe, digests ${same ? 'equal' : 'differ'}`);
    const rulesVersion = probeRows[0].rules_version;

    ctx.log(
      `  loading ${settings.identityTenantRows.toLocaleString('en-US')} requests for ${BIG_TENANT} and ${settings.identityOtherRows.toLocaleString('en-US')} over ${settings.identityOtherTenants} other tenants`,
    );
    const loadS = await loadRequests(ctx, ds);
    let t = performance.now();
    const pop = await assignPersons(ds, random);
    ctx.log(`    persons assigned to ${pop.ids.length.toLocaleString('en-US')} requests in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const loaded = await loadIdentities(ctx, ds, pop, index, rulesVersion);
    ctx.log(`    request_identities: ${loaded.rows.toLocaleString('en-US')} rows; digests ${loaded.digestS.toFixed(1)} s, INSERTs ${loaded.insertS.toFixed(1)} s`);
    t = performance.now();
    for (const table of [REQUESTS, IDENTITIES, COUNTS]) await ds.query(`VACUUM (ANALYZE) ${table}`);
    const vacuumS = (performance.now() - t) / 1000;
    // The load's dirty pages written now, not by the checkpointer while the searches are timed (a superuser's or pg_checkpoint's right).
    const checkpoint = await ds.query('CHECKPOINT').then(
      () => 'CHECKPOINT before the searches',
      () => 'no CHECKPOINT (not allowed to this role): the load may still be written out during the searches',
    );
    ctx.log(`    ${checkpoint}`);
    const [sizes] = await ds.query(
      `SELECT pg_size_pretty(pg_table_size($1)) AS heap, pg_size_pretty(pg_relation_size($2)) AS lookup, pg_size_pretty(pg_relation_size($3)) AS pkey,
              (SELECT count(*) FROM ${IDENTITIES} WHERE tenant_id = $4)::int AS big
         `,
      [
        `${schemaNameFor('lifecycle-clock')}.request_identities`,
        `${schemaNameFor('lifecycle-clock')}.request_identities_lookup`,
        `${schemaNameFor('lifecycle-clock')}.request_identities_pkey`,
        BIG_TENANT,
      ],
    );
    const bigPersons = pop.byPerson.get(BIG_TENANT) ?? new Map<number, number[]>();
    const repeated = [...bigPersons.entries()].filter(([p, rows]) => p !== 0 && rows.length > 1);
    const dataNote =
      `${loaded.rows.toLocaleString('en-US')} index rows (${sizes.big.toLocaleString('en-US')} of ${BIG_TENANT}): table ${sizes.heap}, request_identities_lookup ${sizes.lookup}, primary key ${sizes.pkey}. ` +
      `${BIG_TENANT}: ${bigPersons.size.toLocaleString('en-US')} persons, ${repeated.length.toLocaleString('en-US')} of them with 2–5 requests (${repeated.reduce((a, [, r]) => a + r.length, 0).toLocaleString('en-US')} requests), ` +
      `one campaign email on ${bigPersons.get(0)?.length ?? 0}; VACUUM (ANALYZE) ${vacuumS.toFixed(1)} s; ${checkpoint}.`;
    ctx.log(`    ${dataNote}`);

    // Searches: every repetition a fresh schedule over the same data.
    const recorder = recordQueueStatements(ds);
    const now = new Date();
    const last = new Map<ShapeKey, Recorded[]>();
    await runSearches(queue, recorder, schedule(pop, WARMUP_SEARCHES, random, -1), now, last);
    const reps: Timed[][] = [];
    for (let rep = 0; rep < ctx.repeat; rep++) {
      const timed = await runSearches(queue, recorder, schedule(pop, settings.identitySearches, random, rep), now, last);
      reps.push(timed);
      const all = timed.map((x) => x.ms);
      ctx.log(
        `    rep ${rep + 1}: ${timed.length} searches, p50 ${num(percentileOf(all, 0.5))} ms, p95 ${num(percentileOf(all, 0.95))} ms, p99 ${num(percentileOf(all, 0.99))} ms, wrong ${timed.filter((x) => x.wrong).length}`,
      );
    }

    // The plans of the SQL page() sent for the last search of each shape.
    const plans: Record<string, { select: string[]; total: string[]; sql: string }> = {};
    for (const shape of EXPLAINED) {
      const statements = last.get(shape) ?? [];
      const select = statements.find((q) => q.kind === 'select');
      const total = statements.find((q) => q.kind === 'total' && !/^\s*EXPLAIN/.test(q.sql));
      plans[shape] = { sql: select?.sql.replace(/\s+/g, ' ') ?? '', select: select ? await explain(ds, select) : [], total: total ? await explain(ds, total) : [] };
    }
    recorder.take();
    const remedies = await alternatives(ds, last, ctx.smoke ? 10 : 100);
    const alts = remedies.results;
    ctx.log(`    index rows copied with their receipt and indexed in receipt order: ${remedies.byReceiptS.toFixed(1)} s`);
    for (const a of alts) ctx.log(`    ${a.shape}, ${a.key}: ${a.result}, p50 ${num(percentileOf(a.ms, 0.5))} ms, p95 ${num(percentileOf(a.ms, 0.95))} ms`);
    ctx.log(`    plans: ${EXPLAINED.map((s) => `${s}: page ${accessPaths(plans[s].select)}; total ${accessPaths(plans[s].total)}`).join(' | ')}`);

    // Creates, on the loaded tenant.
    const creates: Record<CreateKey, CreateTimes>[] = [];
    // How many requests carry the campaign's email after each repetition, and of them those the duplicate check weighs (open, DE, access, in the window).
    const campaignGroup: Array<{ carry: number; weighed: number }> = [];
    const [campaignDigest] = identities.searchDigests(BIG_TENANT, 'email', CAMPAIGN_EMAIL);
    let lastCampaign: Statement[] = [];
    for (let rep = 0; rep < ctx.repeat; rep++) {
      const run = await runCreates(ctx, registry, ds, rep, settings.identityCreates, rep === 0 ? WARMUP_CREATES : 0);
      creates.push(run.times);
      lastCampaign = run.lastCampaign;
      const [group] = await ds.query(
        `SELECT count(*)::int AS carry,
                count(*) FILTER (WHERE r.status = ANY($3) AND r.request_type = 'access' AND r.jurisdiction = 'DE' AND r.intake_received_at > now() - interval '30 days')::int AS weighed
           FROM ${IDENTITIES} i JOIN ${REQUESTS} r ON r.id = i.request_id WHERE i.tenant_id = $1 AND i.digest = $2`,
        [BIG_TENANT, campaignDigest, [...OPEN_STATUSES]],
      );
      campaignGroup.push(group);
    }
    // The duplicate check's SELECTs as the last create with the campaign's email sent them.
    const checkPlans: Record<string, string[]> = {};
    for (const what of ['candidates', 'primaries', 'activity'] as const) {
      const q = lastCampaign.find((x) => statementOf(x.sql) === what);
      if (q) checkPlans[what] = await explain(ds, q);
    }
    const digests: DigestCosts[] = [];
    for (let rep = 0; rep < ctx.repeat; rep++) digests.push(digestCosts(index, identities, IndexClass, key, ctx.smoke));

    const figures: Figure[] = [];
    const over = (rep: Timed[], shape?: ShapeKey) => rep.filter((x) => shape === undefined || x.shape === shape);
    const ms = (rep: Timed[], shape: ShapeKey | undefined, p: number) =>
      percentileOf(
        over(rep, shape).map((x) => x.ms),
        p,
      );
    figures.push(
      figure(
        'search.p95',
        `every search (${reps[0].length} per repetition): p95`,
        'ms',
        reps.map((r) => ms(r, undefined, 0.95)),
        { target: atMost(10, 'ms') },
      ),
      figure(
        'search.p50',
        'every search: p50',
        'ms',
        reps.map((r) => ms(r, undefined, 0.5)),
      ),
      figure(
        'search.p99',
        'every search: p99',
        'ms',
        reps.map((r) => ms(r, undefined, 0.99)),
      ),
      figure(
        'search.wrong',
        'searches with a wrong total or a row that does not carry the identity',
        'count',
        reps.map((r) => r.filter((x) => x.wrong).length),
        { target: exactly(0, '0') },
      ),
    );
    for (const shape of SHAPE_KEYS) {
      const n = over(reps[0], shape).length;
      const sel = reps.map((r) => median(over(r, shape).map((x) => x.selectMs)));
      const tot = reps.map((r) => median(over(r, shape).map((x) => x.totalMs)));
      figures.push(
        figure(
          `${shape}.p95`,
          `search, ${SHAPES[shape].label} (${n} per repetition): p95`,
          'ms',
          reps.map((r) => ms(r, shape, 0.95)),
          { target: atMost(10, 'ms') },
        ),
        figure(
          `${shape}.p50`,
          `search, ${SHAPES[shape].label}: p50 (page SELECT ${sel.map((v) => v.toFixed(2)).join('/')} ms, total ${tot.map((v) => v.toFixed(2)).join('/')} ms)`,
          'ms',
          reps.map((r) => ms(r, shape, 0.5)),
        ),
        figure(
          `${shape}.p99`,
          `search, ${SHAPES[shape].label}: p99`,
          'ms',
          reps.map((r) => ms(r, shape, 0.99)),
        ),
      );
    }
    const plainMeans = creates.map((c) => mean(c.plain.ms));
    for (const k of CREATE_KEYS) {
      figures.push(
        figure(
          `create.${k}.mean`,
          `create ${CREATES[k]}: mean`,
          'ms',
          creates.map((c) => mean(c[k].ms)),
        ),
        figure(
          `create.${k}.p95`,
          `create ${CREATES[k]}: p95`,
          'ms',
          creates.map((c) => percentileOf(c[k].ms, 0.95)),
        ),
      );
      if (k !== 'plain') {
        figures.push(
          figure(
            `create.${k}.added`,
            `create ${CREATES[k]}: added (its mean less the mean without identities)`,
            'ms',
            creates.map((c, i) => mean(c[k].ms) - plainMeans[i]),
          ),
          figure(
            `create.${k}.identitySql`,
            `create ${CREATES[k]}: the identity index's statements in it, mean`,
            'ms',
            creates.map((c) => mean(c[k].identityMs)),
          ),
        );
      }
    }
    for (const a of alts) {
      const result = a.key === 'select' || a.key === 'receiptPage' ? `${a.result} rows` : `total ${a.result}`;
      figures.push(
        figure(`alt.${a.shape}.${a.key}.p50`, `raw SQL, ${SHAPES[a.shape].label}: ${ALTERNATIVES[a.key]} (${result}; p95 ${num(percentileOf(a.ms, 0.95))} ms): p50`, 'ms', [percentileOf(a.ms, 0.5)]),
      );
    }
    figures.push(
      figure(
        'create.wrong',
        'creates marked wrongly (a repeat not marked as its first request’s duplicate, or another marked)',
        'count',
        [creates.reduce((a, c) => a + CREATE_KEYS.reduce((b, k) => b + c[k].wrong, 0), 0)],
        { target: exactly(0, '0') },
      ),
      figure(
        'cpu.digest',
        'one HMAC-SHA256 digest (IdentityBlindIndex.digest), CPU',
        'µs',
        digests.map((d) => d.digestUs),
      ),
      figure(
        'cpu.searchEmail',
        'an email searched: normalised and digested (RequestIdentities.searchDigests), CPU',
        'µs',
        digests.map((d) => d.searchEmailUs),
      ),
      figure(
        'cpu.searchPhone',
        'a phone number searched: parsed (libphonenumber-js) and digested, CPU',
        'µs',
        digests.map((d) => d.searchPhoneUs),
      ),
      figure(
        'cpu.construct',
        'the index made from a key (HKDF per kind, key id; once per process start), CPU',
        'µs',
        digests.map((d) => d.constructUs),
      ),
      figure('load.requests', `bulk load: INSERT … SELECT of ${(settings.identityTenantRows + settings.identityOtherRows).toLocaleString('en-US')} requests`, 's', [loadS]),
      figure('load.identities', `bulk load: ${loaded.rows.toLocaleString('en-US')} index rows by INSERT … SELECT FROM unnest (batches of ${BATCH.toLocaleString('en-US')})`, 's', [loaded.insertS]),
    );

    return {
      title: 'identity — search by identity at a million requests (RequestQueue.page()), and intake’s added cost',
      method:
        `In process, on the local PostgreSQL: lifecycle-clock hosted as its app hosts it (its migrations, module and an IDENTITY_INDEX_KEY of its own). ` +
        `The queue benchmark's loader (\`tools/bench/lifecycle-clock-kit.ts\`) writes ${settings.identityTenantRows.toLocaleString('en-US')} requests for one tenant and ` +
        `${settings.identityOtherRows.toLocaleString('en-US')} over ${settings.identityOtherTenants} others; each request then gets 1–3 rows in \`request_identities\` ` +
        `(an email; ${Math.round(100 * (WITH_PHONE + WITH_ACCOUNT))} % a phone, ${Math.round(100 * WITH_ACCOUNT)} % an account id too), in receipt order, by INSERT … SELECT FROM unnest, ` +
        `with the digests of the service's own IdentityBlindIndex (checked first against the rows a real create writes). Persons: ${Math.round(100 * REPEATED_PERSONS)} % write 2–5 times, the others once ` +
        `(the same person numbers in every tenant, under unrelated digests), and one campaign email is on ${CAMPAIGN_REQUESTS} requests of the big tenant. VACUUM (ANALYZE), then CHECKPOINT. ` +
        `Searches: lifecycle-clock's real RequestQueue.page() (the page and its total, no HTTP, as the queue benchmark), ${settings.identitySearches} per repetition over the shapes below in a shuffled order, ` +
        `a fresh identity each (half the emails typed in capitals), after ${WARMUP_SEARCHES} warm-up searches; every answer is checked against the loader's own list of who carries the identity. ` +
        `Creates: the real RequestRegistry.create() in the same tenant (DE, access, web form), ${settings.identityCreates} of each kind per repetition, one of each per round (order rotating): ` +
        'without identities (no requestor, no contact); with 2 new identities (a requestor email and phone no request carries: the duplicate check finds nothing); ' +
        'repeating an open request (the email and phone of a request created just before the rounds: marked as its duplicate); ' +
        "with the campaign's email (marked; each one joins the campaign's group, so the group grows through the run). " +
        'The identity statements (write, locks, the duplicate check) are timed where TypeORM sends them. ' +
        'Then, once, the statements page() sent for the last known, campaign and campaign-with-status search as raw SQL, and remedies on the same data, 100 rounds: ' +
        'the total counted in request_identities alone (count(DISTINCT request_id); right when the identity is the only row filter); the page with its total in one statement (count(*) OVER ()); ' +
        "the page from an index in receipt order (a copy of the index rows with the request's received_at, indexed on (tenant_id, digest, received_at DESC, request_id DESC): the 25 newest entries, then their rows). " +
        'CPU per digest: process.cpuUsage() over a loop. Command: `npm run bench -- identity`.',
      figures,
      notes: [
        dataNote,
        ...EXPLAINED.map(
          (s) =>
            `Plan, ${SHAPES[s].label}: page SELECT ${accessPaths(plans[s].select)} (${executionTime(plans[s].select)}); ` + `total ${accessPaths(plans[s].total)} (${executionTime(plans[s].total)}).`,
        ),
        `The identity index's statements per create, mean ms (${STATEMENT_KEYS.join(' / ')}), per repetition: ` +
          CREATE_KEYS.filter((k) => k !== 'plain')
            .map((k) => `${k} ${creates.map((c) => STATEMENT_KEYS.map((x) => num(mean(c[k].byStatement[x]))).join(' / ')).join('; ')}`)
            .join(' — ') +
          '.',
        `Requests carrying the campaign's email after each repetition: ${campaignGroup.map((g) => `${g.carry} (${g.weighed} of them open, DE, access, received in the last 30 days)`).join(', ')}.`,
        ...Object.entries(checkPlans).map(([what, plan]) => `Plan of the duplicate check's ${what} statement, last create with the campaign's email: ${accessPaths(plan)} (${executionTime(plan)}).`),
        `Creates marked as duplicates per repetition: ${creates.map((c) => CREATE_KEYS.map((k) => `${k} ${c[k].marked}/${c[k].ms.length}`).join(', ')).join('; ')}.`,
      ],
      raw: {
        tenantRows: settings.identityTenantRows,
        otherRows: settings.identityOtherRows,
        otherTenants: settings.identityOtherTenants,
        indexRows: loaded.rows,
        sizes,
        loadS,
        digestLoadS: loaded.digestS,
        insertS: loaded.insertS,
        vacuumS,
        searches: reps.map((r) => r.map(({ shape, ms: t, selectMs, totalMs, total, wrong }) => ({ shape, ms: t, selectMs, totalMs, total, wrong }))),
        plans,
        alternatives: alts,
        receiptPlans: remedies.plans,
        byReceiptS: remedies.byReceiptS,
        creates,
        campaignGroup,
        checkPlans,
        checkStatements: lastCampaign.filter((q) => statementOf(q.sql) !== undefined).map((q) => ({ sql: q.sql.replace(/\s+/g, ' '), ms: q.ms })),
        digests,
      },
    };
  },
};

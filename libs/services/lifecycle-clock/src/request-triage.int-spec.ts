import type { DataSource } from 'typeorm';
import { type NewRequestCommand, newRequestCommand, type Principal, resolveJurisdiction } from '@dsar/contracts';
import { computeClock } from '@dsar/platform/deadline';
import { type HostedService, hostService } from '@dsar/platform/host';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { detailOf, queuePageOf } from './api/request-views';
import { RequestAppeals } from './application/request-appeals';
import { RequestClock } from './application/request-clock';
import { RequestLifecycle } from './application/request-lifecycle';
import { RequestQueue } from './application/request-queue';
import { RequestRegistry } from './application/request-registry';
import { lifecycleClockService } from './index';

/** The detail's identity activity, which these tests do not look at: the request alone in the default window. */
const ONE_REQUEST = { requests: 1, windowDays: 30 };

/**
 * Triage inside lifecycle-clock, on both drivers: a request intake could not read a type for is recorded without one,
 * on its pack's default rule, and listed by the queue's `triage` filter; every step stays open to it (what needs the
 * type, its fan-out and fulfilment, waits in fulfilment-delivery); a correction names its type, recomputes its clock from
 * the same receipt, explains it and records it, and takes it out of triage.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const)('requests in triage, on %s', (_name, driver) => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let registry: RequestRegistry;
  let lifecycle: RequestLifecycle;
  let legalClock: RequestClock;
  let queue: RequestQueue;
  const tenant = `t-${uniqueSuffix()}`;
  const scope: TenantScope = { tenantId: tenant };
  const operator: Principal = { id: 'key:triage-test', tenantId: tenant, roles: ['operator'] };
  const now = new Date();
  /** Mon 16 Nov 2026, 17:00 in California. */
  const receivedAt = '2026-11-17T01:00:00Z';

  beforeAll(async () => {
    if (driver === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      service = await hostService(lifecycleClockService, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 5 }));
    } else {
      service = await hostService(lifecycleClockService, testHostConfig({ DATA_DIR: `memory://request-triage-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }));
    }
    registry = service.app.get(RequestRegistry);
    lifecycle = service.app.get(RequestLifecycle);
    legalClock = service.app.get(RequestClock);
    queue = service.app.get(RequestQueue);
    ds = service.app.get(UnitOfWork).dataSource;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  /** A US-CA letter intake could not read with confidence (it suggests an opt-out), through the contract intake sends. */
  const triaged = (over: Partial<NewRequestCommand> = {}): NewRequestCommand =>
    newRequestCommand.parse({
      jurisdiction: 'US-CA',
      requestType: null,
      requestTypeInferred: true,
      requestedRights: [{ type: 'opt_out', phrase: 'stop passing my details on', basis: 'phrase' }],
      reading: { confidence: 0.42, triageReason: 'low_confidence', suggestedType: 'opt_out', detectedLanguage: 'en' },
      intakeSource: { channel: 'email', rawText: 'Please stop passing my details on to other companies.', receivedAt, contact: 'river@example.org' },
      locale: 'en',
      ...over,
    });
  const typed = (): NewRequestCommand => ({
    jurisdiction: 'US-CA',
    requestType: 'opt_out',
    requestTypeInferred: false,
    intakeSource: { channel: 'web_form', rawText: 'Do not sell or share my personal information.', receivedAt },
  });

  /** The pack's clock for the request's receipt with the given type (null: the default rule), as the engine computes it. */
  function dueOf(requestType: NewRequestCommand['requestType']): string {
    const { pack, binding } = resolveJurisdiction('US-CA')!;
    return computeClock({ pack, binding, requestType, clockMode: 'receipt', receivedAt: new Date(receivedAt), events: [] }).finalDueAt.toISOString();
  }

  async function eventsOf(type: string, requestId: string): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ envelope: { data: Record<string, unknown> } | string }> = await ds.query(`SELECT envelope FROM ${qualifiedTable(ds, 'outbox')} WHERE event_type = $1 AND tenant_id = $2`, [
      type,
      tenant,
    ]);
    return rows.map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope).data).filter((d) => d.requestId === requestId);
  }

  it("records a request without a type on the pack's default rule, with its reading and the rights it asks for", async () => {
    const row = await registry.create(scope, triaged(), now);
    // us-ca-ccpa: 45 days (receipt day counted) by default, Wed 30 Dec 2026; an opt-out would have 15 business days, Wed 9 Dec.
    expect(dueOf(null)).toBe('2026-12-31T07:59:59.999Z');
    expect(dueOf('opt_out')).toBe('2026-12-10T07:59:59.999Z');
    expect(row.dueAt.toISOString()).toBe(dueOf(null));

    const detail = detailOf(await registry.require(scope, row.id), [], ONE_REQUEST);
    expect(detail).toMatchObject({
      requestType: null,
      requestTypeInferred: true,
      requestedRights: [{ type: 'opt_out', phrase: 'stop passing my details on', basis: 'phrase' }],
      typeConfidence: 0.42,
      detectedLanguage: 'en',
      triage: { reason: 'low_confidence', suggestedType: 'opt_out', confidence: 0.42 },
      dueAt: '2026-12-31T07:59:59.999Z',
    });
    const [created] = await eventsOf('dsar.request.created.v1', row.id);
    expect(created).toMatchObject({ requestType: null, requestedRights: ['opt_out'], triageReason: 'low_confidence', dueAt: '2026-12-31T07:59:59.999Z' });

    const explained = await legalClock.explain(scope, row.id, now);
    expect(explained.requestType).toBeNull();
    expect(explained.rule.period).toEqual({ amount: 45, unit: 'calendar_days', countReceiptDay: true, roll: 'none' });
    expect(explained.steps.join('\n')).toMatch(/triage/);

    // A request with a type is not in triage, and says so.
    const other = await registry.create(scope, typed(), now);
    expect(detailOf(await registry.require(scope, other.id), [], ONE_REQUEST)).toMatchObject({ requestType: 'opt_out', triage: null, requestedRights: [], typeConfidence: null });
    expect(other.dueAt.toISOString()).toBe(dueOf('opt_out'));
    expect((await eventsOf('dsar.request.created.v1', other.id))[0]).toMatchObject({ requestType: 'opt_out', requestedRights: ['opt_out'], triageReason: null });
  });

  it('refuses a request without a type that does not say why (the contract, and the table behind it)', async () => {
    expect(newRequestCommand.safeParse({ ...typed(), requestType: null }).success).toBe(false);
    const { reading: _reading, ...withoutReading } = triaged();
    await expect(registry.create(scope, withoutReading, now)).rejects.toThrow(/requests_type_or_triage/);
  });

  it('lists the requests in triage with triage=true, the others with triage=false, with exact totals', async () => {
    const own: TenantScope = { tenantId: `t-${uniqueSuffix()}` };
    const inTriage = [
      (await registry.create(own, triaged(), now)).id,
      (await registry.create(own, triaged({ reading: { confidence: 0, triageReason: 'unsupported_language', suggestedType: null, detectedLanguage: 'pl' } }), now)).id,
    ];
    const withType = (await registry.create(own, typed(), now)).id;
    const page = async (triage?: boolean) => queue.page(own, { ...(triage === undefined ? {} : { triage }), limit: 200 }, now);

    const onlyTriage = await page(true);
    expect(onlyTriage.rows.map((r) => r.id).sort()).toEqual([...inTriage].sort());
    expect({ total: onlyTriage.total, exact: onlyTriage.totalExact }).toEqual({ total: 2, exact: true });
    const view = queuePageOf(onlyTriage, { triage: true }, now);
    expect(view.triage).toBe(true);
    expect(view.items.map((i) => ({ requestType: i.requestType, triage: i.triage }))).toEqual([
      { requestType: null, triage: true },
      { requestType: null, triage: true },
    ]);

    const typedOnly = await page(false);
    expect(typedOnly.rows.map((r) => r.id)).toEqual([withType]);
    expect(typedOnly.total).toBe(1);
    expect(queuePageOf(typedOnly, { triage: false }, now).items[0]).toMatchObject({ requestType: 'opt_out', triage: false });
    expect((await page()).total).toBe(3);
    // With the other filters: a type filter never matches a request in triage.
    expect((await queue.page(own, { triage: true, requestType: ['opt_out'] }, now)).total).toBe(0);
    expect((await queue.page(own, { triage: true, status: ['received'], jurisdiction: ['US-CA'] }, now)).total).toBe(2);
  });

  it('lets a request in triage take every step: the steps that need its type wait elsewhere (its fan-out, its fulfilment)', async () => {
    // Acknowledged (a legal duty that cannot wait on an operator's reading): in_progress, still without a type.
    const id = (await registry.create(scope, triaged(), now)).id;
    await expect(lifecycle.acknowledge(operator, id, {}, now)).resolves.toMatchObject({ status: 'in_progress' });
    expect(await registry.require(scope, id)).toMatchObject({ status: 'in_progress', requestType: null });

    // A clarification asked and answered, a verification asked and approved.
    const asked = (await registry.create(scope, triaged(), now)).id;
    await lifecycle.requestClarification(operator, asked, { message: 'Which of your rights do you want us to act on?' }, now);
    await expect(lifecycle.receiveClarification(operator, asked, {}, now)).resolves.toMatchObject({ status: 'in_progress' });
    await lifecycle.requestVerification(operator, asked, {}, now);
    await expect(lifecycle.approveVerification(operator, asked, {}, now)).resolves.toMatchObject({ status: 'in_progress' });

    // The clock may be extended (CCPA: 45 more days, with reasons).
    const extended = await legalClock.extend(operator, asked, { additionalDays: 45, reason: 'We need more time to find your records.' }, now);
    expect(extended.dueAt).not.toBe(extended.previousDueAt);

    // Refused, appealed and reopened by the appeal's approval; closed.
    const refusedId = (await registry.create(scope, triaged(), now)).id;
    await expect(lifecycle.refuse(operator, refusedId, { reason: 'manifestly_unfounded' }, now)).resolves.toMatchObject({ status: 'refused' });
    const appeals = service.app.get(RequestAppeals);
    const { appealId } = await appeals.file(operator, refusedId, { message: 'I did ask you to stop selling my data.' }, now);
    await expect(appeals.decide(operator, refusedId, appealId, { decision: 'approve' }, now)).resolves.toMatchObject({ decision: 'approve' });
    expect(await registry.require(scope, refusedId)).toMatchObject({ status: 'in_progress', requestType: null });
    const closedId = (await registry.create(scope, triaged(), now)).id;
    await expect(lifecycle.close(operator, closedId, {}, now)).resolves.toMatchObject({ status: 'closed' });
  });

  it('names the type with a correction: the clock is recomputed from the same receipt and explained, the correction recorded, and triage ends', async () => {
    const id = (await registry.create(scope, triaged(), now)).id;
    // A jurisdiction alone leaves the request in triage, on the default rule of its new pack.
    const moved = await lifecycle.correct(operator, id, { jurisdiction: 'us-va', reason: 'The requester lives in Virginia.' }, now);
    expect(moved).toMatchObject({ requestType: null, jurisdiction: 'US-VA' });
    expect(detailOf(await registry.require(scope, id), [], ONE_REQUEST).triage).toMatchObject({ reason: 'low_confidence' });
    await lifecycle.correct(operator, id, { jurisdiction: 'US-CA', reason: 'Back to California: the address was a holiday home.' }, now);

    const result = await lifecycle.correct(operator, id, { requestType: 'opt_out', reason: 'The letter asks us to stop selling their data.' }, now);
    expect(result).toMatchObject({ requestType: 'opt_out', jurisdiction: 'US-CA', previousDueAt: dueOf(null), dueAt: dueOf('opt_out') });

    const detail = detailOf(await registry.require(scope, id), [], ONE_REQUEST);
    expect(detail).toMatchObject({ requestType: 'opt_out', triage: null, dueAt: dueOf('opt_out'), typeConfidence: 0.42 });

    const explained = await legalClock.explain(scope, id, now);
    const last = explained.corrections[explained.corrections.length - 1];
    expect(last).toMatchObject({
      step: 'corrected',
      reason: 'The letter asks us to stop selling their data.',
      from: { requestType: null, dueAt: dueOf(null) },
      to: { requestType: 'opt_out', dueAt: dueOf('opt_out') },
    });
    expect(explained.steps.join('\n')).toContain('request type (triage) → opt_out');
    expect(explained.rule.period).toMatchObject({ amount: 15, unit: 'business_days' });

    const corrected = await eventsOf('dsar.request.corrected.v1', id);
    expect(corrected[corrected.length - 1]).toMatchObject({ previousRequestType: null, requestType: 'opt_out', previousDueAt: dueOf(null), dueAt: dueOf('opt_out') });

    // Out of triage, the request moves on; the same correction again changes nothing.
    await expect(lifecycle.acknowledge(operator, id, {}, now)).resolves.toMatchObject({ status: 'in_progress' });
    await expect(lifecycle.correct(operator, id, { requestType: 'opt_out', reason: 'Once more.' }, now)).rejects.toMatchObject({ definition: { name: 'CORRECTION_CHANGES_NOTHING' } });
    expect((await queue.page(scope, { triage: true, reference: `DSAR-${id.slice(0, 8).toUpperCase()}` }, now)).total).toBe(0);
  });
});

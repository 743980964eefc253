import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type NewRequestCommand, type Principal, requestReference } from '@dsar/contracts';
import { SystemClock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { type HostedService, hostService } from '@dsar/platform/host';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { retentionSettingsFrom } from '@dsar/platform/retention';
import { createTestDatabase, testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { RequestIdentities } from './application/request-identities';
import { RequestLifecycle } from './application/request-lifecycle';
import { RequestQueue } from './application/request-queue';
import { RequestRecordPurger } from './application/request-record-purger';
import { RequestRegistry } from './application/request-registry';
import { IdentityBlindIndex } from './domain/identity/blind-index';
import { deadlineMonitorSettingsFrom, lifecycleClockServiceWith } from './index';

const KEY = randomBytes(32).toString('base64url');
const NEXT_KEY = randomBytes(32).toString('base64url');

/**
 * The identity index inside lifecycle-clock, on both drivers: a request is found by its person's email, phone or
 * account id in any usual spelling and never by another tenant; a request that repeats an open one of the same person,
 * type and jurisdiction is marked (two at once end in one group) and an operator decides it; the index follows a
 * replaced requestor, survives a key rotation with its reindex, and is purged with the request.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const)('the identity index, on %s', (_name, driver) => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let registry: RequestRegistry;
  let lifecycle: RequestLifecycle;
  let queue: RequestQueue;
  const now = new Date();
  const receivedAt = new Date(now.getTime() - 3 * 86_400_000).toISOString();
  const dayLater = new Date(now.getTime() - 2 * 86_400_000).toISOString();

  beforeAll(async () => {
    const definition = lifecycleClockServiceWith(deadlineMonitorSettingsFrom({}), retentionSettingsFrom({}), { keys: [KEY], duplicateWindowDays: 30 });
    if (driver === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      service = await hostService(definition, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 5 }));
    } else {
      service = await hostService(definition, testHostConfig({ DATA_DIR: `memory://request-identities-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }));
    }
    registry = service.app.get(RequestRegistry);
    lifecycle = service.app.get(RequestLifecycle);
    queue = service.app.get(RequestQueue);
    ds = service.app.get(UnitOfWork).dataSource;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  const tenant = (): TenantScope => ({ tenantId: `t-${uniqueSuffix()}` });
  const operatorOf = (scope: TenantScope): Principal => ({ id: 'key:identity-test', tenantId: scope.tenantId, roles: ['operator'] });

  /** An access request in Germany, by web form unless `over` says otherwise. */
  const access = (over: Partial<NewRequestCommand> = {}): NewRequestCommand => ({
    jurisdiction: 'DE',
    requestType: 'access',
    requestTypeInferred: false,
    intakeSource: { channel: 'web_form', rawText: 'Please send me a copy of the data you hold on me.', receivedAt },
    ...over,
  });

  const ids = async (scope: TenantScope, query: Parameters<RequestQueue['page']>[1]) => (await queue.page(scope, query, now)).rows.map((r) => r.id).sort();
  const byEmail = (scope: TenantScope, email: string) => ids(scope, { identity: email, identityKind: 'email' });

  async function rowsOf(requestId: string): Promise<Array<{ kind: string; key_id: string; digest: Buffer | string }>> {
    return ds.query(`SELECT kind, key_id, digest FROM ${qualifiedTable(ds, 'request_identities')} WHERE request_id = $1 ORDER BY kind`, [requestId]);
  }

  async function eventsOf(type: string, tenantId: string): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ envelope: { data: Record<string, unknown> } | string }> = await ds.query(
      `SELECT envelope FROM ${qualifiedTable(ds, 'outbox')} WHERE event_type = $1 AND tenant_id = $2 ORDER BY created_at`,
      [type, tenantId],
    );
    return rows.map((r) => (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope).data);
  }

  it('finds a request by its email in any spelling, by its contact, phone and account id, and never in another tenant', async () => {
    const scope = tenant();
    const first = await registry.create(scope, access({ requestor: { type: 'subject', email: 'Ada@Example.org' } }), now);
    const second = await registry.create(scope, access({ requestType: 'deletion', intakeSource: { channel: 'email', rawText: 'Delete my account.', receivedAt, contact: ' ada@example.org ' } }), now);
    const other = await registry.create(scope, access({ requestor: { type: 'subject', email: 'grace@example.org', phone: '030 1234567' } }), now);
    const account = await registry.create(
      scope,
      access({ intakeSource: { channel: 'api', rawText: 'Access request from the app.', receivedAt, sourceEvidence: [{ type: 'account_id', reference: 'CUST-00042' }] } }),
      now,
    );

    expect(await byEmail(scope, 'Ada@Example.org ')).toEqual([first.id, second.id].sort());
    expect(await byEmail(scope, 'ada@example.org')).toEqual([first.id, second.id].sort());
    expect(await byEmail(scope, 'ADA@EXAMPLE.ORG')).toEqual([first.id, second.id].sort());
    // The local part is kept as written: a +tag is another address.
    expect(await byEmail(scope, 'ada+dsar@example.org')).toEqual([]);
    expect(await ids(scope, { identity: '+49 30 1234567', identityKind: 'phone' })).toEqual([other.id]);
    expect(await ids(scope, { identity: '030 1234567', identityKind: 'phone', jurisdiction: ['DE'] })).toEqual([other.id]);
    expect(await ids(scope, { identity: 'CUST-00042', identityKind: 'account' })).toEqual([account.id]);
    // An account id is matched as given, and is no email.
    expect(await ids(scope, { identity: 'cust-00042', identityKind: 'account' })).toEqual([]);
    // Combined with the other filters.
    expect(await ids(scope, { identity: 'ada@example.org', requestType: ['deletion'] })).toEqual([second.id]);
    const page = await queue.page(scope, { identity: 'ada@example.org' }, now);
    expect({ total: page.total, exact: page.totalExact }).toEqual({ total: 2, exact: true });

    // Another tenant has no such requests, and holds digests unrelated to these.
    const stranger = tenant();
    expect(await byEmail(stranger, 'ada@example.org')).toEqual([]);
    const mine = await registry.create(stranger, access({ requestor: { type: 'subject', email: 'ada@example.org' } }), now);
    expect(await byEmail(stranger, 'ada@example.org')).toEqual([mine.id]);
    const [theirs] = await rowsOf(first.id);
    const [ours] = await rowsOf(mine.id);
    expect(Buffer.from(ours.digest).equals(Buffer.from(theirs.digest))).toBe(false);

    // No identity is kept in the index in clear.
    const [clear] = await ds.query(`SELECT count(*)::int AS n FROM ${qualifiedTable(ds, 'request_identities')} WHERE encode(digest, 'escape') ILIKE '%example.org%' OR key_id ILIKE '%ada%'`);
    expect(clear.n).toBe(0);
  });

  it('answers a value that is no identity of its kind with a 400 naming identity', async () => {
    const scope = tenant();
    for (const [identity, identityKind] of [
      ['not-an-address', 'email'],
      ['ada@@example.org', 'email'],
      ['12', 'phone'],
      ['030 1234567', 'phone'],
    ] as const) {
      const failure = await queue.page(scope, { identity, identityKind }, now).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProblemError);
      expect((failure as ProblemError).errors).toEqual([expect.objectContaining({ field: 'identity' })]);
    }
  });

  it('marks a request that repeats an open one of the same person, type and jurisdiction, and nothing else', async () => {
    const scope = tenant();
    const web = await registry.create(scope, access({ requestor: { type: 'subject', email: 'lin@example.org' } }), now);
    const mail = await registry.create(scope, access({ intakeSource: { channel: 'email', rawText: 'I want my data.', receivedAt: dayLater, contact: 'Lin@Example.org' } }), now);
    expect((await registry.require(scope, mail.id)).duplicateOf).toBe(web.id);
    expect(await registry.require(scope, mail.id)).toMatchObject({ duplicateState: 'marked', duplicateMatchedKinds: ['email'] });
    expect((await registry.require(scope, web.id)).duplicateState).toBeNull();
    const [marked] = await eventsOf('dsar.request.duplicate_marked.v1', scope.tenantId);
    expect(marked).toEqual({
      requestId: mail.id,
      tenantId: scope.tenantId,
      workspaceId: null,
      duplicateOf: web.id,
      matchedKinds: ['email'],
      windowDays: 30,
      sameIdentityRequests: 2,
      markedAt: expect.any(String),
    });
    expect(JSON.stringify(marked)).not.toMatch(/lin@/i);
    // The create's two events in the order the relay publishes them (the outbox's ids), the row naming the last one.
    const written: Array<{ event_type: string; event_id: string }> = await ds.query(`SELECT event_type, event_id FROM ${qualifiedTable(ds, 'outbox')} WHERE partition_key = $1 ORDER BY id`, [mail.id]);
    expect(written.map((e) => e.event_type)).toEqual(['dsar.request.created.v1', 'dsar.request.duplicate_marked.v1']);
    expect(mail.lastEventId).toBe(written[1].event_id);
    expect(await registry.require(scope, mail.id)).toMatchObject({ lastEventId: written[1].event_id, version: 1 });

    // Another type, another jurisdiction, another person, or outside the window: not duplicates.
    const deletion = await registry.create(scope, access({ requestType: 'deletion', requestor: { type: 'subject', email: 'lin@example.org' } }), now);
    const france = await registry.create(scope, access({ jurisdiction: 'FR', requestor: { type: 'subject', email: 'lin@example.org' } }), now);
    const sameText = await registry.create(scope, access({ requestor: { type: 'subject', email: 'kim@example.org' } }), now);
    const longBefore = new Date(now.getTime() - 60 * 86_400_000).toISOString();
    const old = await registry.create(scope, access({ intakeSource: { ...access().intakeSource, receivedAt: longBefore }, requestor: { type: 'subject', email: 'noor@example.org' } }), now);
    const late = await registry.create(scope, access({ requestor: { type: 'subject', email: 'noor@example.org' } }), now);
    for (const id of [deletion.id, france.id, sameText.id, late.id, old.id]) expect((await registry.require(scope, id)).duplicateState).toBeNull();

    // A third request of the group is marked against its first, and the queue lists the marked ones.
    const third = await registry.create(scope, access({ requestor: { type: 'subject', email: 'lin@example.org' } }), now);
    expect((await registry.require(scope, third.id)).duplicateOf).toBe(web.id);
    expect(await ids(scope, { duplicate: true })).toEqual([mail.id, third.id].sort());
    expect((await ids(scope, { duplicate: false })).includes(mail.id)).toBe(false);
    // The requests with the address received up to the third one's receipt: all but the one received a day after it.
    const activity = await service.app.get(RequestIdentities).activityOf(ds.manager, await registry.require(scope, third.id));
    expect(activity).toEqual({ requests: 4, windowDays: 30 });
  });

  it('marks none of many requests with the same words from different people, and all but the first of many from one', async () => {
    const scope = tenant();
    const campaign = await Promise.all(Array.from({ length: 6 }, (_, i) => registry.create(scope, access({ requestor: { type: 'subject', email: `person${i}@example.org` } }), now)));
    for (const row of campaign) expect((await registry.require(scope, row.id)).duplicateState).toBeNull();
    const oneSender = [];
    for (let i = 0; i < 4; i++) oneSender.push(await registry.create(scope, access({ requestor: { type: 'subject', email: 'sender@example.org' } }), now));
    const marks = await Promise.all(oneSender.map(async (row) => (await registry.require(scope, row.id)).duplicateOf));
    expect(marks).toEqual([null, oneSender[0].id, oneSender[0].id, oneSender[0].id]);
    const counts = (await eventsOf('dsar.request.duplicate_marked.v1', scope.tenantId)).map((e) => e.sameIdentityRequests);
    expect(counts).toEqual([2, 3, 4]);
  });

  it('puts two requests of one person recorded at once in one group', async () => {
    for (let round = 0; round < 5; round++) {
      const scope = tenant();
      const email = `twin${round}@example.org`;
      const [a, b] = await Promise.all([
        registry.create(scope, access({ requestor: { type: 'subject', email } }), now),
        registry.create(scope, access({ intakeSource: { channel: 'email', rawText: 'My data, please.', receivedAt, contact: email.toUpperCase() } }), now),
      ]);
      const rows = [await registry.require(scope, a.id), await registry.require(scope, b.id)];
      const marked = rows.filter((r) => r.duplicateState === 'marked');
      expect(marked).toHaveLength(1);
      expect(marked[0].duplicateOf).toBe(rows.find((r) => r.duplicateState === null)?.id);
    }
  });

  it('lets an operator separate or confirm a duplicate once; confirming refuses it with a notice naming the earlier request', async () => {
    const scope = tenant();
    const operator = operatorOf(scope);
    const first = await registry.create(scope, access({ requestor: { type: 'subject', email: 'mo@example.org' } }), now);
    const separated = await registry.create(scope, access({ requestor: { type: 'subject', email: 'mo@example.org' } }), now);
    const confirmed = await registry.create(scope, access({ requestor: { type: 'subject', email: 'mo@example.org' } }), now);

    const kept = await lifecycle.resolveDuplicate(operator, separated.id, { resolution: 'separated', reason: 'A second account of the same person' });
    expect(kept.status).toBe('received');
    expect(await registry.require(scope, separated.id)).toMatchObject({ duplicateState: 'separated', duplicateOf: first.id });
    expect(await ids(scope, { duplicate: true })).toEqual([confirmed.id]);

    // Two decisions at once: one wins, the other finds the mark decided.
    const outcomes = await Promise.allSettled([
      lifecycle.resolveDuplicate(operator, confirmed.id, { resolution: 'confirmed', reason: 'Same request by email' }),
      lifecycle.resolveDuplicate(operator, confirmed.id, { resolution: 'separated', reason: 'Not the same' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const loser = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect((loser.reason as ProblemError).definition.code).toBe('SVC-BE-1413');
    const row = await registry.require(scope, confirmed.id);
    if (row.duplicateState === 'confirmed') {
      expect(row).toMatchObject({ status: 'refused', statusReason: 'duplicate', duplicateOf: first.id });
      const [refused] = (await eventsOf('dsar.request.refused.v1', scope.tenantId)).filter((e) => e.requestId === confirmed.id);
      expect(refused).toMatchObject({ reason: 'duplicate', action: 'resolve_duplicate', status: 'refused' });
      const transition = await lifecycle.transitionOf(scope, confirmed.id, String((await registry.require(scope, confirmed.id)).lastEventId));
      expect(String(transition.details.message)).toContain(`it repeats your request ${requestReference(first.id)}`);
    } else {
      expect(row).toMatchObject({ status: 'received', duplicateState: 'separated' });
    }
    const resolved = (await eventsOf('dsar.request.duplicate_resolved.v1', scope.tenantId)).map((e) => [e.requestId, e.resolution, e.duplicateOf]);
    expect(resolved).toEqual([
      [separated.id, 'separated', first.id],
      [confirmed.id, row.duplicateState, first.id],
    ]);

    // The first of the group was never marked: no decision to make, and nothing changes.
    const never = await lifecycle.resolveDuplicate(operator, first.id, { resolution: 'confirmed', reason: 'x' }).catch((e: unknown) => e);
    expect((never as ProblemError).definition.code).toBe('SVC-BE-1413');
    expect((await registry.require(scope, first.id)).status).toBe('received');
    // Verification does not decide a mark.
    const fourth = await registry.create(scope, access({ requestor: { type: 'subject', email: 'mo@example.org' } }), now);
    await lifecycle.requestVerification(operator, fourth.id, {});
    await lifecycle.approveVerification(operator, fourth.id, {});
    expect((await registry.require(scope, fourth.id)).duplicateState).toBe('marked');
  });

  it('prefers a verified request as the first of a group', async () => {
    const scope = tenant();
    const operator = operatorOf(scope);
    const earlier = await registry.create(scope, access({ requestor: { type: 'subject', email: 'vera@example.org' } }), now);
    const verified = await registry.create(scope, access({ intakeSource: { channel: 'email', rawText: 'Copy of my data.', receivedAt: dayLater, contact: 'vera@example.org' } }), now);
    // Separated, the later one is a group of its own; verified, it is preferred over the earlier.
    await lifecycle.resolveDuplicate(operator, verified.id, { resolution: 'separated', reason: 'Checked by phone' });
    await lifecycle.requestVerification(operator, verified.id, {});
    await lifecycle.approveVerification(operator, verified.id, {});
    const next = await registry.create(scope, access({ requestor: { type: 'subject', email: 'vera@example.org' } }), now);
    expect((await registry.require(scope, next.id)).duplicateOf).toBe(verified.id);
    expect(earlier.id).not.toBe(verified.id);
  });

  it('marks against a match whose first request was decided, within the workspace only, and when a correction names the type', async () => {
    const scope = tenant();
    const operator = operatorOf(scope);
    const first = await registry.create(scope, access({ requestor: { type: 'subject', email: 'ines@example.org' } }), now);
    const second = await registry.create(scope, access({ requestor: { type: 'subject', email: 'ines@example.org' } }), now);
    expect((await registry.require(scope, second.id)).duplicateOf).toBe(first.id);
    await lifecycle.refuse(operator, first.id, { reason: 'other' });
    // The first of the group is no longer open: the open match stands for it.
    const third = await registry.create(scope, access({ requestor: { type: 'subject', email: 'ines@example.org' } }), now);
    expect((await registry.require(scope, third.id)).duplicateOf).toBe(second.id);

    // Another workspace of the tenant is another group, and counts apart.
    const brand: TenantScope = { tenantId: scope.tenantId, workspaceId: 'brand-b' };
    const elsewhere = await registry.create(brand, access({ requestor: { type: 'subject', email: 'ines@example.org' } }), now);
    expect((await registry.require(brand, elsewhere.id)).duplicateState).toBeNull();
    expect(await service.app.get(RequestIdentities).activityOf(ds.manager, await registry.require(brand, elsewhere.id))).toEqual({ requests: 1, windowDays: 30 });

    // A request in triage is not marked until a correction names its type, which checks it as intake would have.
    const triaged = await registry.create(
      scope,
      access({
        requestType: null,
        requestTypeInferred: true,
        reading: { confidence: 0.1, triageReason: 'low_confidence', suggestedType: 'access', detectedLanguage: 'en' },
        intakeSource: { channel: 'email', rawText: 'About my details.', receivedAt, contact: 'ines@example.org' },
      }),
      now,
    );
    expect((await registry.require(scope, triaged.id)).duplicateState).toBeNull();
    await lifecycle.correct(operator, triaged.id, { requestType: 'access', reason: 'The person asks for a copy.' });
    expect(await registry.require(scope, triaged.id)).toMatchObject({ duplicateState: 'marked', duplicateOf: second.id });
    const marks = (await eventsOf('dsar.request.duplicate_marked.v1', scope.tenantId)).filter((e) => e.requestId === triaged.id);
    expect(marks).toEqual([expect.objectContaining({ duplicateOf: second.id, matchedKinds: ['email'] })]);
  });

  it('follows a replaced requestor and account evidence submitted later', async () => {
    const scope = tenant();
    const operator = operatorOf(scope);
    const row = await registry.create(scope, access({ requestor: { type: 'subject', email: 'old@example.org' } }), now);
    await lifecycle.replaceRequestor(operator, row.id, { type: 'subject', email: 'new@example.org' });
    expect(await byEmail(scope, 'old@example.org')).toEqual([]);
    expect(await byEmail(scope, 'new@example.org')).toEqual([row.id]);
    await lifecycle.submitAuthority(operator, row.id, { status: 'submitted', evidenceArtifacts: [{ type: 'account_id', reference: 'ACC-7' }] });
    expect(await ids(scope, { identity: 'ACC-7', identityKind: 'account' })).toEqual([row.id]);
  });

  it('finds old requests during and after a key rotation, and the reindex leaves no row under the old key', async () => {
    const scope = tenant();
    const before = await registry.create(scope, access({ requestor: { type: 'subject', email: 'rotate@example.org' } }), now);
    const uow = service.app.get(UnitOfWork);
    const clock = new SystemClock();
    const rotated = new RequestIdentities(uow, new IdentityBlindIndex([NEXT_KEY, KEY]), { keys: [NEXT_KEY, KEY], duplicateWindowDays: 30 });
    const during = new RequestQueue(uow, clock, rotated);
    expect((await during.page(scope, { identity: 'rotate@example.org' }, now)).rows.map((r) => r.id)).toEqual([before.id]);
    expect(await rotated.staleRows()).toBeGreaterThan(0);

    let after: string | null = null;
    for (;;) {
      const done = await rotated.reindexBatch(after, 50);
      if (done.last === null) break;
      after = done.last;
    }
    expect(await rotated.staleRows()).toBe(0);
    const newKeyOnly = new RequestIdentities(uow, new IdentityBlindIndex([NEXT_KEY]), { keys: [NEXT_KEY], duplicateWindowDays: 30 });
    expect((await new RequestQueue(uow, clock, newKeyOnly).page(scope, { identity: 'Rotate@example.org' }, now)).rows.map((r) => r.id)).toEqual([before.id]);
    const keyIds = new Set((await rowsOf(before.id)).map((r) => r.key_id));
    expect([...keyIds]).toEqual([new IdentityBlindIndex([NEXT_KEY]).currentKeyId]);
    // A second run has nothing to do.
    expect((await rotated.reindexBatch(null, 5000)).rewritten).toBe(0);
    // A row of no request (none should be: a purge deletes both) would keep the old key in use: the reindex drops it.
    await ds.query(`INSERT INTO ${qualifiedTable(ds, 'request_identities')} VALUES ($1, $2, 'email', 'gone', 1, decode(repeat('ab', 32), 'hex'))`, [
      '00000000-0000-4000-8000-00000000dead',
      scope.tenantId,
    ]);
    expect(await rotated.staleRows()).toBe(1);
    expect(await rotated.dropOrphans()).toBe(1);
    expect(await rotated.staleRows()).toBe(0);
    // Put the service's own key back for the other tests.
    const service_ = service.app.get(RequestIdentities);
    for (let next: string | null = null; ;) {
      const done = await service_.reindexBatch(next, 500);
      if (done.last === null) break;
      next = done.last;
    }
  });

  it('purges the index rows with the request, leaving nothing that links the person to the tenant', async () => {
    const scope = tenant();
    const operator = operatorOf(scope);
    const row = await registry.create(scope, access({ requestor: { type: 'subject', email: 'gone@example.org', phone: '+49 30 7654321' } }), now);
    expect(await rowsOf(row.id)).toHaveLength(2);
    await lifecycle.refuse(operator, row.id, { reason: 'other' });
    const purger = service.app.get(RequestRecordPurger);
    const cutoff = new Date(now.getTime() + 86_400_000);
    const [group] = await purger.due(scope.tenantId, cutoff, 10);
    expect(group.requestId).toBe(row.id);
    await service.app.get(UnitOfWork).run((tx) => purger.purge(tx, scope.tenantId, group, cutoff));
    expect(await rowsOf(row.id)).toEqual([]);
    const [left] = await ds.query(`SELECT count(*)::int AS n FROM ${qualifiedTable(ds, 'request_identities')} WHERE tenant_id = $1`, [scope.tenantId]);
    expect(left.n).toBe(0);
    expect(await byEmail(scope, 'gone@example.org')).toEqual([]);
  });

  it('confirms a duplicate of a request purged since with a notice that names no request', async () => {
    const scope = tenant();
    const operator = operatorOf(scope);
    const first = await registry.create(scope, access({ requestor: { type: 'subject', email: 'early@example.org' } }), now);
    const later = await registry.create(scope, access({ requestor: { type: 'subject', email: 'early@example.org' } }), now);
    await lifecycle.refuse(operator, first.id, { reason: 'other' });
    const purger = service.app.get(RequestRecordPurger);
    const cutoff = new Date(now.getTime() + 86_400_000);
    const [group] = await purger.due(scope.tenantId, cutoff, 10);
    await service.app.get(UnitOfWork).run((tx) => purger.purge(tx, scope.tenantId, group, cutoff));
    await lifecycle.resolveDuplicate(operator, later.id, { resolution: 'confirmed', reason: 'Same letter' });
    const transition = await lifecycle.transitionOf(scope, later.id, String((await registry.require(scope, later.id)).lastEventId));
    expect(String(transition.details.message)).toMatch(/^We will not act on your request because it repeats a request of yours that we are handling or have answered\./);
  });
});

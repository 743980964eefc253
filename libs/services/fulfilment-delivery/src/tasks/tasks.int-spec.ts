import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import type { DataSystemPut, Principal, RequestDetail } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { type HostConfig, type HostedService, hostService } from '@dsar/platform/host';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig, uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { DataSystems } from '../data-systems/application/data-systems';
import { fulfilmentDeliveryService } from '../index';
import { TaskFanout } from './application/task-fanout';
import { Tasks } from './application/tasks';
import { DataSystemTaskEntity } from './infrastructure/data-system-task.entity';
import { requestInProgress } from './task-test-kit';
import { RequestPurgedHandler } from './events/request-purged.handler';
import { RequestTasksHandler } from './events/request-tasks.handler';

/**
 * The task core on real PostgreSQL, where transactions really run side by side, and on embedded PGlite: one
 * transition fanned out twice at once makes one task per system (and the events of those only), two claims of one
 * task at once give it to one worker, and the answers, dependants and operator actions that follow.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite (embedded)', 'pglite'],
] as const)('data-system tasks on %s', (_name, driver) => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let fanout: TaskFanout;
  let tasks: Tasks;
  let systems: DataSystems;
  /** A stand-in for lifecycle-clock's GET /internal/v1/requests/{id}, answering with the requests it knows. */
  let lifecycle: Server;
  const known = new Map<string, RequestDetail>();
  const tenant = `t-${uniqueSuffix()}`;
  const admin: Principal = { id: 'key:tasks-test-admin', tenantId: tenant, roles: ['admin'] };
  const connector: Principal = { id: 'key:tasks-test-connector', tenantId: tenant, roles: ['connector'] };
  const stranger: Principal = { id: 'key:tasks-test-other', tenantId: `t-${uniqueSuffix()}`, roles: ['connector'] };

  const system = (over: Partial<DataSystemPut>): DataSystemPut => ({
    displayName: 'A system',
    owner: { email: 'owner@example.org' },
    actions: ['access', 'erasure'],
    identityTypes: ['email'],
    mode: 'pull',
    ...over,
  });

  const request = (over: Partial<RequestDetail> = {}): RequestDetail => requestInProgress(tenant, over);

  const tasksOf = async (requestId: string) => {
    const rows = await ds.getRepository(DataSystemTaskEntity).find({ where: { requestId } });
    return new Map(rows.map((t) => [t.systemKey, t]));
  };
  const eventsOf = async (requestId: string): Promise<Array<{ type: string; key: string }>> => {
    const rows: Array<{ event_type: string; partition_key: string }> = await ds.query(
      `SELECT event_type, partition_key FROM ${qualifiedTable(ds, 'outbox')} WHERE envelope ->> 'subject' = $1 ORDER BY id`,
      [requestId],
    );
    return rows.map((r) => ({ type: r.event_type, key: r.partition_key }));
  };
  const problemOf = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (e) {
      if (e instanceof ProblemError) return e.definition.name;
      throw e;
    }
    throw new Error('expected a problem');
  };

  beforeAll(async () => {
    lifecycle = createServer((req, res) => {
      const detail = known.get(decodeURIComponent((req.url ?? '').split('/').pop() ?? ''));
      res.writeHead(detail ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(detail ?? { type: 'about:blank', title: 'Resource not found', status: 404, code: 'SVC-BE-1002', name: 'RESOURCE_NOT_FOUND' }));
    });
    // Idle connections stay open for the whole file: Node closes them after 5 s by default, and a fan-out that reuses
    // one just as it closes fails its read and waits for its retry, past the test's drain (a slow, busy machine).
    lifecycle.keepAliveTimeout = 600_000;
    await new Promise<void>((resolve) => lifecycle.listen(0, '127.0.0.1', resolve));
    let config: HostConfig;
    if (driver === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      config = testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 10 });
    } else {
      config = testHostConfig({ DATA_DIR: `memory://tasks-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' });
    }
    service = await hostService(fulfilmentDeliveryService, config, {
      upstreams: { 'lifecycle-clock': `http://127.0.0.1:${(lifecycle.address() as AddressInfo).port}` },
    });
    ds = service.app.get(UnitOfWork).dataSource;
    fanout = service.app.get(TaskFanout);
    tasks = service.app.get(Tasks);
    systems = service.app.get(DataSystems);
    // crm first; the warehouse after it; billing looks people up by account id only.
    await systems.put(admin, tenant, 'crm', system({ mode: 'push' }));
    await systems.put(admin, tenant, 'warehouse', system({ after: ['crm'] }));
    await systems.put(admin, tenant, 'billing', system({ identityTypes: ['account_id'], mode: 'manual' }));
    await systems.put(admin, tenant, 'marketing', system({ actions: ['opt_out'] }));
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    lifecycle?.close();
    await drop?.();
  });

  it('makes one task per system when one transition is fanned out twice at once, with the events of those only', async () => {
    const detail = request();
    const runs = await Promise.all([fanout.fanOut(detail), fanout.fanOut(detail), fanout.fanOut(detail)]);
    expect(runs.map((r) => r.length).sort()).toEqual([0, 0, 3]);
    const made = await tasksOf(detail.id);
    expect([...made.keys()].sort()).toEqual(['billing', 'crm', 'warehouse']);
    expect(made.get('crm')).toMatchObject({ state: 'queued', action: 'access', mode: 'push', identities: [{ type: 'email', value: 'jane@example.org' }], dependsOn: [] });
    expect(made.get('warehouse')).toMatchObject({ state: 'waiting', dependsOn: [made.get('crm')?.id] });
    expect(made.get('billing')).toMatchObject({ state: 'skipped', stateReason: 'no_identity', identities: [] });
    // The waiting task is told too (state `waiting`): the queue counts it; connectors claim only a queued one.
    expect(await eventsOf(detail.id)).toEqual([
      { type: 'dsar.task.stopped.v1', key: `${tenant}:billing` },
      { type: 'dsar.task.requested.v1', key: `${tenant}:crm` },
      { type: 'dsar.task.requested.v1', key: `${tenant}:warehouse` },
    ]);
    // Fanned out again later (a redelivered event): nothing new.
    expect(await fanout.fanOut(detail)).toEqual([]);
    expect(await eventsOf(detail.id)).toHaveLength(3);
  }, 30_000);

  it('fans a request in triage out once a correction names its type, not before', async () => {
    const triaged = request({ requestType: null, triage: { reason: 'no_rule_matched', suggestedType: null, confidence: 0 } });
    expect(await problemOf(fanout.fanOut(triaged))).toBe('REQUEST_IN_TRIAGE');
    // Acknowledged while in triage: in progress, and its fan-out ends without tasks.
    known.set(triaged.id, triaged);
    const handler = service.app.get(RequestTasksHandler);
    const move = { requestId: triaged.id, tenantId: tenant, workspaceId: null, actor: 'key:operator', fromStatus: 'received', status: 'in_progress' };
    await handler.onMove({ type: 'dsar.request.acknowledged.v1', data: move } as unknown as Parameters<RequestTasksHandler['onMove']>[0]);
    await fanout.drain();
    expect(await tasksOf(triaged.id)).toEqual(new Map());
    expect(await eventsOf(triaged.id)).toEqual([]);
    const fanoutState = async () => ((await ds.query(`SELECT state FROM ${qualifiedTable(ds, 'data_system_fanout')} WHERE request_id = $1`, [triaged.id])) as Array<{ state: string }>)[0]?.state;
    expect(await fanoutState()).toBe('done');

    // A correction of the jurisdiction only leaves it in triage: nothing yet.
    const corrected = (data: Record<string, unknown>) =>
      ({ type: 'dsar.request.corrected.v1', data: { ...move, fromStatus: 'in_progress', ...data } }) as unknown as Parameters<RequestTasksHandler['onCorrected']>[0];
    await handler.onCorrected(corrected({ previousRequestType: null, requestType: null }));
    expect(await fanoutState()).toBe('done');

    // The operator names the type: the fan-out is asked again, and made.
    known.set(triaged.id, { ...triaged, requestType: 'access', triage: null });
    await handler.onCorrected(corrected({ previousRequestType: null, requestType: 'access' }));
    expect(await fanoutState()).toBe('pending');
    await fanout.drain();
    expect([...(await tasksOf(triaged.id)).keys()].sort()).toEqual(['billing', 'crm', 'warehouse']);

    // A later correction of a typed request changes no task.
    await handler.onCorrected(corrected({ previousRequestType: 'access', requestType: 'deletion' }));
    expect(await fanoutState()).toBe('done');
  }, 30_000);

  it('holds the fan-out of a request marked as a duplicate until an operator separates it', async () => {
    const duplicate = request({ duplicate: { of: randomUUID(), state: 'marked', markedAt: new Date().toISOString(), matchedKinds: ['email'] } });
    known.set(duplicate.id, duplicate);
    const handler = service.app.get(RequestTasksHandler);
    const move = { requestId: duplicate.id, tenantId: tenant, workspaceId: null, actor: 'key:operator', fromStatus: 'received', status: 'in_progress' };
    await handler.onMove({ type: 'dsar.request.acknowledged.v1', data: move } as unknown as Parameters<RequestTasksHandler['onMove']>[0]);
    await fanout.drain();
    expect(await tasksOf(duplicate.id)).toEqual(new Map());
    const fanoutState = async () => ((await ds.query(`SELECT state FROM ${qualifiedTable(ds, 'data_system_fanout')} WHERE request_id = $1`, [duplicate.id])) as Array<{ state: string }>)[0]?.state;
    expect(await fanoutState()).toBe('done');

    const decided = (resolution: string) =>
      ({ type: 'dsar.request.duplicate_resolved.v1', data: { ...move, fromStatus: 'in_progress', resolution, duplicateOf: duplicate.duplicate?.of, reason: 'checked' } }) as unknown as Parameters<
        RequestTasksHandler['onDuplicateResolved']
      >[0];
    // A confirmation refuses the request in the same step: nothing to ask.
    await handler.onDuplicateResolved(decided('confirmed'));
    expect(await fanoutState()).toBe('done');
    // Separated: a request of its own, fanned out now.
    known.set(duplicate.id, { ...duplicate, duplicate: { ...duplicate.duplicate!, state: 'separated' } });
    await handler.onDuplicateResolved(decided('separated'));
    expect(await fanoutState()).toBe('pending');
    await fanout.drain();
    expect([...(await tasksOf(duplicate.id)).keys()].sort()).toEqual(['billing', 'crm', 'warehouse']);
  }, 30_000);

  it('gives a task to one of two workers claiming it at once, then takes only its token', async () => {
    const detail = request();
    await fanout.fanOut(detail);
    const crm = (await tasksOf(detail.id)).get('crm') as DataSystemTaskEntity;
    const claims = await Promise.allSettled([tasks.claim(connector, crm.id, { worker: 'a' }), tasks.claim(connector, crm.id, { worker: 'b' })]);
    const won = claims.filter((c) => c.status === 'fulfilled');
    const lost = claims.filter((c): c is PromiseRejectedResult => c.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((c) => (c.reason as ProblemError).definition.name)).toEqual(['TASK_NOT_CLAIMABLE']);
    const work = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Tasks['claim']>>>).value;
    expect(work).toMatchObject({ taskId: crm.id, attempt: 1, identities: [{ type: 'email', value: 'jane@example.org' }] });
    expect(work.token).toMatch(/^dtt_/);
    const stored = await ds.getRepository(DataSystemTaskEntity).findOneByOrFail({ id: crm.id });
    expect(stored.tokenSha256).not.toContain(work.token);
    expect(JSON.stringify(await ds.query(`SELECT envelope FROM ${qualifiedTable(ds, 'outbox')}`))).not.toContain(work.token);

    // Wrong, missing and other tenants' calls change nothing.
    expect(await problemOf(tasks.answer(connector, crm.id, 'dtt_' + 'x'.repeat(43), { outcome: 'complete' }))).toBe('TASK_TOKEN_INVALID');
    expect(await problemOf(tasks.answer(connector, crm.id, undefined, { outcome: 'complete' }))).toBe('TASK_TOKEN_INVALID');
    expect(await problemOf(tasks.answer(stranger, crm.id, work.token, { outcome: 'complete' }))).toBe('TASK_NOT_FOUND');
    expect(await problemOf(tasks.answer(connector, randomUUID(), work.token, { outcome: 'complete' }))).toBe('TASK_NOT_FOUND');
    expect(await problemOf(tasks.heartbeat(connector, crm.id, undefined, {}))).toBe('TASK_TOKEN_INVALID');
    const lease = await tasks.heartbeat(connector, crm.id, work.token, { leaseSeconds: 600 });
    expect(new Date(lease.leaseExpiresAt).getTime()).toBeGreaterThan(new Date(work.leaseExpiresAt).getTime());

    // The answer finishes the task and starts the warehouse after it; the same answer again changes nothing.
    const view = await tasks.answer(connector, crm.id, work.token, { outcome: 'not_found', note: 'no such customer' });
    expect(view).toMatchObject({ state: 'not_found', answeredBy: connector.id, leaseExpiresAt: null });
    expect(await tasks.answer(connector, crm.id, work.token, { note: 'no such customer', outcome: 'not_found' })).toEqual(view);
    expect(await problemOf(tasks.answer(connector, crm.id, work.token, { outcome: 'complete' }))).toBe('TASK_ALREADY_ANSWERED');
    expect((await tasksOf(detail.id)).get('warehouse')?.state).toBe('queued');
    expect((await eventsOf(detail.id)).map((e) => e.type)).toEqual([
      'dsar.task.stopped.v1',
      'dsar.task.requested.v1',
      'dsar.task.requested.v1',
      'dsar.task.claimed.v1',
      'dsar.task.answered.v1',
      'dsar.task.requested.v1',
    ]);
    // The pull list shows the warehouse's task now, without identities.
    const pending = await tasks.pending(tenant, 'warehouse', 100);
    expect(pending.items.filter((p) => p.requestId === detail.id)).toEqual([expect.objectContaining({ attempt: 0, action: 'access' })]);
    expect(await problemOf(tasks.pending(tenant, 'nope', 10))).toBe('DATA_SYSTEM_NOT_FOUND');
  }, 30_000);

  it("blocks the tasks after a failed one, retries it on an operator's word, and cancels open tasks when the request closes", async () => {
    const detail = request({ requestType: 'deletion' });
    await fanout.fanOut(detail);
    const crm = (await tasksOf(detail.id)).get('crm') as DataSystemTaskEntity;
    expect(crm.action).toBe('erasure');
    const work = await tasks.claim(connector, crm.id, { worker: 'a' });
    // An erasure completes with its confirmation only.
    expect(await problemOf(tasks.answer(connector, crm.id, work.token, { outcome: 'complete' }))).toBe('TASK_ANSWER_INVALID');
    // A retryable error queues it again while attempts are left; a fatal one fails it and blocks the warehouse.
    expect((await tasks.answer(connector, crm.id, work.token, { outcome: 'error', retryable: true, message: 'db away' })).state).toBe('queued');
    const again = await tasks.claim(connector, crm.id, { worker: 'a' });
    expect(again.attempt).toBe(2);
    expect(await problemOf(tasks.answer(connector, crm.id, work.token, { outcome: 'not_found' }))).toBe('TASK_TOKEN_INVALID');
    expect((await tasks.answer(connector, crm.id, again.token, { outcome: 'error', retryable: false, message: 'schema mismatch', code: 'E42' })).state).toBe('error');
    let made = await tasksOf(detail.id);
    expect(made.get('warehouse')).toMatchObject({ state: 'blocked', blockedBy: crm.id });

    // A settled task is not skipped again.
    expect(await problemOf(tasks.skip(admin, detail.id, made.get('billing')?.id as string, { reason: 'again' }))).toBe('TASK_STATE_CONFLICT');
    expect(await problemOf(tasks.skip(admin, randomUUID(), crm.id, { reason: 'x' }))).toBe('TASK_NOT_FOUND');
    const retried = await tasks.retry(admin, detail.id, crm.id, { reason: 'schema fixed' });
    expect(retried).toMatchObject({ state: 'queued', attempts: 0, answer: null });
    made = await tasksOf(detail.id);
    expect(made.get('warehouse')).toMatchObject({ state: 'waiting', blockedBy: null });
    expect(await problemOf(tasks.retry(admin, detail.id, crm.id, {}))).toBe('TASK_STATE_CONFLICT');

    // Settled by hand with evidence: the warehouse starts.
    const erasure = { result: 'erased' as const, recordsAffected: 2, categoriesErased: ['contact'], method: 'delete' as const, performedBy: 'dba', performedAt: new Date().toISOString() };
    expect(await problemOf(tasks.complete(admin, detail.id, crm.id, { outcome: 'complete', evidence: 'ticket 7' }))).toBe('TASK_ANSWER_INVALID');
    expect(await tasks.complete(admin, detail.id, crm.id, { outcome: 'complete', evidence: 'ticket 7', erasure })).toMatchObject({ state: 'complete', answeredBy: admin.id });
    made = await tasksOf(detail.id);
    expect(made.get('warehouse')?.state).toBe('queued');
    expect((await tasks.openRequired(ds.manager, detail.id)).map((t) => t.systemKey)).toEqual(['warehouse']);

    // The request closes: the open task is cancelled, its fan-out too.
    expect(await ds.transaction((tx) => fanout.cancel(tx, tenant, null, detail.id, 'key:operator'))).toBe(1);
    made = await tasksOf(detail.id);
    expect(made.get('warehouse')).toMatchObject({ state: 'cancelled', stateReason: 'request_closed' });
    expect(await tasks.openRequired(ds.manager, detail.id)).toEqual([]);
    expect(await fanout.fanOut(detail)).toEqual([]);
    const view = await tasks.forRequest({ tenantId: tenant }, detail.id);
    expect(view.items.map((t) => [t.systemKey, t.state])).toEqual([
      ['billing', 'skipped'],
      ['crm', 'complete'],
      ['warehouse', 'cancelled'],
    ]);
  }, 30_000);

  it('fails a task whose attempts are spent at its next claim', async () => {
    const detail = request();
    await fanout.fanOut(detail);
    const crm = (await tasksOf(detail.id)).get('crm') as DataSystemTaskEntity;
    await ds.getRepository(DataSystemTaskEntity).update({ id: crm.id }, { attempts: crm.maxAttempts });
    expect(await problemOf(tasks.claim(connector, crm.id, { worker: 'a' }))).toBe('TASK_NOT_CLAIMABLE');
    const made = await tasksOf(detail.id);
    expect(made.get('crm')).toMatchObject({ state: 'error', stateReason: 'attempts_exhausted' });
    expect(made.get('warehouse')).toMatchObject({ state: 'blocked', blockedBy: crm.id });
  }, 30_000);

  it("fans a request out from its move into in_progress, read from lifecycle-clock after the event's transaction, and cancels on its closure", async () => {
    const handler = service.app.get(RequestTasksHandler);
    const move = (detail: RequestDetail, type: string, fromStatus: string, status: string) =>
      ({
        type,
        data: { requestId: detail.id, tenantId: tenant, workspaceId: null, actor: 'key:operator', fromStatus, status },
      }) as unknown as Parameters<RequestTasksHandler['onMove']>[0];
    const detail = request();
    known.set(detail.id, detail);
    // Not a move into in_progress: nothing asked.
    await handler.onMove(move(detail, 'dsar.request.verification_requested.v1', 'received', 'verification_pending'));
    await fanout.drain();
    expect(await tasksOf(detail.id)).toEqual(new Map());
    // Verified: the fan-out reads the request and makes its tasks; the same event again makes none.
    await handler.onMove(move(detail, 'dsar.request.verified.v1', 'verification_pending', 'in_progress'));
    await fanout.drain();
    expect([...(await tasksOf(detail.id)).keys()].sort()).toEqual(['billing', 'crm', 'warehouse']);
    await handler.onMove(move(detail, 'dsar.request.verified.v1', 'verification_pending', 'in_progress'));
    await fanout.drain();
    expect(await eventsOf(detail.id)).toHaveLength(3);
    // A request that left in_progress before its fan-out ran gets none; an unknown one neither, and the job goes on.
    const moved = request();
    known.set(moved.id, { ...moved, status: 'verification_pending' });
    await handler.onMove(move(moved, 'dsar.request.acknowledged.v1', 'received', 'in_progress'));
    const unknown = request();
    await handler.onMove(move(unknown, 'dsar.request.acknowledged.v1', 'received', 'in_progress'));
    await fanout.drain();
    expect(await tasksOf(moved.id)).toEqual(new Map());
    expect(await tasksOf(unknown.id)).toEqual(new Map());
    const pending: unknown[] = await ds.query(`SELECT 1 FROM ${qualifiedTable(ds, 'data_system_fanout')} WHERE state = 'pending'`);
    expect(pending).toEqual([]);
    // Without a drain: the commit of the event's transaction starts the fan-out (the schedule is 30 s away).
    const kicked = request();
    known.set(kicked.id, kicked);
    await handler.onMove(move(kicked, 'dsar.request.clarification_received.v1', 'clarification_pending', 'in_progress'));
    await waitFor('the fan-out kicked by the commit', async () => (await tasksOf(kicked.id)).size === 3, { timeoutMs: 5000 });
    // Refused: the open tasks are cancelled.
    await handler.onMove(move(detail, 'dsar.request.refused.v1', 'in_progress', 'refused'));
    const made = await tasksOf(detail.id);
    expect([made.get('crm')?.state, made.get('warehouse')?.state, made.get('billing')?.state]).toEqual(['cancelled', 'cancelled', 'skipped']);
    // Reopened on appeal: the cancelled tasks start afresh, once.
    await handler.onMove(move(detail, 'dsar.request.reopened.v1', 'refused', 'in_progress'));
    await fanout.drain();
    await handler.onMove(move(detail, 'dsar.request.reopened.v1', 'refused', 'in_progress'));
    await fanout.drain();
    const reopened = await tasksOf(detail.id);
    expect([reopened.get('crm')?.state, reopened.get('warehouse')?.state, reopened.get('billing')?.state]).toEqual(['queued', 'waiting', 'skipped']);
    expect(reopened.get('crm')).toMatchObject({ id: made.get('crm')?.id, stateReason: null, attempts: 0 });
    // Requested twice per open task (crm queued, warehouse waiting): at the fan-out, and at the one restart.
    expect((await eventsOf(detail.id)).filter((e) => e.type === 'dsar.task.requested.v1')).toHaveLength(4);
  }, 30_000);

  it("drops the identities of a request's tasks when retention purges the request's record, and keeps the tasks", async () => {
    const detail = request();
    known.set(detail.id, detail);
    await fanout.fanOut(detail);
    expect([...(await tasksOf(detail.id)).values()].some((t) => t.identities.length > 0)).toBe(true);
    const purged = (requestId: string, retentionClass: string) =>
      ({
        type: 'dsar.retention.purged.v1',
        data: { tenantId: tenant, requestId, workspaceId: null, class: retentionClass, recordIds: [requestId], records: 1, files: 0 },
      }) as unknown as Parameters<RequestPurgedHandler['onPurged']>[0];
    const handler = service.app.get(RequestPurgedHandler);
    // Another class purges something else: the identities stay.
    await handler.onPurged(purged(detail.id, 'delivery_log'));
    expect([...(await tasksOf(detail.id)).values()].some((t) => t.identities.length > 0)).toBe(true);
    await handler.onPurged(purged(detail.id, 'request_record'));
    const after = await tasksOf(detail.id);
    expect(after.size).toBe(3);
    expect([...after.values()].map((t) => t.identities)).toEqual([[], [], []]);
  }, 30_000);
});

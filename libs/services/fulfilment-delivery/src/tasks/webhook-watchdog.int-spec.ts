import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type DataSystemPut, type Principal, type RequestDetail, TASK_TOKEN_PATTERN, type TaskWork } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { type HostedService, hostService } from '@dsar/platform/host';
import { verifyDelivery, webhookSecretKey } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { EncryptedStorage, MemoryBlobStore, StorageModule } from '@dsar/platform/storage';
import { createTestDatabase, testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { dataSystemSettingsProvider, DataSystems } from '../data-systems';
import { deliverySettingsProvider } from '../delivery';
import { fulfilmentSettingsProviders } from '../fulfilment';
import { ArtifactEntity } from '../fulfilment/infrastructure/artifact.entity';
import { Fulfilments } from '../fulfilment/application/fulfilments';
import { Manifests } from '../fulfilment/application/manifests';
import { fulfilmentDeliveryServiceWith } from '../index';
import { TaskFanout } from './application/task-fanout';
import { TaskFiles } from './application/task-files';
import { TaskWatchdog } from './application/task-watchdog';
import { Tasks } from './application/tasks';
import { WebhookSender } from './application/webhook-sender';
import { requestInProgress } from './task-test-kit';
import { DataSystemTaskEntity } from './infrastructure/data-system-task.entity';

/** One call a webhook system received, as it received it. */
interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  verdict: ReturnType<typeof verifyDelivery>;
}

/**
 * The webhook sender, the watchdog, the access answers as files and the fulfilment gate on real PostgreSQL, with a
 * real HTTP server (node:http) as the webhook systems, which checks every call's signature with the shared
 * Standard Webhooks verifier, and another as lifecycle-clock (the request and its fulfilment).
 */
describe('webhook sender, watchdog, task files and the fulfilment gate on PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let fanout: TaskFanout;
  let tasks: Tasks;
  let sender: WebhookSender;
  let watchdog: TaskWatchdog;
  let files: TaskFiles;
  let hooks: Server;
  let lifecycle: Server;
  let warnings: jest.SpyInstance;
  const received: Received[] = [];
  const requests = new Map<string, RequestDetail>();
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const tenant = `t-${uniqueSuffix()}`;
  const admin: Principal = { id: 'key:h3-admin', tenantId: tenant, roles: ['admin'] };
  const operator: Principal = { id: 'key:h3-operator', tenantId: tenant, roles: ['operator'] };
  const connector: Principal = { id: 'key:h3-connector', tenantId: tenant, roles: ['connector'] };

  const listen = async (server: Server): Promise<string> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const bodyOf = async (req: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  const json = (res: ServerResponse, status: number, value?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(value === undefined ? '' : JSON.stringify(value));
  };

  const system = (over: Partial<DataSystemPut>): DataSystemPut => ({
    displayName: 'A system',
    owner: { email: 'owner@example.org' },
    actions: ['access'],
    identityTypes: ['email'],
    mode: 'pull',
    ...over,
  });
  const request = (over: Partial<RequestDetail> = {}): RequestDetail => {
    const detail = requestInProgress(tenant, over);
    requests.set(detail.id, detail);
    return detail;
  };
  const taskOf = async (requestId: string, systemKey: string): Promise<DataSystemTaskEntity> => ds.getRepository(DataSystemTaskEntity).findOneOrFail({ where: { requestId, systemKey } });
  const eventsOf = async (requestId: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> => {
    const rows: Array<{ event_type: string; envelope: { data: Record<string, unknown> } }> = await ds.query(
      `SELECT event_type, envelope FROM ${qualifiedTable(ds, 'outbox')} WHERE envelope ->> 'subject' = $1 ORDER BY id`,
      [requestId],
    );
    return rows.map((r) => ({ type: r.event_type, data: r.envelope.data }));
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
  const setTask = (id: string, sql: string) => ds.query(`UPDATE ${qualifiedTable(ds, 'data_system_task')} SET ${sql} WHERE id = $1`, [id]);
  const callsFor = (taskId: string) => received.filter((r) => (JSON.parse(r.body.toString('utf8')) as { data: TaskWork }).data.taskId === taskId);

  beforeAll(async () => {
    // The webhook systems: /fail-once answers 500 to a task's first call and its answer to the next; /later answers 202.
    hooks = createServer((req, res) => {
      void bodyOf(req).then((body) => {
        const verdict = verifyDelivery(
          [webhookSecretKey(secret)],
          { id: req.headers['webhook-id'] as string, timestamp: req.headers['webhook-timestamp'] as string, signature: req.headers['webhook-signature'] as string },
          body,
          Math.floor(Date.now() / 1000),
        );
        const call: Received = { path: req.url ?? '', headers: req.headers, body, verdict };
        received.push(call);
        const taskId = (JSON.parse(body.toString('utf8')) as { data: TaskWork }).data.taskId;
        if (req.url === '/later') return json(res, 202);
        if (req.url === '/broken') return json(res, 503);
        if (callsFor(taskId).length === 1) return json(res, 500, { error: 'jane@example.org is not here yet' });
        return json(res, 200, { outcome: 'not_found', note: 'no such customer' });
      });
    });
    // lifecycle-clock: the requests of this test, and their fulfilment.
    lifecycle = createServer((req, res) => {
      void bodyOf(req).then(() => {
        const m = /^\/internal\/v1\/requests\/([0-9a-f-]{36})(\/lifecycle\/fulfilled)?$/.exec(req.url ?? '');
        const detail = m ? requests.get(m[1]) : undefined;
        if (!detail) return json(res, 404, { type: 'about:blank', title: 'Not found', status: 404, code: 'SVC-BE-1001', name: 'RESOURCE_NOT_FOUND' });
        if (req.method === 'GET') return json(res, 200, detail);
        requests.set(detail.id, { ...detail, status: 'fulfilled' });
        return json(res, 202, { id: detail.id, status: 'fulfilled', dueAt: detail.dueAt });
      });
    });
    const hooksUrl = await listen(hooks);
    const lifecycleUrl = await listen(lifecycle);
    const db = await createTestDatabase();
    drop = db.drop;
    const definition = fulfilmentDeliveryServiceWith(
      [
        ...fulfilmentSettingsProviders({}),
        deliverySettingsProvider({}),
        // The watchdog runs when the test says (its interval is a day); http is allowed for the local webhook server.
        dataSystemSettingsProvider({ DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: true, DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: 5000, TASK_WATCHDOG_INTERVAL_MS: 86_400_000 }),
      ],
      StorageModule.forRoot({ storage: new EncryptedStorage(new MemoryBlobStore(), randomBytes(32)) }),
    );
    service = await hostService(definition, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 10 }), {
      upstreams: { 'lifecycle-clock': lifecycleUrl },
    });
    ds = service.app.get(UnitOfWork).dataSource;
    fanout = service.app.get(TaskFanout);
    tasks = service.app.get(Tasks);
    sender = service.app.get(WebhookSender);
    watchdog = service.app.get(TaskWatchdog);
    files = service.app.get(TaskFiles);
    const systems = service.app.get(DataSystems);
    warnings = jest.spyOn(Logger.prototype, 'warn');
    await systems.put(admin, tenant, 'hooks', system({ displayName: 'Hooks', mode: 'webhook', webhook: { url: `${hooksUrl}/fail-once?sig=keep-me-secret`, secret } }));
    await systems.put(admin, tenant, 'later', system({ displayName: 'Later', mode: 'webhook', webhook: { url: `${hooksUrl}/later`, secret } }));
    await systems.put(admin, tenant, 'files', system({ displayName: 'Files', actions: ['access', 'erasure'], sla: { expectedHours: 72, timeoutHours: 168, onTimeout: 'skip' } }));
  }, 60_000);

  afterAll(async () => {
    warnings?.mockRestore();
    await service?.close();
    await drop?.();
    await new Promise((resolve) => hooks?.close(resolve));
    await new Promise((resolve) => lifecycle?.close(resolve));
  });

  it('calls a webhook system signed, requeues with backoff after its 500, and is answered once by its 200 though two rounds run at once', async () => {
    const detail = request();
    await fanout.fanOut(detail);
    const task = await taskOf(detail.id, 'hooks');
    expect(task).toMatchObject({ mode: 'webhook', state: 'queued', attempts: 0 });

    expect(await sender.round()).toMatchObject({ failed: 1 });
    const afterFailure = await taskOf(detail.id, 'hooks');
    expect(afterFailure).toMatchObject({ state: 'queued', attempts: 1, claimedBy: null, lastError: { code: 'webhook_failed', retryable: true } });
    expect(afterFailure.lastError?.message).toContain('HTTP 500');
    expect(afterFailure.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // Backing off: the next round does not call.
    await sender.round();
    expect(callsFor(task.id)).toHaveLength(1);

    await setTask(task.id, `next_attempt_at = now() - interval '1 second'`);
    // Two replicas' rounds at once: one claim, one call, one answer.
    await Promise.all([sender.round(), sender.round()]);
    await sender.round();
    const calls = callsFor(task.id);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.verdict)).toEqual([undefined, undefined]);
    expect(calls.map((c) => c.headers['webhook-id'])).toEqual([`${task.id}.1`, `${task.id}.2`]);
    const bodies = calls.map((c) => JSON.parse(c.body.toString('utf8')) as { type: string; data: TaskWork });
    expect(bodies[1]).toMatchObject({
      type: 'dsar.task.requested',
      data: { taskId: task.id, requestId: detail.id, systemKey: 'hooks', action: 'access', attempt: 2, identities: [{ type: 'email', value: 'jane@example.org' }] },
    });
    expect(bodies.every((b) => TASK_TOKEN_PATTERN.test(b.data.token))).toBe(true);
    expect(bodies[0].data.token).not.toBe(bodies[1].data.token);

    expect(await taskOf(detail.id, 'hooks')).toMatchObject({ state: 'not_found', attempts: 2, answeredBy: 'webhook:hooks', outcome: { outcome: 'not_found', note: 'no such customer' } });
    const events = (await eventsOf(detail.id)).filter((e) => e.data.systemKey === 'hooks');
    expect(events.map((e) => e.type)).toEqual(['dsar.task.requested.v1', 'dsar.task.claimed.v1', 'dsar.task.requeued.v1', 'dsar.task.claimed.v1', 'dsar.task.answered.v1']);
    expect(events[2].data).toMatchObject({ reason: 'webhook_failed' });
    // Neither the token, the secret, the URL's query nor the system's words reach a log line or an event.
    const logged = JSON.stringify(warnings.mock.calls) + JSON.stringify(events);
    for (const secretText of [...bodies.map((b) => b.data.token), secret, 'keep-me-secret', 'jane@example.org']) expect(logged).not.toContain(secretText);
  }, 30_000);

  it('keeps a task claimed until its timeout after a 202, for the system to answer later with its token', async () => {
    const detail = request();
    await fanout.fanOut(detail);
    const task = await taskOf(detail.id, 'later');
    expect(await sender.round()).toMatchObject({ accepted: 1 });
    const held = await taskOf(detail.id, 'later');
    expect(held).toMatchObject({ state: 'claimed', claimedBy: 'webhook' });
    expect(held.leaseExpiresAt).toEqual(held.timeoutAt);
    // The lease holds: the watchdog leaves it claimed, and no second call goes out.
    await watchdog.sweep();
    expect((await taskOf(detail.id, 'later')).state).toBe('claimed');
    expect(callsFor(task.id)).toHaveLength(1);
    const { data } = JSON.parse(callsFor(task.id)[0].body.toString('utf8')) as { data: TaskWork };
    expect((await tasks.answer(connector, task.id, data.token, { outcome: 'complete', note: 'sent by mail' })).state).toBe('complete');
  }, 30_000);

  it('does not call a webhook system that was paused after its task was queued', async () => {
    const systems = service.app.get(DataSystems);
    const url = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/later`;
    await systems.put(admin, tenant, 'resting', system({ displayName: 'Resting', mode: 'webhook', webhook: { url, secret } }));
    const detail = request();
    await fanout.fanOut(detail);
    const task = await taskOf(detail.id, 'resting');
    expect(task.state).toBe('queued');
    await systems.put(admin, tenant, 'resting', system({ displayName: 'Resting', mode: 'webhook', webhook: { url, secret }, paused: true }));
    await sender.round();
    expect(callsFor(task.id)).toHaveLength(0);
    expect(await taskOf(detail.id, 'resting')).toMatchObject({ state: 'queued', attempts: 0 });
    await systems.delete(admin, tenant, 'resting');
  }, 30_000);

  it('fails a webhook task whose calls keep failing once its attempts are spent', async () => {
    const systems = service.app.get(DataSystems);
    const url = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/broken`;
    await systems.put(admin, tenant, 'broken', system({ displayName: 'Broken', mode: 'webhook', webhook: { url, secret } }));
    const detail = request();
    await fanout.fanOut(detail);
    const task = await taskOf(detail.id, 'broken');
    await setTask(task.id, 'max_attempts = 2');
    await sender.round();
    expect(await taskOf(detail.id, 'broken')).toMatchObject({ state: 'queued', attempts: 1 });
    await setTask(task.id, `next_attempt_at = now() - interval '1 second'`);
    await sender.round();
    expect(await taskOf(detail.id, 'broken')).toMatchObject({ state: 'error', attempts: 2, stateReason: 'attempts_exhausted', lastError: { code: 'webhook_failed' } });
    await sender.round();
    expect(callsFor(task.id)).toHaveLength(2);
    await systems.delete(admin, tenant, 'broken');
  }, 30_000);

  it('requeues a lapsed lease, reminds once, escalates once and times out as the SLA says; a deleted system goes to an operator', async () => {
    const detail = request();
    await fanout.fanOut(detail);
    const task = await taskOf(detail.id, 'files');
    await tasks.claim(connector, task.id, { worker: 'w1', leaseSeconds: 30 });
    await setTask(task.id, `lease_expires_at = now() - interval '1 second'`);
    expect((await watchdog.sweep()).requeued).toBeGreaterThanOrEqual(1);
    expect(await taskOf(detail.id, 'files')).toMatchObject({ state: 'queued', claimedBy: null, leaseExpiresAt: null });

    await setTask(task.id, `due_at = now() - interval '1 hour'`);
    await watchdog.sweep();
    await watchdog.sweep();
    await setTask(task.id, `due_at = now() - interval '25 hours'`);
    await watchdog.sweep();
    await watchdog.sweep();
    const stages = (await eventsOf(detail.id)).filter((e) => e.type === 'dsar.task.overdue.v1' && e.data.taskId === task.id).map((e) => e.data.stage);
    expect(stages).toEqual(['reminder', 'escalation']);
    expect((await eventsOf(detail.id)).filter((e) => e.type === 'dsar.task.requeued.v1' && e.data.taskId === task.id).map((e) => e.data.reason)).toEqual(['lease_expired']);

    await setTask(task.id, `timeout_at = now() - interval '1 second'`);
    await watchdog.sweep();
    expect(await taskOf(detail.id, 'files')).toMatchObject({ state: 'skipped', stateReason: 'timed_out', outcome: { outcome: 'skipped', reason: 'timed_out' } });

    // A system deleted while its task is open: an operator decides.
    const systems = service.app.get(DataSystems);
    await systems.put(admin, tenant, 'doomed', system({ displayName: 'Doomed' }));
    const late = request();
    await fanout.fanOut(late);
    await systems.delete(admin, tenant, 'doomed');
    await watchdog.sweep();
    expect(await taskOf(late.id, 'doomed')).toMatchObject({ state: 'action_required', stateReason: 'system_deleted' });
    expect((await eventsOf(late.id)).filter((e) => e.type === 'dsar.task.stopped.v1').map((e) => e.data)).toEqual([expect.objectContaining({ systemKey: 'doomed', reason: 'system_deleted' })]);
  }, 30_000);

  it("stores an access task's files and rows on the manifest with their system, refusing a wrong sha256, another action and a bad token", async () => {
    const detail = request();
    await fanout.fanOut(detail);
    const task = await taskOf(detail.id, 'files');
    const work = await tasks.claim(connector, task.id, { worker: 'w1' });
    const bytes = Buffer.from('customer,orders\njane,3\n', 'utf8');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const headers = { filename: 'customers.csv', contentType: 'text/csv', contentLength: String(bytes.length) };

    expect(await problemOf(files.file(connector, task.id, work.token, headers, 'f'.repeat(64), Readable.from([bytes])))).toBe('TASK_ANSWER_INVALID');
    expect(await ds.getRepository(ArtifactEntity).count({ where: { requestId: detail.id } })).toBe(0);
    expect(await problemOf(files.file(connector, task.id, `dtt_${'x'.repeat(43)}`, headers, undefined, Readable.from([bytes])))).toBe('TASK_TOKEN_INVALID');

    const stored = await files.file(connector, task.id, work.token, headers, sha256, Readable.from([bytes]));
    expect(stored).toMatchObject({ taskId: task.id, size: bytes.length, sha256 });
    const rows = await files.rows(connector, task.id, work.token, { category: 'orders', rows: [{ id: 1, total: 12.5 }] });
    const artifacts = await ds.getRepository(ArtifactEntity).find({ where: { requestId: detail.id } });
    expect(artifacts.map((a) => [a.id, a.systemKey, a.taskId]).sort()).toEqual(
      [
        [stored.artifactId, 'files', task.id],
        [rows.artifactId, 'files', task.id],
      ].sort(),
    );
    expect(artifacts.find((a) => a.id === rows.artifactId)).toMatchObject({ filename: 'files-orders.json', title: 'orders', dataCategories: ['orders'] });

    await tasks.answer(connector, task.id, work.token, { outcome: 'complete' });
    expect(await problemOf(files.rows(connector, task.id, work.token, { rows: [{ late: true }] }))).toBe('TASK_NOT_CLAIMABLE');
    const manifest = await service.app.get(Manifests).view(tenant, detail.id);
    expect(manifest.artifacts.map((a) => a.systemKey)).toEqual(['files', 'files']);
    expect(manifest.systems.find((s) => s.systemKey === 'files')).toEqual({
      systemKey: 'files',
      displayName: 'Files',
      action: 'access',
      state: 'complete',
      outcome: 'complete',
      erasure: null,
      artifactIds: expect.arrayContaining([stored.artifactId, rows.artifactId]),
      answeredAt: expect.any(String),
    });

    // An erasure task takes no files.
    const deletion = request({ requestType: 'deletion' });
    await fanout.fanOut(deletion);
    const erasure = await taskOf(deletion.id, 'files');
    const erasureWork = await tasks.claim(connector, erasure.id, { worker: 'w1' });
    expect(await problemOf(files.rows(connector, erasure.id, erasureWork.token, { rows: [{ a: 1 }] }))).toBe('TASK_ANSWER_INVALID');
  }, 30_000);

  it('refuses the fulfilment while a required task is open or an erasure unconfirmed, and records an override with its reason', async () => {
    const fulfilments = service.app.get(Fulfilments);
    const deletion = request({ requestType: 'deletion' });
    await fanout.fanOut(deletion);
    const erasure = await taskOf(deletion.id, 'files');
    expect(await problemOf(fulfilments.fulfil(operator, deletion.id))).toBe('FULFILMENT_TASKS_OPEN');
    try {
      await fulfilments.fulfil(operator, deletion.id);
    } catch (e) {
      expect((e as ProblemError).extensions).toEqual({ openTasks: [{ taskId: erasure.id, systemKey: 'files', state: 'queued' }] });
    }
    // Cancelled: settled for the open-task gate, but no proof of an erasure.
    await setTask(erasure.id, `state = 'cancelled'`);
    expect(await problemOf(fulfilments.fulfil(operator, deletion.id))).toBe('ERASURE_NOT_CONFIRMED');
    expect(await fulfilments.fulfil(operator, deletion.id, { override: { reason: 'The system was retired; its data is gone.' } })).toMatchObject({ status: 'fulfilled' });
    const overridden = (await eventsOf(deletion.id)).filter((e) => e.type === 'dsar.fulfilment.tasks_overridden.v1');
    expect(overridden.map((e) => e.data)).toEqual([
      expect.objectContaining({ reason: 'The system was retired; its data is gone.', openTasks: [{ taskId: erasure.id, systemKey: 'files', state: 'cancelled' }] }),
    ]);
  }, 30_000);
});

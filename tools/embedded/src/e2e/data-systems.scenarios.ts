import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { type Connector, kafkaFeed, messageFeed, pullFeed, runConnector, silentLogger, TaskApi, type TaskFeed, type TaskHandler } from '@dsar/connector-sdk';
import { Topics } from '@dsar/contracts';
import { apiKeyListSchema } from '@dsar/platform/auth';
import { MemoryBus } from '@dsar/platform/messaging';
import { KafkaBus } from '@dsar/platform/messaging/kafka';
import { schemaNameFor } from '@dsar/platform/persistence';
import { databaseUrl, uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { SAMPLE_CUSTOMERS, setupShop, shopHandler } from '@dsar/example-connector';
import type { SystemConfig } from '../system';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import type { NotificationServers } from './notifications.scenarios';
import type { TestSystem } from './systems';

/**
 * Issue [fanout] end to end: data systems registered per tenant, a request fanned out to them, their connectors (the
 * SDK and the example connector on a real PostgreSQL shop) answering, the manifest, the fulfilment gate, SLAs and
 * chasing, a connector killed mid-task, erasure proof in the audit chain, and every refusal. The same scenarios run
 * in embedded mode (PGlite, in-memory bus: the push connectors subscribe to the process's bus) and in distributed
 * mode (PostgreSQL, Kafka: the push connectors consume the task topic with kafkajs).
 */

/** Keys of the data-system scenarios beside the scenarios' usual ones: a connector of tenant A, and one of tenant B. */
export const CONNECTOR_KEYS = {
  connectorA: { token: 'tenant-a-connector-key-000000000', tenantId: 'tenant-a', roles: ['connector'] },
  connectorB: { token: 'tenant-b-connector-key-000000000', tenantId: 'tenant-b', roles: ['connector'] },
};

const OWNER_LEGAL = 'legal-owner@tenant-a.example';
const HOUR = 3_600_000;
const EXAMPLE_CONNECTOR = path.resolve(__dirname, '../../../example-connector/src/main.ts');
const RUN_TS = path.resolve(__dirname, '../../../scripts/run-ts.cjs');

/** The settings the scenarios need: the keys, a quick watchdog, webhooks over loopback HTTP, no rate limit. */
export function dataSystemSettings(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    DSAR_API_KEYS: apiKeyListSchema.parse([...Object.values(KEYS), ...Object.values(CONNECTOR_KEYS)]),
    TASK_WATCHDOG_INTERVAL_MS: 200,
    DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: true,
    DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: 5000,
    TASK_MAX_ATTEMPTS: 5,
    RATE_LIMIT_PER_MINUTE: 0,
    FULFILMENT_TENANT_SETTINGS: { 'tenant-a': { fourEyes: false } },
    ...extra,
  };
}

export interface DataSystemScenarioOptions {
  /** The system's configuration (its bus driver, Kafka brokers and topic prefix). */
  config: () => Partial<SystemConfig>;
  /** The mail server and Slack stand-in the notifier sends to (reminders, escalations). */
  servers: () => NotificationServers;
}

type Task = {
  id: string;
  requestId: string;
  systemKey: string;
  state: string;
  attempts: number;
  answer: any;
  claimedBy: string | null;
  dependsOn: string[];
  artifactIds: string[];
  stateReason: string | null;
  lastError: any;
};

/** A webhook system's endpoint: checks each call's Standard Webhooks signature itself, answers 202, then answers the task through the API. */
class WebhookSystem {
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  readonly calls: Array<{ id: string; timestamp: string; valid: boolean; body: any }> = [];
  /** What went wrong answering through the API (asserted empty by the scenarios). */
  readonly failures: string[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly answer: (work: any) => Promise<void>) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const id = String(req.headers['webhook-id'] ?? '');
        const timestamp = String(req.headers['webhook-timestamp'] ?? '');
        // The check as the Standard Webhooks spec writes it, apart from the service's own code: HMAC-SHA256 with the
        // secret's bytes over `id.timestamp.body`, base64, one of the space-separated `v1,` signatures.
        const key = Buffer.from(this.secret.slice('whsec_'.length), 'base64');
        const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
        const valid = String(req.headers['webhook-signature'] ?? '')
          .split(' ')
          .some((s) => {
            const [version, sig] = s.split(',');
            const given = Buffer.from(sig ?? '', 'base64');
            return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
          });
        let parsed: any;
        try {
          parsed = JSON.parse(body.toString());
        } catch {
          parsed = undefined;
        }
        this.calls.push({ id, timestamp, valid, body: parsed });
        if (!valid || !parsed?.data?.taskId) {
          res.writeHead(401).end();
          return;
        }
        res.writeHead(202).end();
        this.answer(parsed.data).catch((e: unknown) => this.failures.push((e as Error).message));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/dsar-tasks`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }
}

/** The example connector as a newcomer runs it (`npm run example-connector -- --mode pull`), a child process to kill. */
function startExampleConnectorProcess(env: Record<string, string>, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [RUN_TS, EXAMPLE_CONNECTOR, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

export function dataSystemScenarios(getSystem: () => TestSystem, options: DataSystemScenarioOptions): void {
  // A block of its own: its afterAll (the connectors stopped, the webhook server closed) runs before the system's close
  // (an afterAll of the enclosing block, which runs later), so no connector keeps calling a gateway that is closing.
  describe('data systems and their tasks', () => scenariosOf(getSystem, options));
}

function scenariosOf(getSystem: () => TestSystem, options: DataSystemScenarioOptions): void {
  let admin: ApiClient;
  let operator: ApiClient;
  let connectorKey: ApiClient;
  const suffix = uniqueSuffix();
  /** The example shop's schemas: the push system's, the pull system's, and the ledger's (the connector killed mid-task). */
  const schemas = { shop: `shop_${suffix}`, warehouse: `warehouse_${suffix}`, ledger: `ledger_${suffix}` };
  const pool = new Pool({ connectionString: databaseUrl(), max: 6 });
  const connectors: Connector[] = [];
  const children: ChildProcess[] = [];
  let kafka: Kafka | undefined;
  let webhook: WebhookSystem;
  /** Holds the shop's answers until the scenario lets them go (to see the systems after it wait). */
  let releaseShop!: () => void;
  const shopGate = new Promise<void>((resolve) => (releaseShop = resolve));

  const clock = () => getSystem().clock;
  const distributed = () => options.config().BUS_DRIVER === 'kafka';
  const baseUrl = () => `${getSystem().gatewayUrl}/api/v1`;

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }
  const put = (key: string, body: unknown, as = admin) => as.call('PUT', `/api/v1/data-systems/${key}`, { json: body });
  const tasksOf = async (requestId: string, as = admin): Promise<Task[]> => {
    const res = await as.get(`/requests/${requestId}/tasks`);
    expect(res.status).toBe(200);
    return res.body.items as Task[];
  };
  const taskOf = async (requestId: string, systemKey: string): Promise<Task | undefined> => (await tasksOf(requestId)).find((t) => t.systemKey === systemKey);
  const taskIn = (requestId: string, systemKey: string, states: string[], timeoutMs = 30_000) =>
    waitFor(
      `${systemKey}'s task of ${requestId} in ${states.join(' or ')}`,
      async () => {
        const task = await taskOf(requestId, systemKey);
        return task && states.includes(task.state) ? task : undefined;
      },
      { timeoutMs, intervalMs: 100 },
    );

  /** A request of tenant A for `email`, captured and acknowledged: `in_progress`, which fans it out. */
  async function workableRequest(requestType: string, email = 'jane@example.org'): Promise<string> {
    const created = await admin.post(
      '/requests/capture',
      intake({ jurisdiction: 'DE', requestType, requestor: { type: 'subject', name: 'Jane Doe', email } }, { receivedAt: new Date(clock().now().getTime() - HOUR).toISOString(), contact: email }),
    );
    expect(created.status).toBe(202);
    expect((await admin.post(`/requests/${created.body.id}/acknowledgements`, {})).status).toBe(202);
    return created.body.id as string;
  }

  /** The push feed: the task topic on Kafka, or the process's in-memory bus (the same events, the same filter). */
  function pushFeed(systemKey: string): TaskFeed {
    const tenantId = KEYS.adminA.tenantId;
    if (distributed()) {
      const c = options.config();
      kafka ??= new Kafka({ clientId: 'data-systems-e2e', brokers: String(c.KAFKA_BROKERS).split(','), logLevel: logLevel.NOTHING });
      return kafkaFeed({ kafka, topicPrefix: c.KAFKA_TOPIC_PREFIX, groupId: `${c.KAFKA_TOPIC_PREFIX}connector-${systemKey}-${suffix}`, tenantId, joinTimeoutMs: 60_000 });
    }
    return messageFeed({
      kind: 'memory',
      tenantId,
      subscribe: (onMessage) => MemoryBus.instance().subscribe(`connector-${systemKey}-${suffix}`, [Topics.task], (message) => onMessage(message)),
    });
  }

  async function connect(systemKey: string, feed: TaskFeed, handler: TaskHandler, worker = `${systemKey}-1`): Promise<Connector> {
    const connector = await runConnector({
      baseUrl: baseUrl(),
      apiKey: CONNECTOR_KEYS.connectorA.token,
      systemKey,
      worker,
      feed,
      handler,
      leaseSeconds: 60,
      heartbeatSeconds: 1,
      backoff: { attempts: 4, baseMs: 50, maxMs: 500 },
      log: silentLogger,
    });
    connectors.push(connector);
    return connector;
  }

  const system = (overrides: Record<string, unknown>) => ({
    owner: {
      email: `${String(overrides.displayName ?? 'x')
        .toLowerCase()
        .replace(/\W+/g, '-')}@tenant-a.example`,
    },
    identityTypes: ['email'],
    dataCategories: ['contact_details'],
    ...overrides,
  });

  beforeAll(async () => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    operator = admin.as(KEYS.operatorA.token);
    connectorKey = admin.as(CONNECTOR_KEYS.connectorA.token);
    await setupShop(pool, schemas.shop, { seed: SAMPLE_CUSTOMERS });
    // The warehouse and the ledger hold Max (erased later), not Jane: Jane's access finds nothing there.
    await setupShop(pool, schemas.warehouse, { seed: SAMPLE_CUSTOMERS.filter((c) => c.email === 'max@example.org') });
    await setupShop(pool, schemas.ledger, { seed: SAMPLE_CUSTOMERS.filter((c) => c.email === 'max@example.org') });
    webhook = new WebhookSystem(async (work) => {
      // A later call with the token the signed call carried: rows, then the answer.
      const api = new TaskApi({ baseUrl: baseUrl(), apiKey: CONNECTOR_KEYS.connectorA.token, backoff: { attempts: 3, baseMs: 50, maxMs: 200 } });
      try {
        await api.uploadRows(work.taskId, work.token, [{ ticket: 'T-1001', subject: 'Where is my order?' }], 'support_tickets');
        await api.answer(work.taskId, work.token, { outcome: 'complete', note: '1 ticket' });
      } finally {
        await api.close();
      }
    });
    await webhook.start();
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(connectors.map((c) => c.stop({ abandon: true, timeoutMs: 2000 }).catch(() => undefined)));
    await webhook?.close();
    for (const schema of Object.values(schemas)) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
  }, 60_000);

  describe('the registry', () => {
    it('registers the five systems of the access scenario, one per mode (two push), and reads them back without the webhook secret', async () => {
      const shop = await put(
        'shop',
        system({ displayName: 'Shop', mode: 'push', actions: ['access', 'erasure'], identityTypes: ['email', 'account_id'], dataCategories: ['contact_details', 'orders'] }),
      );
      expect(shop.status).toBe(201);
      expect(shop.body).toMatchObject({ key: 'shop', version: 1, mode: 'push', required: true, paused: false, after: [], sla: { expectedHours: 72, timeoutHours: 168, onTimeout: 'pause' } });
      expect((await put('crm', system({ displayName: 'CRM', mode: 'push', actions: ['access'] }))).status).toBe(201);
      // The warehouse is read after the shop: its task waits for the shop's.
      expect((await put('warehouse', system({ displayName: 'Warehouse', mode: 'pull', actions: ['access', 'erasure'], after: ['shop'], dataCategories: ['orders'] }))).status).toBe(201);
      const tickets = await put('tickets', system({ displayName: 'Tickets', mode: 'webhook', actions: ['access'], webhook: { url: webhook.url, secret: webhook.secret } }));
      expect(tickets.status).toBe(201);
      expect(tickets.body.webhook).toEqual({ url: webhook.url, secretSet: true });
      expect(JSON.stringify(tickets.body)).not.toContain(webhook.secret);
      const legal = await put(
        'legal',
        system({ displayName: 'Legal archive', mode: 'manual', actions: ['access', 'rectification'], owner: { email: OWNER_LEGAL }, sla: { expectedHours: 2, timeoutHours: 100, onTimeout: 'pause' } }),
      );
      expect(legal.status).toBe(201);
      // Replaced: 200 and a new version.
      const again = await put('crm', system({ displayName: 'CRM', mode: 'push', actions: ['access'], dataCategories: ['contact_details', 'notes'] }));
      expect({ status: again.status, version: again.body.version }).toEqual({ status: 200, version: 2 });

      const list = await admin.get('/data-systems');
      expect(list.status).toBe(200);
      expect(list.body.items.map((s: { key: string }) => s.key)).toEqual(['crm', 'legal', 'shop', 'tickets', 'warehouse']);
      expect(JSON.stringify(list.body)).not.toContain(webhook.secret);
      // An auditor reads the registry.
      expect((await admin.as(KEYS.auditorA.token).get('/data-systems/shop')).status).toBe(200);
    });

    it('refuses bad input with a problem naming the field, and changes nothing', async () => {
      const before = (await admin.get('/data-systems')).body;
      expectProblem(await put('Bad_Key', system({ displayName: 'X', mode: 'pull', actions: ['access'] })), 400, 'SVC-BE-1102');
      const noOwner = await put('x1', { displayName: 'X', owner: {}, mode: 'pull', actions: ['access'], identityTypes: ['email'] });
      expectProblem(noOwner, 422, 'SVC-BE-1802');
      expect(noOwner.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('owner') })]));
      expect((await put('x2', system({ displayName: 'X', mode: 'teleport', actions: ['access'] }))).status).toBe(400);
      // Values that fit the schema but not the registry: 422 DATA_SYSTEM_INVALID.
      expectProblem(await put('x3', system({ displayName: 'X', mode: 'pull', actions: ['access'], after: ['nowhere'] })), 422, 'SVC-BE-1802');
      expectProblem(await put('x4', system({ displayName: 'X', mode: 'webhook', actions: ['access'] })), 422, 'SVC-BE-1802');
      expectProblem(await put('x5', system({ displayName: 'X', mode: 'pull', actions: ['access'], sla: { expectedHours: 10, timeoutHours: 5, onTimeout: 'skip' } })), 422, 'SVC-BE-1802');
      // A cycle: the shop after the warehouse, which comes after the shop.
      expectProblem(
        await put(
          'shop',
          system({ displayName: 'Shop', mode: 'push', actions: ['access', 'erasure'], identityTypes: ['email', 'account_id'], dataCategories: ['contact_details', 'orders'], after: ['warehouse'] }),
        ),
        422,
        'SVC-BE-1802',
      );
      const malformed = await admin.call('PUT', '/api/v1/data-systems/x6', { raw: '{"displayName":', headers: { 'content-type': 'application/json' } });
      expect(malformed.status).toBe(400);
      expect((await admin.get('/data-systems')).body).toEqual(before);
      expectProblem(await admin.get('/data-systems/x3'), 404, 'SVC-BE-1801');
      // Deleting a system another one comes after: 409.
      expectProblem(await admin.call('DELETE', '/api/v1/data-systems/shop'), 409, 'SVC-BE-1803');
    });

    it('another tenant sees none of it (404), a wrong role is a 403, and nothing changes', async () => {
      expectProblem(await admin.as(KEYS.adminB.token).get('/data-systems/shop'), 404, 'SVC-BE-1801');
      expect((await admin.as(KEYS.adminB.token).get('/data-systems')).body.items).toEqual([]);
      expectProblem(await put('shop', system({ displayName: 'Hijack', mode: 'pull', actions: ['access'] }), admin.as(KEYS.operatorA.token)), 403, 'SVC-BE-1302');
      expectProblem(await put('shop', system({ displayName: 'Hijack', mode: 'pull', actions: ['access'] }), connectorKey), 403, 'SVC-BE-1302');
      expectProblem(await connectorKey.get('/data-systems'), 403, 'SVC-BE-1302');
      expectProblem(await admin.as(KEYS.intakeA.token).get('/data-systems/shop/tasks'), 403, 'SVC-BE-1302');
      expect((await admin.get('/data-systems/shop')).body).toMatchObject({ displayName: 'Shop', mode: 'push', version: 1 });
    });
  });

  describe('an access request fanned out to five systems', () => {
    let id: string;
    let tasks: Task[];

    beforeAll(async () => {
      // The shop (push) and the warehouse (pull) are the example connector's handler; the CRM (push) fails for good.
      const shop = shopHandler(pool, schemas.shop, { performedBy: 'example-connector shop-1', now: () => clock().now() });
      await connect('shop', pushFeed('shop'), async (task, context) => {
        await shopGate;
        return shop(task, context);
      });
      await connect('crm', pushFeed('crm'), async () => ({ outcome: 'error', retryable: false, code: 'CRM_EXPORT_FAILED', message: 'the CRM export failed: upstream answered 500' }));
      await connect('warehouse', pullFeed({ intervalMs: 200 }), shopHandler(pool, schemas.warehouse, { performedBy: 'example-connector warehouse-1', now: () => clock().now() }));
    }, 90_000);

    it('creates one task per system, with only the identity types each registered, none of them in the operator view', async () => {
      id = await workableRequest('access');
      tasks = await waitFor('five tasks', async () => {
        const all = await tasksOf(id);
        return all.length === 5 ? all : undefined;
      });
      expect(tasks.map((t) => t.systemKey).sort()).toEqual(['crm', 'legal', 'shop', 'tickets', 'warehouse']);
      for (const t of tasks) expect(t).toMatchObject({ requestId: id, action: 'access', required: true, maxAttempts: 5 });
      expect(JSON.stringify(tasks)).not.toContain('jane@example.org');
      const shopTask = tasks.find((t) => t.systemKey === 'shop')!;
      expect(tasks.find((t) => t.systemKey === 'warehouse')!.dependsOn).toEqual([shopTask.id]);
    });

    it('the warehouse waits while the shop (which it comes after) works; fulfilment is refused while tasks are open', async () => {
      try {
        await waitingWhileShopWorks();
      } finally {
        releaseShop();
      }
    });

    async function waitingWhileShopWorks(): Promise<void> {
      await taskIn(id, 'shop', ['claimed']);
      expect((await taskOf(id, 'warehouse'))!.state).toBe('waiting');
      // Tasks are open: the queue shows the request as waiting on systems.
      await waitFor('the queue filter', async () => {
        const queue = await admin.get('/requests?waitingOnSystems=true&limit=200');
        return queue.status === 200 && queue.body.items.some((r: { id: string }) => r.id === id);
      });
      const refused = await admin.post(`/requests/${id}/fulfilment`, undefined);
      expectProblem(refused, 409, 'SVC-BE-1810');
      expect(refused.body.openTasks.map((t: { systemKey: string }) => t.systemKey).sort()).toEqual(expect.arrayContaining(['legal', 'shop', 'warehouse']));
    }

    it('the systems answer: data found (push, with rows and a file), not found (pull), an exception (push), data by a later call (webhook)', async () => {
      const shop = await taskIn(id, 'shop', ['complete']);
      expect(shop.answer).toMatchObject({ outcome: 'complete' });
      expect(shop.artifactIds).toHaveLength(2);
      expect(shop.claimedBy).toBe('shop-1');
      const warehouse = await taskIn(id, 'warehouse', ['not_found']);
      expect(warehouse.answer).toMatchObject({ outcome: 'not_found' });
      const crm = await taskIn(id, 'crm', ['error']);
      expect(crm.answer).toMatchObject({ outcome: 'error', retryable: false, code: 'CRM_EXPORT_FAILED' });
      const tickets = await taskIn(id, 'tickets', ['complete']);
      expect(tickets.artifactIds).toHaveLength(1);
      const call = webhook.calls.find((c) => c.body?.data?.taskId === tickets.id)!;
      expect(webhook.failures).toEqual([]);
      expect(call).toMatchObject({
        valid: true,
        id: `${tickets.id}.1`,
        body: { type: 'dsar.task.requested', data: { requestId: id, systemKey: 'tickets', identities: [{ type: 'email', value: 'jane@example.org' }] } },
      });
      expect((await taskOf(id, 'legal'))!.state).toBe('queued');
    });

    it('the manual owner claims and answers through the API; the manifest lists all five systems with their outcomes and files', async () => {
      const legal = (await taskOf(id, 'legal'))!;
      const claimed = await operator.post(`/tasks/${legal.id}/claim`, { worker: OWNER_LEGAL });
      expect(claimed.status).toBe(200);
      expect(claimed.body).toMatchObject({ taskId: legal.id, requestId: id, systemKey: 'legal', identities: [{ type: 'email', value: 'jane@example.org' }], token: expect.stringMatching(/^dtt_/) });
      const answered = await operator.post(
        `/tasks/${legal.id}/answer`,
        { outcome: 'complete', note: 'Contract file checked: nothing beyond the CRM' },
        { headers: { 'x-task-token': claimed.body.token } },
      );
      expect(answered.status).toBe(200);
      expect(answered.body.state).toBe('complete');

      const manifest = await waitFor('five systems on the manifest', async () => {
        const m = await admin.get(`/requests/${id}/manifest`);
        return m.body?.systems?.length === 5 && m.body.systems.every((s: { state: string }) => s.state !== 'claimed' && s.state !== 'queued') ? m.body : undefined;
      });
      const bySystem = Object.fromEntries(manifest.systems.map((s: any) => [s.systemKey, s]));
      expect(bySystem.shop).toMatchObject({ displayName: 'Shop', action: 'access', state: 'complete', outcome: 'complete', erasure: null });
      expect(bySystem.warehouse).toMatchObject({ state: 'not_found', outcome: 'not_found', artifactIds: [] });
      expect(bySystem.crm).toMatchObject({ state: 'error', outcome: 'error', artifactIds: [] });
      expect(bySystem.tickets).toMatchObject({ state: 'complete', outcome: 'complete' });
      expect(bySystem.legal).toMatchObject({ displayName: 'Legal archive', state: 'complete', outcome: 'complete', artifactIds: [] });
      const artifacts = Object.fromEntries(manifest.artifacts.map((a: any) => [a.artifactId ?? a.id, a]));
      for (const artifactId of [...bySystem.shop.artifactIds, ...bySystem.tickets.artifactIds]) expect(artifacts[artifactId]).toBeDefined();
      expect(bySystem.shop.artifactIds.map((a: string) => artifacts[a].systemKey)).toEqual(['shop', 'shop']);
      // The file the shop sent holds Jane's orders, as the example table has them.
      const orders = manifest.artifacts.find((a: any) => a.systemKey === 'shop' && String(a.filename).startsWith('orders-'));
      const download = await fetch(`${baseUrl()}/requests/${id}/manifest/artifact/download?artifactId=${orders.artifactId ?? orders.id}`, {
        headers: { authorization: `Bearer ${KEYS.adminA.token}` },
      });
      expect(download.status).toBe(200);
      const document = JSON.parse(await download.text());
      expect(document.orders.map((o: { item: string }) => o.item)).toEqual(['Espresso machine', 'Coffee beans 1 kg']);
    });

    it('fulfilment stays refused while a required task failed, until an operator overrides with a reason (recorded)', async () => {
      const approved = await operator.post(`/requests/${id}/manifest/validate`, { action: 'approved' });
      expect(approved.status).toBeLessThan(300);
      const refused = await admin.post(`/requests/${id}/fulfilment`, undefined);
      expectProblem(refused, 409, 'SVC-BE-1810');
      expect(refused.body.openTasks.map((t: { systemKey: string }) => t.systemKey)).toEqual(['crm']);
      expectProblem(await admin.post(`/requests/${id}/fulfilment`, { override: {} }), 400, 'SVC-BE-1102');
      const fulfilled = await admin.post(`/requests/${id}/fulfilment`, { override: { reason: 'The CRM holds no more than the shop exported; ticket OPS-7 tracks the failed export.' } });
      expect(fulfilled.status).toBe(202);
      await waitFor('the override on the timeline', async () => {
        const events = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: any }>;
        return events.find((e) => e.eventType.includes('tasks_overridden'));
      });
    });

    it('a duplicate transition to in_progress (the same event again, and again under a new id) creates no second task', async () => {
      const timeline = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ id: string; eventType: string; createdAt: string; payload: Record<string, unknown> }>;
      const ack = timeline.find((e) => e.eventType === 'request_acknowledged')!;
      expect(ack.payload).toMatchObject({ status: 'in_progress' });
      const envelope = (eventId: string) =>
        JSON.stringify({
          specversion: '1.0',
          id: eventId,
          type: 'dsar.request.acknowledged.v1',
          source: '/dsar/lifecycle-clock',
          subject: id,
          time: ack.createdAt,
          datacontenttype: 'application/json',
          tenantid: KEYS.adminA.tenantId,
          data: ack.payload,
        });
      // fulfilment-delivery's note of the request's fan-out: done once, and done again after the duplicate.
      const db = getSystem().services.get('fulfilment-delivery')!.app.get(DataSource);
      const fanoutOf = async () =>
        ((await db.query(`SELECT state, updated_at FROM ${schemaNameFor('fulfilment-delivery')}.data_system_fanout WHERE request_id = $1`, [id])) as Array<{ state: string; updated_at: Date }>)[0];
      const before = await fanoutOf();
      expect(before.state).toBe('done');
      await publish(options.config, [
        { topic: Topics.request, key: id, value: envelope(ack.id), headers: {} },
        { topic: Topics.request, key: id, value: envelope(randomUUID()), headers: {} },
      ]);
      // The one under a new id passes the inbox: the fan-out runs again (and inserts nothing).
      await waitFor('the fan-out run again', async () => {
        const now = await fanoutOf();
        return now.state === 'done' && new Date(now.updated_at).getTime() > new Date(before.updated_at).getTime();
      });
      const after = await tasksOf(id);
      expect(after.map((t) => t.id).sort()).toEqual(tasks.map((t) => t.id).sort());
    });
  });

  describe('refusals on the task routes', () => {
    let id: string;
    let legal: Task;
    let token: string;

    beforeAll(async () => {
      id = await workableRequest('access');
      legal = await taskIn(id, 'legal', ['queued']);
      const claimed = await operator.post(`/tasks/${legal.id}/claim`, { worker: OWNER_LEGAL, leaseSeconds: 10 });
      expect(claimed.status).toBe(200);
      token = claimed.body.token;
    });

    it('another tenant gets 404 for the task and the request; a wrong role 403; bad input 400; nothing changes', async () => {
      // A second claim while the lease lives: 409 (another instance has it).
      expectProblem(await connectorKey.post(`/tasks/${legal.id}/claim`, { worker: 'other' }), 409, 'SVC-BE-1807');
      const tenantB = admin.as(CONNECTOR_KEYS.connectorB.token);
      expectProblem(await tenantB.post(`/tasks/${legal.id}/claim`, { worker: 'intruder' }), 404, 'SVC-BE-1804');
      expectProblem(await tenantB.post(`/tasks/${legal.id}/answer`, { outcome: 'not_found' }, { headers: { 'x-task-token': token } }), 404, 'SVC-BE-1804');
      expectProblem(await admin.as(KEYS.operatorB.token).get(`/requests/${id}/tasks`), 404, 'SVC-BE-1003');
      expectProblem(await tenantB.get('/data-systems/legal/tasks'), 404, 'SVC-BE-1801');
      expectProblem(await admin.as(KEYS.auditorA.token).post(`/tasks/${legal.id}/claim`, { worker: 'auditor' }), 403, 'SVC-BE-1302');
      expectProblem(await connectorKey.get(`/requests/${id}/tasks`), 403, 'SVC-BE-1302');
      expectProblem(await connectorKey.post(`/requests/${id}/tasks/${legal.id}/skip`, { reason: 'no' }), 403, 'SVC-BE-1302');
      expectProblem(await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'complete', extra: 1 }, { headers: { 'x-task-token': token } }), 400, 'SVC-BE-1102');
      expectProblem(await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'error', message: 'x' }, { headers: { 'x-task-token': token } }), 400, 'SVC-BE-1102');
      expectProblem(
        await operator.call('POST', `/api/v1/tasks/${legal.id}/answer`, { raw: '{"outcome":', headers: { 'content-type': 'application/json', 'x-task-token': token } }),
        400,
        'SVC-BE-1101',
      );
      expectProblem(await operator.post(`/tasks/${legal.id}/claim`, { worker: '' }), 400, 'SVC-BE-1102');
      expectProblem(await operator.post(`/tasks/not-a-task/claim`, { worker: 'w' }), 404, 'SVC-BE-1804');
      // An empty list of rows is bad input.
      expectProblem(await operator.post(`/tasks/${legal.id}/rows`, { rows: [] }, { headers: { 'x-task-token': token } }), 400, 'SVC-BE-1102');
      expect(await taskOf(id, 'legal')).toMatchObject({ state: 'claimed', answer: null, attempts: 1, claimedBy: OWNER_LEGAL });
    });

    it("a missing token, another task's token, or one a newer claim superseded: 403 TASK_TOKEN_INVALID, and nothing changes", async () => {
      expectProblem(await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'not_found' }), 403, 'SVC-BE-1805');
      expectProblem(await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'not_found' }, { headers: { 'x-task-token': `dtt_${'A'.repeat(43)}` } }), 403, 'SVC-BE-1805');
      expectProblem(await operator.post(`/tasks/${legal.id}/heartbeat`, {}, { headers: { 'x-task-token': 'not-a-token' } }), 403, 'SVC-BE-1805');
      // The lease lapses (leases run on the database's clock: 10 s of real time); a new claim supersedes the first token.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      const second = await operator.post(`/tasks/${legal.id}/claim`, { worker: 'second-owner' });
      expect(second.status).toBe(200);
      expectProblem(await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'not_found' }, { headers: { 'x-task-token': token } }), 403, 'SVC-BE-1805');
      // The first task's live token does not answer another task.
      const other = await workableRequest('access', 'someone-else@example.org');
      const otherLegal = await taskIn(other, 'legal', ['queued']);
      expectProblem(await operator.post(`/tasks/${otherLegal.id}/answer`, { outcome: 'not_found' }, { headers: { 'x-task-token': second.body.token } }), 403, 'SVC-BE-1805');
      expect(await taskOf(other, 'legal')).toMatchObject({ state: 'queued', answer: null });
      token = second.body.token;
    });

    it('an answer, then the same again (200, the same), then a different one (409 TASK_ALREADY_ANSWERED)', async () => {
      const first = await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'not_found', note: 'nothing' }, { headers: { 'x-task-token': token } });
      expect(first.status).toBe(200);
      const again = await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'not_found', note: 'nothing' }, { headers: { 'x-task-token': token } });
      expect({ status: again.status, state: again.body.state, answeredAt: again.body.answeredAt }).toEqual({ status: 200, state: 'not_found', answeredAt: first.body.answeredAt });
      expectProblem(await operator.post(`/tasks/${legal.id}/answer`, { outcome: 'complete' }, { headers: { 'x-task-token': token } }), 409, 'SVC-BE-1808');
      expect(await taskOf(id, 'legal')).toMatchObject({ state: 'not_found', answer: { outcome: 'not_found', note: 'nothing' } });
    });

    it('an expired token (past the task timeout) is a 403 TASK_TOKEN_EXPIRED, and nothing changes', async () => {
      // A task whose timeout (the legal archive's 100 h) is already behind the database's clock, which runs the
      // tokens: made with the domain clock 200 h back, its token lives one lease (10 s) past the claim.
      const { rectification, task, claimed } = await clock().runAt(clock().now().getTime() - 200 * HOUR, async () => {
        const made = await workableRequest('rectification');
        const queued = await taskIn(made, 'legal', ['queued']);
        const claim = await operator.post(`/tasks/${queued.id}/claim`, { worker: OWNER_LEGAL, leaseSeconds: 10 });
        expect(claim.status).toBe(200);
        return { rectification: made, task: queued, claimed: claim };
      });
      // Rows and files answer access tasks only: 422 TASK_ANSWER_INVALID for this rectification, nothing kept.
      expectProblem(await operator.post(`/tasks/${task.id}/rows`, { rows: [{ a: 1 }] }, { headers: { 'x-task-token': claimed.body.token } }), 422, 'SVC-BE-1812');
      const untilExpiry = new Date(claimed.body.tokenExpiresAt).getTime() - new Date(claimed.body.leaseExpiresAt).getTime();
      expect(untilExpiry).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expectProblem(await operator.post(`/tasks/${task.id}/answer`, { outcome: 'not_found' }, { headers: { 'x-task-token': claimed.body.token } }), 403, 'SVC-BE-1806');
      expect((await taskOf(rectification, 'legal'))!.answer).toBeNull();
    });
  });

  describe('chasing: a task past its SLA', () => {
    it("tells the manual owner of the new task; past the SLA reminds the owner once, then alerts operators once; all in the request's notification history", async () => {
      clock().advance(24 * HOUR);
      // Another person than the earlier rectification's: of the same person, this one would be its duplicate and wait.
      const id = await workableRequest('rectification', `chased.${randomUUID().slice(0, 8)}@example.org`);
      const task = await taskIn(id, 'legal', ['queued']);
      const reference = `DSAR-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
      const history = async () => ((await admin.get(`/requests/${id}/notifications`)).body.events ?? []) as Array<{ eventType: string; audience: string; status: string }>;
      const ofKind = async (kind: string) => (await history()).filter((e) => e.eventType === kind);
      const mailsTo = (to: string, subject: string) =>
        options.servers().mail.messages.filter((m) => m.envelope.to.includes(to) && String(m.parsed.subject ?? '').includes(subject) && String(m.parsed.subject ?? '').includes(reference));
      // The manual owner hears of the new task.
      await waitFor('the owner told of the task', async () => (await ofKind('task_assigned')).find((e) => e.status === 'delivered'), { timeoutMs: 30_000 });
      expect(mailsTo(OWNER_LEGAL, 'New task')).toHaveLength(1);
      expect(await ofKind('task_overdue')).toEqual([]);
      // Past the system's own due date (2 h): one reminder to the owner, however often the watchdog runs.
      clock().advance(3 * HOUR);
      await waitFor('the owner reminded', async () => (await ofKind('task_overdue')).find((e) => e.status === 'delivered'), { timeoutMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await ofKind('task_overdue')).map((e) => e.audience)).toEqual(['owner']);
      expect(mailsTo(OWNER_LEGAL, 'Task overdue')).toHaveLength(1);
      expect(await ofKind('task_escalated')).toEqual([]);
      // Then the operators, once, 24 h past the due date (before the 100 h timeout).
      clock().advance(25 * HOUR);
      await waitFor('the operators alerted', async () => (await ofKind('task_escalated')).find((e) => e.status === 'delivered'), { timeoutMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await ofKind('task_escalated')).map((e) => e.audience)).toEqual(['operators']);
      expect((await ofKind('task_overdue')).length).toBe(1);
      expect(mailsTo(OWNER_LEGAL, 'Task overdue')).toHaveLength(1);
      // Still open, and the queue shows the request as waiting on systems.
      expect((await taskOf(id, 'legal'))!).toMatchObject({ id: task.id, state: 'queued' });
    });
  });

  describe('a request in triage (issue 39)', () => {
    it('is sent to no data system while it has no type, and fans out once an operator names its type', async () => {
      // A person of their own: once its type is named, a request of jane's would repeat her earlier one and wait as its duplicate.
      const triaged = `triaged.${randomUUID().slice(0, 8)}@example.org`;
      const created = await admin.post(
        '/requests/capture',
        intake(
          { jurisdiction: 'DE', requestType: undefined, requestor: { type: 'subject', name: 'Jane Doe', email: triaged } },
          { rawText: 'Hello, I have a question about my order.', receivedAt: new Date(clock().now().getTime() - HOUR).toISOString(), contact: triaged },
        ),
      );
      expect(created.status).toBe(202);
      const id = created.body.id as string;
      expect((await admin.get(`/requests/${id}`)).body).toMatchObject({ requestType: null, triage: { reason: 'no_rule_matched' } });
      // Acknowledged in triage: in progress, and no task (the fan-out ran and found no type).
      expect((await admin.post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await tasksOf(id)).toEqual([]);
      // Named a rectification: the systems that take it get their tasks.
      const corrected = await operator.post(`/requests/${id}/corrections`, { requestType: 'rectification', reason: 'The customer asks us to fix their address.' });
      expect(corrected.status).toBe(202);
      const task = await taskIn(id, 'legal', ['queued']);
      expect(task).toMatchObject({ action: 'rectification' });
    });
  });

  describe('an erasure request', () => {
    let id: string;
    let firstConnector: { child: ChildProcess; output: () => string };

    it('registers the ledger (pull), whose first connector is the example connector run as a newcomer runs it', async () => {
      expect((await put('ledger', system({ displayName: 'Ledger', mode: 'pull', actions: ['erasure'], dataCategories: ['contact_details', 'orders'] }))).status).toBe(201);
      firstConnector = startExampleConnectorProcess(
        {
          DSAR_BASE_URL: baseUrl(),
          DSAR_CONNECTOR_KEY: CONNECTOR_KEYS.connectorA.token,
          DSAR_SYSTEM_KEY: 'ledger',
          EXAMPLE_DATABASE_URL: databaseUrl(),
          EXAMPLE_SCHEMA: schemas.ledger,
          CONNECTOR_WORKER: 'ledger-first',
          CONNECTOR_LEASE_SECONDS: '10',
          PULL_INTERVAL_MS: '200',
          LOG_LEVEL: 'debug',
        },
        ['--mode', 'pull', '--delay-ms', '600000'],
      );
      children.push(firstConnector.child);
    });

    it("erases for real: the shop's and the warehouse's rows are gone, with the counts in each confirmation", async () => {
      id = await workableRequest('deletion', 'max@example.org');
      const tasks = await waitFor('three erasure tasks', async () => {
        const all = await tasksOf(id);
        return all.length === 3 ? all : undefined;
      });
      expect(tasks.map((t) => [t.systemKey, (t as any).action]).sort()).toEqual([
        ['ledger', 'erasure'],
        ['shop', 'erasure'],
        ['warehouse', 'erasure'],
      ]);
      const shop = await taskIn(id, 'shop', ['complete']);
      expect(shop.answer.erasure).toMatchObject({ result: 'erased', recordsAffected: 2, categoriesErased: ['contact_details', 'orders'], method: 'delete', performedBy: 'example-connector shop-1' });
      const warehouse = await taskIn(id, 'warehouse', ['complete']);
      expect(warehouse.answer.erasure).toMatchObject({ result: 'erased', recordsAffected: 2, method: 'delete' });
      for (const schema of [schemas.shop, schemas.warehouse]) {
        const left = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".customer WHERE email = 'max@example.org'`);
        expect(left.rows[0].n).toBe(0);
        const orders = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".customer_order o WHERE NOT EXISTS (SELECT 1 FROM "${schema}".customer c WHERE c.id = o.customer_id)`);
        expect(orders.rows[0].n).toBe(0);
      }
      // Jane is still in the shop: only Max was erased.
      expect((await pool.query(`SELECT count(*)::int AS n FROM "${schemas.shop}".customer WHERE email = 'jane@example.org'`)).rows[0].n).toBe(1);
    });

    it('a connector killed mid-task: its lease lapses, a second instance completes the task exactly once', async () => {
      const claimed = await taskIn(id, 'ledger', ['claimed'], 90_000);
      expect(claimed.claimedBy).toBe('ledger-first');
      firstConnector.child.kill('SIGKILL');
      await new Promise((resolve) => firstConnector.child.once('exit', resolve));
      // Max is still in the ledger: the first instance died before it erased.
      expect((await pool.query(`SELECT count(*)::int AS n FROM "${schemas.ledger}".customer`)).rows[0].n).toBe(1);
      const second = await connect(
        'ledger',
        pullFeed({ intervalMs: 200 }),
        shopHandler(pool, schemas.ledger, { performedBy: 'example-connector ledger-second', now: () => clock().now() }),
        'ledger-second',
      );
      // Its lease (10 s) is alive a moment longer: the second instance may not take the task yet.
      expect(second.stats.claimed).toBe(0);
      const done = await taskIn(id, 'ledger', ['complete'], 40_000);
      expect(done).toMatchObject({ claimedBy: 'ledger-second', attempts: 2 });
      expect(done.answer.erasure).toMatchObject({ result: 'erased', recordsAffected: 2, performedBy: 'example-connector ledger-second' });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(second.stats).toMatchObject({ claimed: 1, answered: { complete: 1 } });
      const erasures = await pool.query(`SELECT task_id FROM "${schemas.ledger}".dsar_erasure`);
      expect(erasures.rows).toEqual([{ task_id: done.id }]);
      expect((await pool.query(`SELECT count(*)::int AS n FROM "${schemas.ledger}".customer`)).rows[0].n).toBe(0);
    });

    it('the audit chain proves per system what was erased, and verifies', async () => {
      const exported = await waitFor('three erasure answers in the audit chain', async () => {
        const res = await admin.as(KEYS.auditorA.token).get(`/requests/${id}/audit/export`);
        const answered = (res.body?.events ?? []).filter((e: { eventType: string }) => e.eventType === 'dsar.task.answered.v1');
        return answered.length === 3 ? res.body : undefined;
      });
      const answered = exported.events.filter((e: { eventType: string }) => e.eventType === 'dsar.task.answered.v1');
      const bySystem = Object.fromEntries(answered.map((e: any) => [e.payload.systemKey, e.payload]));
      expect(bySystem.shop).toMatchObject({ outcome: 'complete', erasure: { result: 'erased', recordsAffected: 2, categoriesErased: ['contact_details', 'orders'], method: 'delete' } });
      expect(bySystem.warehouse).toMatchObject({ outcome: 'complete', erasure: { result: 'erased', recordsAffected: 2, method: 'delete' } });
      expect(bySystem.ledger).toMatchObject({ outcome: 'complete', erasure: { result: 'erased', recordsAffected: 2, method: 'delete' } });
      // The ledger's task: claimed twice, answered once.
      const ledgerEvents = exported.events.filter((e: any) => e.payload?.systemKey === 'ledger').map((e: { eventType: string }) => e.eventType);
      expect(ledgerEvents.filter((t: string) => t === 'dsar.task.claimed.v1')).toHaveLength(2);
      // Requeued by the watchdog, unless the second instance's listing claimed the lapsed lease first.
      expect(ledgerEvents.filter((t: string) => t === 'dsar.task.requeued.v1').length).toBeLessThanOrEqual(1);
      expect(ledgerEvents.filter((t: string) => t === 'dsar.task.answered.v1')).toHaveLength(1);
      expect(JSON.stringify(exported)).not.toContain('max@example.org');
      expect(JSON.stringify(exported)).not.toMatch(/dtt_[A-Za-z0-9_-]{43}/);
      const verified = await admin.as(KEYS.auditorA.token).post(`/requests/${id}/audit/verify`, { hash: exported.rootHash, sequence: exported.headSequence });
      expect(verified.body).toMatchObject({ verified: true, status: 'verified' });
    });
  });
}

/** Puts messages on the system's bus as a producer would: the in-memory bus, or Kafka under the run's topic prefix. */
async function publish(config: () => Partial<SystemConfig>, messages: Array<{ topic: string; key: string; value: string; headers: Record<string, string> }>): Promise<void> {
  const c = config();
  if (c.BUS_DRIVER !== 'kafka') {
    await MemoryBus.instance().publish(messages);
    return;
  }
  const bus = new KafkaBus({ brokers: String(c.KAFKA_BROKERS).split(','), clientId: 'data-systems-test', topicPrefix: c.KAFKA_TOPIC_PREFIX, service: 'test', log: () => undefined });
  try {
    await bus.publish(messages);
  } finally {
    await bus.close();
  }
}

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { domainEventCatalog, TaskEventTypes, Topics } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { BUS_PORT, type BusPort, buildEvent, toBusMessage } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { Dispatcher } from './application/dispatcher';
import { NotificationPurge } from './application/notification-purge';
import { notifierServiceWith, notifierSettingsFrom } from './index';

/**
 * The task notifications through the notifier's own consumer, database and dispatcher (PGlite, the in-memory bus,
 * .eml files): a manual system's owner is told of a task at the address the event gave, reminded when it is overdue,
 * operators are alerted at the escalation, each once however often the event comes, and the owner's address goes
 * with the request's notifications when they are purged.
 */
describe('notifications of data-system tasks', () => {
  let service: HostedService;
  let ds: DataSource;
  let bus: BusPort;
  let dispatcher: Dispatcher;
  let dataDir: string;
  const tenant = `t-${uniqueSuffix()}`;
  const catalog = domainEventCatalog();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'task-notifications-'));
    // No dispatch interval: sends go out when the test drains the dispatcher.
    const settings = notifierSettingsFrom({ DATA_DIR: dataDir, NOTIFIER_DISPATCH_INTERVAL_MS: 0, NOTIFIER_OPERATOR_EMAILS: ['privacy-ops@example.com'], NOTIFIER_DIGEST_TIME: 'off' });
    service = await hostService(notifierServiceWith(settings), testHostConfig({ DATA_DIR: `memory://task-notifications-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }), {
      // Messages to owners and operators are written from the event's facts: lifecycle-clock and fulfilment-delivery are never called.
      upstreams: { 'lifecycle-clock': 'http://127.0.0.1:9', 'fulfilment-delivery': 'http://127.0.0.1:9' },
    });
    await service.startConsuming();
    ds = service.app.get(UnitOfWork).dataSource;
    bus = service.app.get<BusPort>(BUS_PORT);
    dispatcher = service.app.get(Dispatcher);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function publish(type: string, requestId: string, taskId: string, data: Record<string, unknown>, id?: string): Promise<void> {
    const event = buildEvent(catalog, '/dsar/fulfilment-delivery', {
      id,
      type,
      subject: requestId,
      partitionKey: `${tenant}:crm`,
      tenantId: tenant,
      data: { requestId, tenantId: tenant, workspaceId: null, taskId, systemKey: 'crm', action: 'access', actor: 'system', occurredAt: new Date().toISOString(), ...data },
    });
    await bus.publish([toBusMessage(Topics.task, event)]);
  }

  const owner = { email: 'crm-owner@example.org', slackChannel: '#crm-team' };
  const requested = (requestId: string, taskId: string, mode: string, id?: string) =>
    publish(
      TaskEventTypes.requested,
      requestId,
      taskId,
      {
        state: 'queued',
        mode,
        requestType: 'access',
        required: true,
        attempt: 0,
        legalDueAt: '2027-01-01T10:00:00.000Z',
        dueAt: '2026-12-05T10:00:00.000Z',
        identityTypes: ['email'],
        dataCategories: ['orders'],
        displayName: 'Customer CRM',
        owner,
      },
      id,
    );
  const overdue = (requestId: string, taskId: string, stage: string) =>
    publish(TaskEventTypes.overdue, requestId, taskId, { stage, dueAt: '2026-12-05T10:00:00.000Z', timeoutAt: '2026-12-09T10:00:00.000Z', state: 'queued', displayName: 'Customer CRM', owner });

  type Row = { kind: string; audience: string; recipient: unknown; facts: { task?: { id: string } }; channels: string[]; status: string };
  const notificationsOf = (requestId: string): Promise<Row[]> =>
    ds.query(
      `SELECT n.kind, n.audience, n.recipient, n.facts, n.status,
              ARRAY(SELECT s.channel FROM ${qualifiedTable(ds, 'notification_sends')} s WHERE s.notification_id = n.id ORDER BY s.channel) AS channels
         FROM ${qualifiedTable(ds, 'notifications')} n WHERE n.request_id = $1 ORDER BY n.kind`,
      [requestId],
    );

  it("tells a manual system's owner of its task by email and Slack, once, and sends it with the CLI line but no token", async () => {
    const requestId = randomUUID();
    const taskId = randomUUID();
    const eventId = randomUUID();
    await requested(requestId, taskId, 'manual', eventId);
    await requested(requestId, taskId, 'manual', eventId);
    await requested(randomUUID(), randomUUID(), 'push');
    const rows = await notificationsOf(requestId);
    expect(rows).toMatchObject([{ kind: 'task_assigned', audience: 'owner', recipient: owner, facts: { task: { id: taskId } }, channels: ['chat', 'email'], status: 'pending' }]);

    await dispatcher.drain();
    expect((await notificationsOf(requestId))[0].status).toBe('delivered');
    const files = (await readdir(path.join(dataDir, 'mail'))).filter((f) => f.endsWith('.eml'));
    const mails = await Promise.all(files.map((f) => readFile(path.join(dataDir, 'mail', f), 'utf8')));
    const mail = mails.find((m) => m.includes(taskId));
    expect(mail).toBeDefined();
    expect(mail).toMatch(/^To: crm-owner@example\.org/m);
    expect(mail).toContain(`dsar tasks claim ${taskId}`);
    expect(mail).not.toMatch(/dtt_/);
  }, 60_000);

  it('reminds the owner, alerts the operators at the escalation, and purges the owner address with the request', async () => {
    const requestId = randomUUID();
    const taskId = randomUUID();
    await overdue(requestId, taskId, 'reminder');
    await overdue(requestId, taskId, 'escalation');
    expect(await notificationsOf(requestId)).toMatchObject([
      { kind: 'task_escalated', audience: 'operators', recipient: null, channels: ['email'] },
      { kind: 'task_overdue', audience: 'owner', recipient: owner, channels: ['chat', 'email'] },
    ]);
    const purged = await service.app.get(NotificationPurge).purgeRequest(tenant, requestId);
    expect(purged.notifications).toBe(2);
    expect(await notificationsOf(requestId)).toEqual([]);
  }, 60_000);
});

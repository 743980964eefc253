import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { DataSource } from 'typeorm';
import { domainEventCatalog, LifecycleEventTypes, requestReference, Topics } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { BUS_PORT, type BusPort, buildEvent, toBusMessage } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { Dispatcher } from './application/dispatcher';
import { notifierServiceWith, notifierSettingsFrom } from './index';

/**
 * The alert of a duplicate mark through the notifier's own consumer, database and dispatcher (PGlite, the in-memory
 * bus, .eml files): intake's `dsar.request.duplicate_marked.v1` makes one operator notification, however often the
 * event is delivered, written from the event's facts alone (lifecycle-clock is never called).
 */
describe('the alert of a duplicate mark', () => {
  let service: HostedService;
  let ds: DataSource;
  let bus: BusPort;
  let dispatcher: Dispatcher;
  let dataDir: string;
  const tenant = `t-${uniqueSuffix()}`;
  const catalog = domainEventCatalog();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'duplicate-notifications-'));
    // No dispatch interval: sends go out when the test drains the dispatcher.
    const settings = notifierSettingsFrom({ DATA_DIR: dataDir, NOTIFIER_DISPATCH_INTERVAL_MS: 0, NOTIFIER_OPERATOR_EMAILS: ['intake-desk@example.com'], NOTIFIER_DIGEST_TIME: 'off' });
    service = await hostService(notifierServiceWith(settings), testHostConfig({ DATA_DIR: `memory://duplicate-notifications-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }), {
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

  async function marked(requestId: string, duplicateOf: string, id: string): Promise<void> {
    const event = buildEvent(catalog, '/dsar/lifecycle-clock', {
      id,
      type: LifecycleEventTypes.duplicateMarked,
      subject: requestId,
      tenantId: tenant,
      data: {
        requestId,
        tenantId: tenant,
        workspaceId: null,
        duplicateOf,
        matchedKinds: ['email', 'account'],
        windowDays: 30,
        sameIdentityRequests: 3,
        markedAt: '2026-04-20T13:05:00.000Z',
      },
    });
    await bus.publish([toBusMessage(Topics.request, event)]);
  }

  type Row = { kind: string; audience: string; source_event_id: string; facts: Record<string, unknown>; status: string; channels: string[] };
  const notificationsOf = (requestId: string): Promise<Row[]> =>
    ds.query(
      `SELECT n.kind, n.audience, n.source_event_id, n.facts, n.status,
              ARRAY(SELECT s.channel FROM ${qualifiedTable(ds, 'notification_sends')} s WHERE s.notification_id = n.id ORDER BY s.channel) AS channels
         FROM ${qualifiedTable(ds, 'notifications')} n WHERE n.request_id = $1 ORDER BY n.created_at`,
      [requestId],
    );

  it('alerts the operators once per event, however often it is delivered, with both references, what matched and the path to decide', async () => {
    const requestId = randomUUID();
    const duplicateOf = randomUUID();
    const eventId = randomUUID();
    await marked(requestId, duplicateOf, eventId);
    await marked(requestId, duplicateOf, eventId);
    expect(await notificationsOf(requestId)).toEqual([
      {
        kind: 'duplicate_marked',
        audience: 'operators',
        source_event_id: eventId,
        facts: { duplicateOf, matchedKinds: ['email', 'account'], windowDays: 30, sameIdentityRequests: 3, markedAt: '2026-04-20T13:05:00.000Z' },
        status: 'pending',
        channels: ['email'],
      },
    ]);

    await dispatcher.drain();
    expect((await notificationsOf(requestId)).map((n) => n.status)).toEqual(['delivered']);
    const folder = path.join(dataDir, 'mail');
    const mails = await Promise.all((await readdir(folder)).filter((f) => f.endsWith('.eml')).map(async (f) => simpleParser(await readFile(path.join(folder, f)))));
    const alerts = mails.filter((m) => m.text?.includes(requestId));
    expect(alerts).toHaveLength(1);
    const [alert] = alerts;
    expect(alert.to).toMatchObject({ text: 'intake-desk@example.com' });
    expect(alert.subject).toBe(`[DSAR] Marked as a duplicate: ${requestReference(requestId)} of ${requestReference(duplicateOf)}`);
    expect(alert.headers.get('x-dsar-reference')).toBe(requestReference(requestId));
    expect(alert.text).toContain(`Duplicate of: ${requestReference(duplicateOf)} (${duplicateOf})`);
    expect(alert.text).toContain('Matched on: email address and account ID');
    expect(alert.text).toContain('Requests with these identities: 3 in 30 days');
    expect(alert.text).toContain(`POST /api/v1/requests/${requestId}/duplicate-resolution`);
    expect(alert.text).not.toMatch(/undefined|null/);
  }, 60_000);

  it('alerts again for another mark of the same request: the event id, not the request, makes it one', async () => {
    const requestId = randomUUID();
    const duplicateOf = randomUUID();
    const first = randomUUID();
    const second = randomUUID();
    await marked(requestId, duplicateOf, first);
    await marked(requestId, duplicateOf, second);
    await marked(requestId, duplicateOf, first);
    const rows = await notificationsOf(requestId);
    expect(rows.map((n) => n.kind)).toEqual(['duplicate_marked', 'duplicate_marked']);
    expect(rows.map((n) => n.source_event_id).sort()).toEqual([first, second].sort());
  }, 60_000);
});

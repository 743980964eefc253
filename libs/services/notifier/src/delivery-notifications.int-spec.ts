import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { DataSource } from 'typeorm';
import { DeliveryEventTypes, type DeliveryLinkIssued, domainEventCatalog, ErrorCatalog, type Principal, Topics } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { InternalAuthKey, verifyIdentity } from '@dsar/platform/http';
import { BUS_PORT, type BusPort, buildEvent, toBusMessage } from '@dsar/platform/messaging';
import { qualifiedTable, schemaNameFor, UnitOfWork } from '@dsar/platform/persistence';
import { testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { Dispatcher } from './application/dispatcher';
import { NotificationHistoryService } from './application/notification-history';
import { notifierPrincipal } from './application/system-principal';
import { notifierServiceWith, notifierSettingsFrom } from './index';

/**
 * A delivery by email through the notifier's own consumer, database and dispatcher (PGlite, the in-memory bus, .eml
 * files), against a stand-in for lifecycle-clock and fulfilment-delivery: the person gets the link and, apart, its
 * code, each once however often the event comes; the two secrets are in the two emails and nowhere else (no row of
 * the notifier's schema, no log line, not the history); a delivery that is gone there fails for good, an unreachable
 * fulfilment-delivery is tried again.
 */
describe('the emails of a delivery by email', () => {
  const PORTAL = 'https://dsar.example.org/portal/';
  const tenant = `t-${uniqueSuffix()}`;
  const catalog = domainEventCatalog();
  const host = testHostConfig({ DATA_DIR: `memory://delivery-notifications-${uniqueSuffix()}`, DB_MIGRATIONS: 'run', LOG_LEVEL: 'trace' });
  const internalKey = InternalAuthKey.from(host.INTERNAL_AUTH_KEY as string);

  /** What fulfilment-delivery answers for a request: its link, or a problem. */
  type Answer = 'link' | 'not_prepared' | 'unavailable';
  const answers = new Map<string, Answer>();
  const linkCalls: Array<{ requestId: string; key: string; principal: Principal }> = [];
  const issuedSecrets: string[] = [];
  const logs: string[] = [];

  let upstream: Server;
  let service: HostedService;
  let ds: DataSource;
  let bus: BusPort;
  let dispatcher: Dispatcher;
  let dataDir: string;

  /** The link of a key, the same on every call with it (derived, as fulfilment-delivery derives it). */
  function linkOf(requestId: string, key: string): DeliveryLinkIssued {
    const digest = (label: string) => createHash('sha256').update(`${label}:${requestId}:${key}`).digest();
    const hex = digest('link').toString('hex');
    const issued = {
      requestId,
      linkId: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`,
      credential: digest('credential').toString('base64url'),
      code: String(digest('code').readUInt32BE(0) % 100_000_000).padStart(8, '0'),
      expiresAt: '2026-12-04T10:00:00.000Z',
    };
    issuedSecrets.push(issued.credential, issued.code);
    return issued;
  }

  function problem(res: ServerResponse, name: keyof typeof ErrorCatalog): void {
    const entry = ErrorCatalog[name];
    res.writeHead(entry.status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: entry.title, status: entry.status, code: entry.code, name }));
  }

  /** lifecycle-clock's request (with the person's address) and fulfilment-delivery's link, for the notifier's principal only. */
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const principal = verifyIdentity(internalKey, req.method ?? '', req.url ?? '', req.headers);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const link = /^\/internal\/v1\/requests\/([0-9a-f-]{36})\/delivery\/link$/.exec(req.url ?? '');
    if (req.method === 'POST' && link) {
      const { key } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { key: string };
      linkCalls.push({ requestId: link[1], key, principal });
      const answer = answers.get(link[1]);
      if (answer === 'not_prepared') return problem(res, 'DELIVERY_NOTHING_TO_DELIVER');
      if (answer === 'unavailable') return problem(res, 'SERVICE_UNAVAILABLE');
      if (answer !== 'link') return problem(res, 'RESOURCE_NOT_FOUND');
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(linkOf(link[1], key)));
    }
    const request = /^\/internal\/v1\/requests\/([0-9a-f-]{36})$/.exec(req.url ?? '');
    if (req.method === 'GET' && request && answers.has(request[1])) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({
          id: request[1],
          tenantId: tenant,
          workspaceId: null,
          requestType: 'access',
          jurisdiction: 'GB',
          locale: 'en',
          dueAt: '2026-12-20T10:00:00.000Z',
          intakeSource: { channel: 'web', receivedAt: '2026-11-20T10:00:00.000Z', contact: null },
          requestor: { type: 'subject', name: 'Ilse Brandt', email: addressOf(request[1]) },
        }),
      );
    }
    problem(res, 'RESOURCE_NOT_FOUND');
  }

  const addressOf = (requestId: string) => `person-${requestId.slice(0, 8)}@example.org`;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      serve(req, res).catch(() => problem(res, 'INTERNAL_ERROR'));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(path.join(tmpdir(), 'delivery-notifications-'));
    // No dispatch interval: sends go out when the test drains the dispatcher.
    const settings = notifierSettingsFrom({
      DATA_DIR: dataDir,
      PORTAL_URL: PORTAL,
      NOTIFIER_DISPATCH_INTERVAL_MS: 0,
      NOTIFIER_OPERATOR_EMAILS: ['privacy-ops@example.com'],
      NOTIFIER_DIGEST_TIME: 'off',
      NOTIFIER_RETRY_BASE_MS: 60_000,
    });
    const logDestination = new Writable({
      write: (chunk, _encoding, done) => {
        logs.push(String(chunk));
        done();
      },
    });
    service = await hostService(notifierServiceWith(settings), host, { upstreams: { 'lifecycle-clock': upstreamUrl, 'fulfilment-delivery': upstreamUrl }, logDestination });
    await service.startConsuming();
    ds = service.app.get(UnitOfWork).dataSource;
    bus = service.app.get<BusPort>(BUS_PORT);
    dispatcher = service.app.get(Dispatcher);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await new Promise((resolve) => upstream?.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  async function prepared(requestId: string, channel: string, id: string): Promise<void> {
    const event = buildEvent(catalog, '/dsar/fulfilment-delivery', {
      id,
      type: DeliveryEventTypes.prepared,
      subject: requestId,
      tenantId: tenant,
      data: { requestId, tenantId: tenant, workspaceId: null, actor: 'key:ops', occurredAt: new Date().toISOString(), channel, securityLevel: 'token', artifactCount: 2 },
    });
    await bus.publish([toBusMessage(Topics.delivery, event)]);
  }

  type Row = { kind: string; audience: string; status: string; errors: string[] };
  const notificationsOf = (requestId: string): Promise<Row[]> =>
    ds.query(
      `SELECT n.kind, n.audience, n.status,
              ARRAY(SELECT coalesce(a.error, '') FROM ${qualifiedTable(ds, 'notification_attempts')} a WHERE a.notification_id = n.id ORDER BY a.attempt) AS errors
         FROM ${qualifiedTable(ds, 'notifications')} n WHERE n.request_id = $1 ORDER BY n.kind, n.audience`,
      [requestId],
    );

  async function mailsTo(address: string): Promise<ParsedMail[]> {
    const dir = path.join(dataDir, 'mail');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
    const mails = await Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(dir, f)))));
    return mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.text === address);
  }

  /** Every row of every table of the notifier's schema, as text. */
  async function everythingStored(): Promise<string> {
    const schema = schemaNameFor('notifier');
    const tables: Array<{ table_name: string }> = await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, [schema]);
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['notifications', 'notification_sends', 'notification_attempts']));
    const dumps = await Promise.all(tables.map(async (t) => JSON.stringify(await ds.query(`SELECT * FROM "${schema}"."${t.table_name}"`))));
    return dumps.join('\n');
  }

  it('sends the link and, in a second email, its code, both once, asked for under the event as the notifier; neither secret is kept or logged', async () => {
    const requestId = randomUUID();
    const eventId = randomUUID();
    answers.set(requestId, 'link');
    await prepared(requestId, 'email', eventId);
    await prepared(requestId, 'email', eventId);
    expect(await notificationsOf(requestId)).toEqual([
      { kind: 'delivery_code', audience: 'subject', status: 'pending', errors: [] },
      { kind: 'delivery_prepared', audience: 'subject', status: 'pending', errors: [] },
    ]);

    await dispatcher.drain();
    expect((await notificationsOf(requestId)).map((n) => n.status)).toEqual(['delivered', 'delivered']);
    const asked = { requestId, key: eventId, principal: notifierPrincipal(tenant, null) };
    expect(linkCalls.filter((c) => c.requestId === requestId)).toEqual([asked, asked]);

    const { linkId, credential, code } = linkOf(requestId, eventId);
    const mails = await mailsTo(addressOf(requestId));
    expect(mails).toHaveLength(2);
    const linkMail = mails.find((m) => m.subject?.endsWith('your data is ready'));
    const codeMail = mails.find((m) => m.subject?.endsWith('your one-time code'));
    expect(linkMail?.text).toContain(`${PORTAL}#${linkId}.${credential}`);
    expect(linkMail?.html).toContain(`href="${PORTAL}#${linkId}.${credential}"`);
    expect(codeMail?.text).toContain(`${code.slice(0, 4)} ${code.slice(4)}`);
    expect(`${linkMail?.subject}${linkMail?.text}${linkMail?.html}`).not.toContain(`${code.slice(0, 4)} ${code.slice(4)}`);
    expect(`${codeMail?.subject}${codeMail?.text}${codeMail?.html}`).not.toContain(credential);

    const stored = await everythingStored();
    const history = JSON.stringify(await service.app.get(NotificationHistoryService).history({ id: 'key:ops', tenantId: tenant, roles: ['operator'] }, requestId));
    expect(history).toContain('delivery_code');
    for (const secret of [credential, code, linkId]) {
      expect({ secret, stored: stored.includes(secret), logged: logs.join('').includes(secret), history: history.includes(secret) }).toEqual({ secret, stored: false, logged: false, history: false });
    }
    expect(logs.length).toBeGreaterThan(0);
  }, 60_000);

  it('tells of a delivery through the portal once, without asking for a link', async () => {
    const requestId = randomUUID();
    answers.set(requestId, 'link');
    await prepared(requestId, 'portal', randomUUID());
    await dispatcher.drain();
    expect(await notificationsOf(requestId)).toEqual([{ kind: 'delivery_prepared', audience: 'subject', status: 'delivered', errors: [''] }]);
    expect(linkCalls.filter((c) => c.requestId === requestId)).toEqual([]);
  }, 60_000);

  it('fails both emails for good when the delivery is no longer prepared there, and alerts operators; tries again while fulfilment-delivery is unavailable', async () => {
    const gone = randomUUID();
    answers.set(gone, 'not_prepared');
    await prepared(gone, 'email', randomUUID());
    const down = randomUUID();
    answers.set(down, 'unavailable');
    await prepared(down, 'email', randomUUID());
    await dispatcher.drain();

    const notPrepared = 'delivery of the request is no longer prepared: no download link to send';
    // One alert to operators for each (sent in a round of its own).
    const alert = { kind: 'notification_failed', audience: 'operators', status: expect.any(String), errors: expect.any(Array) };
    expect(await notificationsOf(gone)).toEqual([
      { kind: 'delivery_code', audience: 'subject', status: 'failed', errors: [notPrepared] },
      { kind: 'delivery_prepared', audience: 'subject', status: 'failed', errors: [notPrepared] },
      alert,
      alert,
    ]);
    expect(await notificationsOf(down)).toEqual([
      { kind: 'delivery_code', audience: 'subject', status: 'retrying', errors: ['fulfilment-delivery could not be reached'] },
      { kind: 'delivery_prepared', audience: 'subject', status: 'retrying', errors: ['fulfilment-delivery could not be reached'] },
    ]);
    const [mine] = await mailsTo(addressOf(gone));
    expect(mine).toBeUndefined();
    const secretsInStore = await everythingStored();
    for (const secret of issuedSecrets) expect(secretsInStore.includes(secret)).toBe(false);
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type { BusMessage } from '@dsar/platform/messaging';
import { MemoryBus } from '@dsar/platform/messaging';
import { KafkaBus } from '@dsar/platform/messaging/kafka';
import { type ReceivedMail, type SlackStandIn, startMailServer, startSlackStandIn, type TestMailServer, waitFor } from '@dsar/platform/testing';
import { DailyDigest, NotificationPurge } from '@dsar/services/notifier';
import type { SystemConfig } from '../system';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import type { TestSystem } from './systems';

type Attempt = { attempt: number; channel: string; destination: string; status: string; createdAt: string; error?: string };
type NotificationView = { eventId: string; eventType: string; audience: string; status: string; createdAt: string; attempts: Attempt[] };

const OPS_EMAIL = 'privacy-ops@tenant-a.example';
const OPS_CHANNEL = '#privacy-ops';
const TENANT_C_CHANNEL = '#privacy-c';
const SLACK_TOKEN = 'xoxb-test-0000000000-notifier';
const HOUR = 3_600_000;

/** The test's SMTP server and Slack stand-in, started before the system; their addresses go into `settings`. */
export interface NotificationServers {
  mail: TestMailServer;
  slack: SlackStandIn;
}

/**
 * Starts a real SMTP server and a Slack Web API stand-in before the system
 * (this beforeAll runs before the system's, which reads `settings` then),
 * and configures the notifier to use them, with quick retries.
 */
export function notificationServers(settings: Record<string, unknown>): () => NotificationServers {
  let servers: NotificationServers;
  beforeAll(async () => {
    servers = { mail: await startMailServer(), slack: await startSlackStandIn({ token: SLACK_TOKEN }) };
    Object.assign(settings, {
      SMTP_URL: servers.mail.url,
      SLACK_BOT_TOKEN: SLACK_TOKEN,
      SLACK_API_URL: servers.slack.apiUrl,
      NOTIFIER_DISPATCH_INTERVAL_MS: 200,
      NOTIFIER_RETRY_BASE_MS: 300,
      NOTIFIER_RETRY_MAX_MS: 1000,
      NOTIFIER_MAX_ATTEMPTS: 4,
      NOTIFIER_DIGEST_TIME: 'off',
      // The scenarios poll the history through the gateway: no rate limit.
      RATE_LIMIT_PER_MINUTE: 0,
      NOTIFIER_TENANT_SETTINGS: {
        // The digest is due from midnight UTC: the digest scenario moves the clock to a day of its own.
        'tenant-a': { sender: 'Tenant A Privacy <privacy@tenant-a.example>', operatorEmails: [OPS_EMAIL], slackChannel: OPS_CHANNEL, digestTime: '00:00', timeZone: 'UTC' },
        // A channel of its own, so that a planned Slack failure meets only this tenant's messages.
        'tenant-c': { slackChannel: TENANT_C_CHANNEL },
      },
    });
  });
  afterAll(async () => {
    await servers?.mail.close();
    await servers?.slack.close();
  });
  return () => servers;
}

/** The reference people see for a request: DSAR- and the id's first eight hex digits. */
const referenceOf = (id: string) => `DSAR-${id.replace(/-/g, '').slice(0, 8).toUpperCase()}`;

/**
 * Issue [notifier] end to end through the gateway, with a real SMTP server
 * and a Slack stand-in: who hears what (the data subject by email in their
 * language, operators on Slack and by email), transient and permanent
 * failures with retries and operator alerts, a restart of the notifier in the
 * middle of retries, replay, a domain event delivered twice, dead letters,
 * the digest, the history and its purge, tenancy and roles.
 */
export function notificationScenarios(getSystem: () => TestSystem, servers: () => NotificationServers, config: () => Partial<SystemConfig> = () => ({})): void {
  let admin: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });
  const mail = () => servers().mail;
  const slack = () => servers().slack;
  const now = () => getSystem().clock.now();

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  async function create(overrides: Record<string, unknown> = {}, source: Record<string, unknown> = {}): Promise<string> {
    const res = await admin.post('/requests/capture', intake({ jurisdiction: 'DE', ...overrides }, { receivedAt: new Date(now().getTime() - HOUR).toISOString(), ...source }));
    expect(res.status).toBe(202);
    return res.body.id as string;
  }

  /** A German access request of Jana, acknowledged. */
  async function germanRequest(email = `jana.${randomUUID().slice(0, 8)}@example.org`, overrides: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
    const id = await create(
      { requestType: 'access', requestor: { type: 'subject', name: 'Jana Schmidt', email }, ...overrides },
      { rawText: 'Ich möchte gemäß Art. 15 DSGVO Auskunft über alle meine personenbezogenen Daten.', contact: email },
    );
    return { id, email };
  }

  const history = async (id: string, as = admin): Promise<NotificationView[]> => {
    const res = await as.get(`/requests/${id}/notifications`);
    expect(res.status).toBe(200);
    expect(res.body.requestId).toBe(id);
    return res.body.events as NotificationView[];
  };
  const notificationOf = async (id: string, kind: string, status?: string) =>
    waitFor(`${kind} of ${id}${status ? ` ${status}` : ''}`, async () => (await history(id)).find((e) => e.eventType === kind && (status === undefined || e.status === status)), { timeoutMs: 20_000 });
  const mailTo = (to: string, about: (m: ParsedMail) => boolean = () => true) => mail().waitFor((m) => m.envelope.to.includes(to) && about(m.parsed), 20_000);
  const mailsTo = (to: string) => mail().messages.filter((m) => m.envelope.to.includes(to));
  const timelineTypes = async (id: string) => ((await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string }>).map((e) => e.eventType);
  const acknowledge = (id: string, message?: string) => admin.post(`/requests/${id}/acknowledgements`, message ? { message } : {});
  const headerOf = (m: ReceivedMail, name: string) => String(m.parsed.headers.get(name) ?? '');

  afterEach(() => {
    mail().clearFailures();
  });

  describe('who hears what', () => {
    it('a new request: operators on Slack and by email, with no personal data', async () => {
      const { id, email } = await germanRequest();
      const ref = referenceOf(id);
      const call = await slack().waitFor((c) => c.method === 'chat.postMessage' && String(c.body.text ?? '').includes(ref), 20_000);
      expect(call).toEqual(expect.objectContaining({ token: SLACK_TOKEN, body: expect.objectContaining({ channel: OPS_CHANNEL }) }));
      const ops = await mailTo(OPS_EMAIL, (m) => (m.text ?? '').includes(ref));
      for (const text of [String(call.body.text), ops.parsed.text ?? '', ops.parsed.html || '']) {
        expect(text).not.toContain('Jana');
        expect(text).not.toContain(email);
      }
      const created = await notificationOf(id, 'request_created', 'delivered');
      expect(created.audience).toBe('operators');
      expect(created.attempts.map((a) => [a.channel, a.status]).sort()).toEqual([
        ['chat', 'delivered'],
        ['email', 'delivered'],
      ]);
      expect(created.attempts.find((a) => a.channel === 'email')?.destination).toBe('p***@tenant-a.example');
      // Nothing went to the data subject before the acknowledgement.
      expect(mailsTo(email)).toEqual([]);
    });

    it("the receipt goes out with the acknowledgement, in German, with the operator's words and the due date", async () => {
      const { id, email } = await germanRequest();
      expect((await acknowledge(id, 'Wir haben Ihre Anfrage erhalten und melden uns.')).status).toBe(202);
      const m = await mailTo(email);
      expect(m.envelope.from).toBe('privacy@tenant-a.example');
      expect(m.parsed.subject).toContain(referenceOf(id));
      expect(m.parsed.text).toContain('Wir haben Ihre Anfrage erhalten und melden uns.');
      expect(headerOf(m, 'content-language')).toBe('de');
      const detail = (await admin.get(`/requests/${id}`)).body;
      const due = new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'Europe/Berlin' }).format(new Date(detail.dueAt));
      expect(m.parsed.text).toContain(due);
      expect(m.parsed.html).toContain(due);
      const receipt = await notificationOf(id, 'request_acknowledged', 'delivered');
      expect(receipt).toEqual({
        eventId: expect.any(String),
        eventType: 'request_acknowledged',
        audience: 'subject',
        status: 'delivered',
        createdAt: expect.any(String),
        attempts: [{ attempt: 1, channel: 'email', destination: `j***@example.org`, status: 'delivered', createdAt: expect.any(String) }],
      });
      expect(await waitFor('notification_delivered on the timeline', async () => (await timelineTypes(id)).includes('notification_delivered'))).toBe(true);
    });

    it('a clarification carries the question; an extension its dates and reasons (GDPR Art 12(3))', async () => {
      const { id, email } = await germanRequest();
      await acknowledge(id);
      await mailTo(email);
      expect((await admin.post(`/requests/${id}/extensions`, { additionalMonths: 2, justification: 'complexity', reason: 'Ihre Anfrage betrifft sehr viele Systeme.' })).status).toBe(202);
      const extended = await mailTo(email, (m) => (m.text ?? '').includes('Ihre Anfrage betrifft sehr viele Systeme.'));
      const detail = (await admin.get(`/requests/${id}`)).body;
      const de = (iso: string) => new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'Europe/Berlin' }).format(new Date(iso));
      expect(extended.parsed.text).toContain(de(detail.dueAt));
      expect((await admin.post(`/requests/${id}/clarifications/request`, { message: 'Bitte nennen Sie uns Ihre Kundennummer.' })).status).toBe(202);
      const question = await mailTo(email, (m) => (m.text ?? '').includes('Bitte nennen Sie uns Ihre Kundennummer.'));
      expect(question.parsed.subject).toContain(referenceOf(id));
      expect((await notificationOf(id, 'deadline_extended', 'delivered')).audience).toBe('subject');
      await notificationOf(id, 'clarification_requested', 'delivered');
    });

    it('a refusal in English names the reason and the right to complain', async () => {
      const email = `sam.${randomUUID().slice(0, 8)}@example.org`;
      const id = await create(
        { jurisdiction: 'GB', requestType: 'access', requestor: { type: 'subject', name: 'Sam', email } },
        { rawText: 'Please send me a copy of my personal data.', contact: email },
      );
      await acknowledge(id);
      await mailTo(email);
      expect((await admin.post(`/requests/${id}/refusals`, { reason: 'manifestly_unfounded', message: 'Your request repeats one we answered last week.' })).status).toBe(202);
      const refused = await mailTo(email, (m) => (m.text ?? '').includes('Your request repeats one we answered last week.'));
      expect(headerOf(refused, 'content-language')).toBe('en');
      expect(refused.parsed.text).toMatch(/complain/i);
      await notificationOf(id, 'request_refused', 'delivered');
    });

    it('a fulfilment produces a delivered request_fulfilled notification in the history', async () => {
      const { id, email } = await germanRequest(undefined, { requestType: 'deletion' });
      await acknowledge(id);
      expect((await admin.post(`/requests/${id}/fulfilment`, {})).status).toBe(202);
      await mailTo(email, (m) => (m.subject ?? '').includes(referenceOf(id)) && !(m.text ?? '').includes('Wir haben'));
      const fulfilled = await notificationOf(id, 'request_fulfilled', 'delivered');
      expect(fulfilled.attempts).toEqual([expect.objectContaining({ attempt: 1, channel: 'email', status: 'delivered' })]);
      expect((await history(id)).map((e) => e.eventType)).toEqual(expect.arrayContaining(['request_created', 'request_acknowledged', 'request_fulfilled']));
    });
  });

  describe('failures and retries', () => {
    it('a transient failure (SMTP 451) is retried and then delivered', async () => {
      const { id, email } = await germanRequest();
      await notificationOf(id, 'request_created', 'delivered');
      mail().failNext(1, 451, 'Try again later', 'data', email);
      await acknowledge(id);
      const receipt = await notificationOf(id, 'request_acknowledged', 'delivered');
      expect(receipt.attempts.map((a) => a.status)).toEqual(['retrying', 'delivered']);
      expect(receipt.attempts[0].error).toContain('451');
      expect(receipt.attempts[0].error).not.toContain(email);
      expect(mailsTo(email)).toHaveLength(1);
    });

    it('a permanent failure (SMTP 550) fails at once and alerts operators', async () => {
      const { id, email } = await germanRequest();
      await notificationOf(id, 'request_created', 'delivered');
      mail().failNext(1, 550, 'Mailbox unavailable', 'data', email);
      await acknowledge(id);
      const failed = await notificationOf(id, 'request_acknowledged', 'failed');
      expect(failed.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 'failed', error: expect.stringContaining('550') })]);
      const alert = await notificationOf(id, 'notification_failed', 'delivered');
      expect(alert.audience).toBe('operators');
      await slack().waitFor((c) => c.method === 'chat.postMessage' && String(c.body.text).includes(referenceOf(id)) && String(c.body.text).includes('request_acknowledged'), 20_000);
      expect(await waitFor('notification_failed on the timeline', async () => (await timelineTypes(id)).includes('notification_failed'))).toBe(true);
      expect(mailsTo(email)).toEqual([]);
    });

    it('a data subject without an email address: failed permanently, operators alerted', async () => {
      const id = await create({ requestor: { type: 'subject', name: 'Chat Person' } }, { channel: 'chat', contact: 'U024BE7LH' });
      await acknowledge(id);
      const failed = await notificationOf(id, 'request_acknowledged', 'failed');
      expect(failed.attempts[0]).toEqual(expect.objectContaining({ destination: '(unresolved)', error: expect.stringContaining('no email address') }));
      await notificationOf(id, 'notification_failed', 'delivered');
    });

    it('a refusal that found no address is sent once the contact is corrected after the decision; wrong role, other tenant, bad input change nothing', async () => {
      const id = await create({ jurisdiction: 'GB', requestType: 'access', requestor: { type: 'subject', name: 'Chat Person' } }, { channel: 'chat', contact: 'U024BE7LH' });
      expect((await admin.post(`/requests/${id}/refusals`, { reason: 'no_data_held' })).status).toBe(202);
      const failed = await notificationOf(id, 'request_refused', 'failed');
      expect(failed.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 'failed', error: expect.stringContaining('no email address') })]);

      const email = `chat.person.${randomUUID().slice(0, 8)}@example.org`;
      const corrected = { type: 'subject', name: 'Chat Person', email };
      expectProblem(await admin.as(KEYS.auditorA.token).call('PUT', `/api/v1/requests/${id}/requestor`, { json: corrected }), 403, 'SVC-BE-1302');
      expectProblem(await admin.as(KEYS.operatorB.token).call('PUT', `/api/v1/requests/${id}/requestor`, { json: corrected }), 404, 'SVC-BE-1003');
      for (const bad of [
        { ...corrected, type: 'neighbour' },
        { ...corrected, email: 'not an address' },
        { ...corrected, fax: '+49 170 1234567' },
      ]) {
        expectProblem(await admin.call('PUT', `/api/v1/requests/${id}/requestor`, { json: bad }), 400, 'SVC-BE-1102');
      }
      expect((await admin.get(`/requests/${id}`)).body.requestor).toEqual({ type: 'subject', name: 'Chat Person' });
      expect((await history(id)).find((e) => e.eventId === failed.eventId)?.attempts).toHaveLength(1);

      const res = await admin.call('PUT', `/api/v1/requests/${id}/requestor`, { json: corrected });
      expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: { id, status: 'refused', dueAt: expect.any(String) } });
      const refusal = await mailTo(email, (m) => (m.subject ?? '').includes(referenceOf(id)));
      expect(refusal.parsed.text).toMatch(/complain/i);
      const sent = await notificationOf(id, 'request_refused', 'delivered');
      expect(sent.eventId).toBe(failed.eventId);
      expect(sent.attempts.map((a) => [a.attempt, a.status])).toEqual([
        [1, 'failed'],
        [2, 'delivered'],
      ]);
      const timeline = await waitFor('the correction and the resend on the timeline', async () => {
        const events = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
        const replayed = events.find((e) => e.eventType === 'notification_replayed');
        return replayed && events.some((e) => e.eventType === 'request_requestor_replaced') ? { events, replayed } : undefined;
      });
      expect(timeline.replayed.payload).toMatchObject({ notificationId: failed.eventId, kind: 'request_refused', cause: 'contact_corrected', actor: expect.any(String) });
      expect(JSON.stringify(timeline.events)).not.toContain(email);

      // Once: a further correction sends nothing that was delivered.
      expect((await admin.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { ...corrected, name: 'C. Person' } })).status).toBe(202);
      await waitFor('the second correction on the timeline', async () => (await timelineTypes(id)).filter((t) => t === 'request_requestor_replaced').length === 2);
      await new Promise((r) => setTimeout(r, 600));
      expect(mailsTo(email)).toHaveLength(1);
      expect((await history(id)).find((e) => e.eventId === failed.eventId)?.attempts).toHaveLength(2);
    }, 90_000);

    it('a Slack rate limit waits for Retry-After, then delivers', async () => {
      slack().rateLimitNext(1, 1, TENANT_C_CHANNEL);
      const tenantC = admin.as(KEYS.queueC.token);
      const res = await tenantC.post('/requests/capture', intake({ jurisdiction: 'DE', requestType: 'access' }, { receivedAt: new Date(now().getTime() - HOUR).toISOString() }));
      expect(res.status).toBe(202);
      const id = res.body.id as string;
      const created = await waitFor(
        'request_created delivered in tenant C',
        async () => {
          const r = await tenantC.get(`/requests/${id}/notifications`);
          return (r.body.events as NotificationView[] | undefined)?.find((e) => e.eventType === 'request_created' && e.status === 'delivered');
        },
        { timeoutMs: 20_000 },
      );
      const chat = created.attempts.filter((a) => a.channel === 'chat');
      expect(chat.map((a) => a.status)).toEqual(['retrying', 'delivered']);
      expect(chat[0].error).toContain('rate limit');
      // Not before Slack's Retry-After of one second.
      expect(new Date(chat[1].createdAt).getTime() - new Date(chat[0].createdAt).getTime()).toBeGreaterThanOrEqual(950);
      expect(slack().calls.filter((c) => c.body.channel === TENANT_C_CHANNEL && String(c.body.text).includes(referenceOf(id)))).toHaveLength(2);
    });

    it('a restart of the notifier in the middle of retries loses nothing and sends nothing twice', async () => {
      const { id, email } = await germanRequest();
      await notificationOf(id, 'request_created', 'delivered');
      mail().failNext(1000, 421, 'Service not available', 'data', email);
      await acknowledge(id);
      await waitFor('a retry', async () => (await history(id)).find((e) => e.eventType === 'request_acknowledged' && e.status === 'retrying'));
      await getSystem().restart('notifier');
      mail().clearFailures();
      const receipt = await notificationOf(id, 'request_acknowledged', 'delivered');
      expect(receipt.attempts.at(-1)?.status).toBe('delivered');
      expect(receipt.attempts.slice(0, -1).every((a) => a.status === 'retrying')).toBe(true);
      const got = mailsTo(email);
      expect(got).toHaveLength(1);
      expect(headerOf(got[0], 'message-id')).toMatch(/^<[0-9a-f-]{36}@/);
    });
  });

  describe('replay', () => {
    it('sends again as a new attempt, honours Idempotency-Key, and is on the timeline', async () => {
      const { id, email } = await germanRequest();
      await acknowledge(id);
      const receipt = await notificationOf(id, 'request_acknowledged', 'delivered');
      const key = randomUUID();
      const first = await admin.post(`/requests/${id}/notifications/${receipt.eventId}/replay`, undefined, { headers: { 'idempotency-key': key } });
      expect({ status: first.status, body: first.body }).toEqual({ status: 202, body: { eventId: receipt.eventId, status: 'replayed' } });
      const again = await admin.post(`/requests/${id}/notifications/${receipt.eventId}/replay`, undefined, { headers: { 'idempotency-key': key } });
      expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 202, body: first.body, replayed: 'true' });
      const replayed = await waitFor('the second attempt', async () => {
        const n = (await history(id)).find((e) => e.eventId === receipt.eventId);
        return n && n.attempts.length === 2 && n.status === 'delivered' ? n : undefined;
      });
      expect(replayed.attempts.map((a) => [a.attempt, a.status])).toEqual([
        [1, 'delivered'],
        [2, 'delivered'],
      ]);
      expect(mailsTo(email)).toHaveLength(2);
      expect(await waitFor('notification_replayed on the timeline', async () => (await timelineTypes(id)).includes('notification_replayed'))).toBe(true);
    });

    it('two replays at once with one key send once more', async () => {
      const { id, email } = await germanRequest();
      await acknowledge(id);
      const receipt = await notificationOf(id, 'request_acknowledged', 'delivered');
      const key = randomUUID();
      const both = await Promise.all([0, 1].map(() => admin.post(`/requests/${id}/notifications/${receipt.eventId}/replay`, undefined, { headers: { 'idempotency-key': key } })));
      expect(both.map((r) => r.status).sort()).toEqual(expect.arrayContaining([202]));
      for (const r of both) expect([202, 409]).toContain(r.status);
      await waitFor('the replay', async () => ((await history(id)).find((e) => e.eventId === receipt.eventId)?.attempts.length ?? 0) >= 2);
      await new Promise((r) => setTimeout(r, 600));
      expect(mailsTo(email)).toHaveLength(2);
    });

    it("an unknown notification, another request's, another tenant, a wrong role: 404, 404, 404, 403, and nothing sent", async () => {
      const { id, email } = await germanRequest();
      const other = await germanRequest();
      await acknowledge(id);
      await acknowledge(other.id);
      const receipt = await notificationOf(id, 'request_acknowledged', 'delivered');
      await notificationOf(other.id, 'request_acknowledged', 'delivered');
      expectProblem(await admin.post(`/requests/${id}/notifications/${randomUUID()}/replay`, undefined), 404, 'SVC-BE-1003');
      expectProblem(await admin.post(`/requests/${id}/notifications/not-an-id/replay`, undefined), 404, 'SVC-BE-1003');
      expectProblem(await admin.post(`/requests/${other.id}/notifications/${receipt.eventId}/replay`, undefined), 404, 'SVC-BE-1003');
      const tenantB = admin.as(KEYS.operatorB.token);
      expectProblem(await tenantB.post(`/requests/${id}/notifications/${receipt.eventId}/replay`, undefined), 404, 'SVC-BE-1003');
      expectProblem(await tenantB.get(`/requests/${id}/notifications`), 404, 'SVC-BE-1003');
      expectProblem(await admin.get(`/requests/${randomUUID()}/notifications`), 404, 'SVC-BE-1003');
      const auditor = admin.as(KEYS.auditorA.token);
      expectProblem(await auditor.post(`/requests/${id}/notifications/${receipt.eventId}/replay`, undefined), 403, 'SVC-BE-1302');
      expect((await auditor.get(`/requests/${id}/notifications`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 600));
      // Other requests' mail goes on meanwhile; these two requesters got their receipt and nothing more.
      expect(mailsTo(email)).toHaveLength(1);
      expect(mailsTo(other.email)).toHaveLength(1);
      expect((await history(id)).find((e) => e.eventId === receipt.eventId)?.attempts).toHaveLength(1);
    });
  });

  describe('delivery of events', () => {
    it('a domain event delivered twice sends one message', async () => {
      const { id, email } = await germanRequest();
      await acknowledge(id);
      await notificationOf(id, 'request_acknowledged', 'delivered');
      const timeline = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ id: string; eventType: string; createdAt: string; payload: Record<string, unknown> }>;
      const ack = timeline.find((e) => e.eventType === 'request_acknowledged')!;
      const envelope = {
        specversion: '1.0',
        id: ack.id,
        type: 'dsar.request.acknowledged.v1',
        source: '/dsar/lifecycle-clock',
        subject: id,
        time: ack.createdAt,
        datacontenttype: 'application/json',
        tenantid: KEYS.adminA.tenantId,
        data: ack.payload,
      };
      await publish(getSystem, config, [{ topic: 'dsar.request.v1', key: id, value: JSON.stringify(envelope), headers: {} }]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(mailsTo(email)).toHaveLength(1);
      expect((await history(id)).filter((e) => e.eventType === 'request_acknowledged')).toHaveLength(1);
    });

    it("a message parked in a dead-letter topic alerts the tenant's operators", async () => {
      const { id } = await germanRequest();
      const parkedId = randomUUID();
      const value = JSON.stringify({
        specversion: '1.0',
        id: parkedId,
        type: 'dsar.request.acknowledged.v1',
        source: '/dsar/lifecycle-clock',
        subject: id,
        tenantid: KEYS.adminA.tenantId,
        data: { broken: true },
      });
      await publish(getSystem, config, [{ topic: 'dsar.request.v1.dlq', key: id, value, headers: { 'dlq-reason': 'invalid_payload', 'dlq-consumer': 'dsar.audit-ledger' } }]);
      const parked = await notificationOf(id, 'message_parked', 'delivered');
      expect(parked.audience).toBe('operators');
      const call = await slack().waitFor((c) => c.method === 'chat.postMessage' && String(c.body.text).includes('invalid_payload') && String(c.body.text).includes('dsar.request.v1.dlq'), 20_000);
      expect(String(call.body.text)).toContain('dsar.audit-ledger');
    });
  });

  describe('digest and retention', () => {
    it('the daily digest lists overdue requests once a day', async () => {
      const overdue = await create({}, { receivedAt: new Date(now().getTime() - 200 * 24 * HOUR).toISOString() });
      // A day no digest was sent for yet.
      getSystem().clock.set(new Date(now().getTime() + 3 * 24 * HOUR));
      const digest = getSystem().services.get('notifier')!.app.get(DailyDigest);
      await digest.run();
      expect(await digest.run()).toBe(0);
      const m = await mailTo(OPS_EMAIL, (p) => (p.text ?? '').includes(referenceOf(overdue)));
      expect(m.parsed.text).not.toContain('Jana');
    });

    it("the notification_log purge deletes a request's notifications and says so on the timeline", async () => {
      const { id } = await germanRequest();
      await acknowledge(id);
      await notificationOf(id, 'request_acknowledged', 'delivered');
      await notificationOf(id, 'request_created', 'delivered');
      const before = await history(id);
      const purge = getSystem().services.get('notifier')!.app.get(NotificationPurge);
      const got = await purge.purgeRequest(KEYS.adminA.tenantId, id);
      // request_created (operators: chat and email) and request_acknowledged (the subject: email).
      expect(got).toEqual({ notifications: 2, attempts: 3 });
      expect(await history(id)).toEqual([]);
      const purged = await waitFor('notification_purged on the timeline', async () => {
        const events = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
        return events.find((e) => e.eventType === 'notification_purged');
      });
      expect(purged.payload).toEqual(expect.objectContaining({ requestId: id, workspaceId: null, notificationIds: before.map((n) => n.eventId).sort(), attempts: 3 }));
      expect(await purge.purgeRequest(KEYS.adminA.tenantId, id)).toEqual({ notifications: 0, attempts: 0 });
    });
  });
}

/** Puts messages on the system's bus as a producer would: the in-memory bus, or Kafka under the run's topic prefix. */
async function publish(getSystem: () => TestSystem, config: () => Partial<SystemConfig>, messages: BusMessage[]): Promise<void> {
  const c = config();
  if (c.BUS_DRIVER !== 'kafka') {
    await MemoryBus.instance().publish(messages);
    return;
  }
  const bus = new KafkaBus({ brokers: String(c.KAFKA_BROKERS).split(','), clientId: 'notifications-test', topicPrefix: c.KAFKA_TOPIC_PREFIX, service: 'test', log: () => undefined });
  try {
    await bus.publish(messages);
  } finally {
    await bus.close();
  }
  void getSystem;
}

import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { requestReference, taggedRequestReference } from '@dsar/contracts';
import { startMailServer, type TestMailServer, waitFor } from '@dsar/platform/testing';
import { signDelivery, webhookSecretKey } from '@dsar/services/intake-gateway';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import type { TestSystem } from './systems';

/** Two mail secrets, as during a rotation: the provider may sign with either. */
const MAIL_SECRETS = [`whsec_${randomBytes(24).toString('base64')}`, `whsec_${randomBytes(32).toString('base64')}`];
const SLACK_SECRET = randomBytes(16).toString('hex');
const MAILBOX = 'privacy@tenant-a.example';
const OPS_EMAIL = 'privacy-ops@tenant-a.example';
const TEAM = 'T0TENANTA';
const CHANNEL = 'C0PRIVACY';
const DAY = 86_400_000;
/** The request reference keys, as during a rotation: the notifier tags with the first, intake takes both. */
const REFERENCE_KEYS = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];

/** The webhook settings of the scenarios' system: the secrets, and routes of tenant-a for a mailbox and a Slack team. */
export const WEBHOOK_SETTINGS = {
  MAIL_WEBHOOK_SECRET: MAIL_SECRETS,
  SLACK_SIGNING_SECRET: SLACK_SECRET,
  INBOUND_ROUTES: [
    { mailbox: MAILBOX, tenantId: 'tenant-a', jurisdiction: 'de' },
    { slackTeamId: TEAM, tenantId: 'tenant-a', jurisdiction: 'GB' },
  ],
  REQUEST_REFERENCE_KEY: REFERENCE_KEYS.join(','),
  // Operators of tenant-a hear by email (appeals by reply alert them).
  NOTIFIER_TENANT_SETTINGS: { 'tenant-a': { operatorEmails: [OPS_EMAIL] } },
  // The notifier sends at once, to the test's SMTP server (replyMailServer); no digest.
  NOTIFIER_DISPATCH_INTERVAL_MS: 200,
  NOTIFIER_DIGEST_TIME: 'off',
  // The scenarios poll timelines through the gateway: no rate limit.
  RATE_LIMIT_PER_MINUTE: 0,
};

/**
 * An SMTP server for the notifier's emails, started before the system (this beforeAll runs before the system's, which
 * reads `settings` then): the scenarios reply to the reference the email to the data subject carries.
 */
export function replyMailServer(settings: Record<string, unknown>): () => TestMailServer {
  let server: TestMailServer;
  beforeAll(async () => {
    server = await startMailServer();
    Object.assign(settings, { SMTP_URL: server.url });
  });
  afterAll(async () => server?.close());
  return () => server;
}

/** The machine's time in Unix seconds: what signatures are checked against (docs/adr/0019), not the system's clock. */
function unixNow(): number {
  // eslint-disable-next-line no-restricted-syntax -- signature timestamps are infrastructure time, like the providers'
  return Math.floor(Date.now() / 1000);
}

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/** A delivery signed the Standard Webhooks way, under the `webhook-*` names or Resend's `svix-*` ones. */
function signedMail(payload: unknown, options: { id?: string; at?: number; secret?: string; names?: 'webhook' | 'svix' } = {}): Delivery {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const id = options.id ?? `msg_${randomUUID().replace(/-/g, '')}`;
  const timestamp = String(options.at ?? unixNow());
  const signature = `v1,${signDelivery(webhookSecretKey(options.secret ?? MAIL_SECRETS[0]), id, timestamp, Buffer.from(body, 'utf8'))}`;
  const names = options.names ?? 'webhook';
  return { body, headers: { 'content-type': 'application/json', [`${names}-id`]: id, [`${names}-timestamp`]: timestamp, [`${names}-signature`]: signature } };
}

/** A request signed as Slack signs it. */
function signedSlack(payload: unknown, options: { at?: number; secret?: string; retry?: number } = {}): Delivery {
  const body = JSON.stringify(payload);
  const timestamp = String(options.at ?? unixNow());
  const signature = `v0=${createHmac('sha256', options.secret ?? SLACK_SECRET)
    .update(`v0:${timestamp}:${body}`)
    .digest('hex')}`;
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-slack-signature': signature,
      'x-slack-request-timestamp': timestamp,
      ...(options.retry ? { 'x-slack-retry-num': String(options.retry), 'x-slack-retry-reason': 'http_timeout' } : {}),
    },
  };
}

/** A generic-shape email to the routed mailbox. */
function email(data: Record<string, unknown>, createdAt: string): Record<string, unknown> {
  return { created_at: createdAt, type: 'email.received', data: { from: 'Jana Schmidt <jana.schmidt@example.org>', to: [MAILBOX], messageId: `<${randomUUID()}@mail.example.org>`, ...data } };
}

/** A message id of Slack: Unix seconds and a unique fraction. */
const slackTs = () => `${unixNow()}.${String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0')}`;

/** A Slack message event of the routed team. */
function slackMessage(event: Record<string, unknown>, eventId = `Ev${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`): Record<string, unknown> {
  return {
    token: 'x',
    team_id: TEAM,
    api_app_id: 'A0APP',
    type: 'event_callback',
    event_id: eventId,
    event_time: unixNow(),
    event: { type: 'message', channel: CHANNEL, user: 'U0JANA', ts: slackTs(), ...event },
  };
}

/**
 * Issue [webhooks] end to end through the gateway's public routes: a captured
 * email whose deadline counts from the provider's time, both payload shapes and
 * both header names, rotated secrets, replies matched by thread and by
 * reference (a pending clarification received, a reply on the timeline), a
 * newsletter ignored, a replayed delivery that creates nothing, every signature
 * failure and an unrouted mailbox refused with nothing stored; Slack's URL
 * verification, a captured message, its retry, a bot's message and an edit,
 * a thread reply, and a bad signature. Replies from others than the requester
 * (issue 35, finding 3): recorded unverified, answering no clarification;
 * a reference with a wrong tag, or a guessed short one, matches nothing.
 */
export function webhookScenarios(getSystem: () => TestSystem, mail: () => TestMailServer): void {
  let admin: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });
  const now = () => getSystem().clock.now();
  const daysAgo = (days: number) => new Date(now().getTime() - days * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');

  const deliver = (path: 'mail' | 'chat', delivery: Delivery) => admin.call('POST', `/api/v1/webhooks/inbound/${path}`, { token: null, headers: delivery.headers, raw: delivery.body });
  const intakeDb = () => getSystem().services.get('intake-gateway')!.app.get(DataSource);
  const storedDeliveries = async (deliveryId: string): Promise<number> =>
    Number((await intakeDb().query('SELECT count(*)::int AS n FROM intake_gateway.inbound_messages WHERE delivery_id = $1', [deliveryId]))[0].n);
  const queueTotal = async (): Promise<number> => (await admin.get('/requests?limit=1')).body.total as number;
  /** The events of `type` on a request's timeline (with `match`), once there is one: intake's events reach the ledger a moment after the answer. */
  const timelineOf = (id: string, type: string, match: (payload: Record<string, unknown>) => boolean = () => true) =>
    waitFor(
      `${type} on the timeline of ${id}`,
      async () => {
        const events = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
        const found = events.filter((e) => e.eventType === type && match(e.payload));
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 20_000 },
    );

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  describe('inbound email', () => {
    it('captures a request whose deadline counts from when the provider received the email', async () => {
      const receivedAt = daysAgo(10);
      const payload = email({ subject: 'Löschung meiner Daten', text: 'Bitte löschen Sie mein Kundenkonto und alle meine personenbezogenen Daten gemäß Art. 17 DSGVO.' }, receivedAt);
      const delivery = signedMail(payload);
      const res = await deliver('mail', delivery);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        id: expect.any(String),
        jurisdiction: 'DE',
        receivedAt: new Date(receivedAt).toISOString(),
        sourceId: (payload.data as { messageId: string }).messageId,
        status: 'captured',
        tenantId: 'tenant-a',
        workspaceId: null,
      });

      const detail = (await admin.get(`/requests/${res.body.id}`)).body;
      expect(detail).toMatchObject({ status: 'received', requestType: 'deletion', requestTypeInferred: true, jurisdiction: 'DE', locale: 'de' });
      expect(detail.intakeSource).toMatchObject({ channel: 'email', receivedAt: new Date(receivedAt).toISOString(), contact: 'jana.schmidt@example.org' });
      expect(detail.intakeSource.rawText).toContain('Bitte löschen Sie mein Kundenkonto');
      expect(detail.intakeSource.sourceEvidence).toEqual([
        expect.objectContaining({
          type: 'email_message',
          reference: `message-id:${(payload.data as { messageId: string }).messageId}`,
          sha256: createHash('sha256').update(delivery.body).digest('hex'),
        }),
        expect.objectContaining({ type: 'webhook_delivery', reference: `generic:${delivery.headers['webhook-id']}` }),
      ]);
      // The same request captured through the API with the same receipt is due at the same time; one received now is due later.
      const same = await admin.post('/requests/capture', intake({ jurisdiction: 'DE', requestType: 'deletion' }, { receivedAt }));
      const today = await admin.post('/requests/capture', intake({ jurisdiction: 'DE', requestType: 'deletion' }, { receivedAt: daysAgo(0) }));
      expect(detail.dueAt).toBe(same.body.dueAt);
      expect(new Date(detail.dueAt).getTime()).toBeLessThan(new Date(today.body.dueAt).getTime());

      const [captured] = await timelineOf(res.body.id, 'intake_message_captured');
      expect(captured.payload).toMatchObject({
        requestId: res.body.id,
        outcome: 'created',
        reason: 'matched_subject_request',
        surface: 'inbound_mail',
        provider: 'generic',
        requestType: 'deletion',
        language: 'de',
      });
      expect(JSON.stringify(captured.payload)).not.toContain('Kundenkonto');
      expect(JSON.stringify(captured.payload)).not.toContain('jana.schmidt');
    });

    it("reads Resend's email.received under svix-* headers, signed with the second secret of a rotation", async () => {
      const emailId = randomUUID();
      const createdAt = daysAgo(2);
      const payload = {
        type: 'email.received',
        created_at: daysAgo(0),
        data: {
          email_id: emailId,
          created_at: createdAt,
          from: 'Tom <tom@example.org>',
          to: ['someone-else@tenant-a.example'],
          received_for: [MAILBOX],
          cc: [],
          bcc: [],
          message_id: `<${emailId}@resend.example>`,
          subject: 'Subject access request under Article 15 GDPR',
          attachments: [],
        },
      };
      const res = await deliver('mail', signedMail(payload, { names: 'svix', secret: MAIL_SECRETS[1] }));
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'captured', sourceId: emailId, receivedAt: new Date(createdAt).toISOString() });
      const detail = (await admin.get(`/requests/${res.body.id}`)).body;
      expect(detail).toMatchObject({ requestType: 'access', intakeSource: { channel: 'email', rawText: 'Subject access request under Article 15 GDPR', contact: 'tom@example.org' } });
      expect(detail.intakeSource.sourceEvidence[0]).toMatchObject({ reference: `resend:email:${emailId}` });
    });

    it('matches a reply in the thread to its request: the pending clarification is received, when the provider received it', async () => {
      const first = email({ subject: 'Data request', text: 'Please send me a copy of my personal data.' }, daysAgo(3));
      const created = await deliver('mail', signedMail(first));
      const id = created.body.id as string;
      expect((await admin.post(`/requests/${id}/clarifications/request`, { message: 'Which of your two accounts do you mean?' })).status).toBe(202);
      const before = await queueTotal();
      // To the millisecond: the answer comes after the question, which was asked a moment ago.
      const answeredAt = now().toISOString();
      const reply = email(
        {
          subject: 'Re: Data request',
          text: 'The one registered under this address.\n\nOn Mon, Privacy Team <privacy@tenant-a.example> wrote:\n> Which of your two accounts do you mean?',
          inReplyTo: (first.data as { messageId: string }).messageId,
          references: [(first.data as { messageId: string }).messageId],
        },
        answeredAt,
      );
      const res = await deliver('mail', signedMail(reply));
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id, status: 'captured', jurisdiction: 'DE' });
      expect((await admin.get(`/requests/${id}`)).body.status).toBe('in_progress');
      expect(await queueTotal()).toBe(before);
      const [received] = await timelineOf(id, 'request_clarification_received');
      expect(received.payload).toMatchObject({ receivedAt: new Date(answeredAt).toISOString(), clockResumed: true, hasMessage: true, actor: 'system:inbound-mail' });
      const [captured] = await timelineOf(id, 'intake_message_captured', (p) => p.reason === 'matched_thread');
      expect(captured.payload).toMatchObject({ outcome: 'clarification_received' });
    });

    it("matches a reply that quotes the request's reference in its subject: recorded on the timeline of an open request", async () => {
      const created = await deliver('mail', signedMail(email({ subject: 'Auskunft', text: 'Ich bitte um Auskunft über meine Daten nach Art. 15 DSGVO.' }, daysAgo(1))));
      const id = created.body.id as string;
      const before = await queueTotal();
      const reference = taggedRequestReference(id, REFERENCE_KEYS[0]);
      const res = await deliver('mail', signedMail(email({ subject: `Re: Ihr Antrag ${reference}`, text: 'Danke, ich warte auf Ihre Antwort.' }, daysAgo(0))));
      expect(res.body).toMatchObject({ id, status: 'captured' });
      expect(await queueTotal()).toBe(before);
      expect((await admin.get(`/requests/${id}`)).body.status).toBe('received');
      const [reply] = await timelineOf(id, 'intake_message_captured', (p) => p.outcome === 'reply_recorded');
      expect(reply.payload).toMatchObject({ reason: 'matched_reference', requestType: null, senderVerified: true });
    });

    it("ignores a newsletter: no request, a record without its words, an event on the tenant's chain", async () => {
      const before = await queueTotal();
      const delivery = signedMail(
        email(
          {
            from: 'Acme Outdoor <news@acme-outdoor.example>',
            subject: 'Our spring sale starts now',
            text: 'Save up to 40% on all jackets! Delete old accounts you no longer use.\n\nYou are receiving this email because you signed up for our newsletter. Unsubscribe here.',
          },
          daysAgo(0),
        ),
      );
      const res = await deliver('mail', delivery);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: 'ignored_non_dsar', tenantId: 'tenant-a', jurisdiction: 'DE' });
      expect((await admin.get(`/requests/${res.body.id}`)).status).toBe(404);
      expect(await queueTotal()).toBe(before);
      const [row] = await intakeDb().query('SELECT status, outcome, reason, request_id, response_body::text AS body FROM intake_gateway.inbound_messages WHERE delivery_id = $1', [
        delivery.headers['webhook-id'],
      ]);
      expect(row).toMatchObject({ status: 'ignored_non_dsar', outcome: 'ignored', reason: 'bulk_mail', request_id: null });
      expect(row.body).not.toContain('jackets');
      const audit = getSystem().services.get('audit-ledger')!.app.get(DataSource);
      await waitFor("the ignored message on the tenant's chain", async () => {
        const rows = await audit.query(`SELECT payload FROM audit_ledger.audit_entries WHERE request_id = 'tenant:tenant-a' AND event_type = 'dsar.intake.message_ignored.v1'`);
        return rows.some((r: { payload: unknown }) => JSON.stringify(r.payload).includes(delivery.headers['webhook-id']));
      });
    });

    it('acknowledges an event type other than email.received as ignored', async () => {
      const res = await deliver('mail', signedMail({ type: 'email.delivered', created_at: daysAgo(0), data: { email_id: randomUUID(), to: [MAILBOX] } }));
      expect(res.body).toMatchObject({ status: 'ignored_non_dsar' });
    });

    it('answers a replayed delivery with its first answer and creates nothing new, under a fresh signature too', async () => {
      const id = `msg_replay_${randomUUID().replace(/-/g, '')}`;
      const payload = email({ subject: 'Delete my account', text: 'Please delete my account and all my data.' }, daysAgo(1));
      const first = await deliver('mail', signedMail(payload, { id }));
      expect(first.status).toBe(202);
      const before = await queueTotal();
      for (const delivery of [signedMail(payload, { id }), signedMail(payload, { id, names: 'svix', secret: MAIL_SECRETS[1], at: unixNow() - 60 })]) {
        const again = await deliver('mail', delivery);
        expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({ status: 202, body: first.body, replayed: 'true' });
      }
      expect(await queueTotal()).toBe(before);
      expect(await storedDeliveries(id)).toBe(1);
    });

    it('refuses every signature failure and an unrouted mailbox with a problem, storing nothing', async () => {
      const before = await queueTotal();
      const payload = email({ subject: 'Delete my data', text: 'Please delete my personal data.' }, daysAgo(0));
      const good = signedMail(payload);
      const strip = (names: string[]) => ({ ...good, headers: Object.fromEntries(Object.entries(good.headers).filter(([k]) => !names.includes(k))) });
      const cases: [string, Delivery, number, string][] = [
        ['no signature headers', strip(['webhook-id', 'webhook-timestamp', 'webhook-signature']), 401, 'SVC-BE-1601'],
        ['no signature', strip(['webhook-signature']), 401, 'SVC-BE-1601'],
        ['a bad signature', { ...good, headers: { ...good.headers, 'webhook-signature': 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=' } }, 401, 'SVC-BE-1601'],
        ['another body than the signed one', { ...good, body: good.body.replace('Delete', 'Erase') }, 401, 'SVC-BE-1601'],
        ['a secret not configured', signedMail(payload, { secret: `whsec_${randomBytes(24).toString('base64')}` }), 401, 'SVC-BE-1601'],
        ['a stale timestamp', signedMail(payload, { at: unixNow() - 6 * 60 }), 401, 'SVC-BE-1602'],
        ['a timestamp from the future', signedMail(payload, { at: unixNow() + 6 * 60 }), 401, 'SVC-BE-1602'],
        ['an unrouted mailbox', signedMail({ ...payload, data: { ...(payload.data as object), to: ['someone@elsewhere.example'] } }), 422, 'SVC-BE-1603'],
      ];
      for (const [what, delivery, status, code] of cases) {
        const res = await deliver('mail', delivery);
        expect({ what, status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ what, status, code, type: expect.stringContaining('application/problem+json') });
        const id = delivery.headers['webhook-id'];
        if (id) expect({ what, stored: await storedDeliveries(id) }).toEqual({ what, stored: 0 });
      }
      expect(await queueTotal()).toBe(before);
    });

    it('refuses a signed delivery that is not an email of either shape (400), and one that is not JSON', async () => {
      expectProblem(await deliver('mail', signedMail({ type: 'email.received', created_at: daysAgo(0), data: { messageId: 'x' } })), 400, 'SVC-BE-1102');
      expectProblem(await deliver('mail', signedMail('{"type": ')), 400, 'SVC-BE-1101');
    });
  });

  describe('replies from others than the requester', () => {
    const QUESTION = 'Which of your two accounts do you mean?';
    const ANSWER = 'The one registered under this address.';
    const STRANGER = 'Mallory <mallory@elsewhere.example>';
    const statusOf = async (id: string) => (await admin.get(`/requests/${id}`)).body.status as string;
    const clockStateOf = async (id: string) => (await admin.get(`/requests/${id}/clock/explain`)).body.clock.state as string;
    const eventsOf = async (id: string, type: string) => ((await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string }>).filter((e) => e.eventType === type);

    /** A request emailed by `address` a few days ago, with a clarification asked of it just now: the clock is paused. */
    async function pendingClarification(address: string): Promise<string> {
      const created = await deliver('mail', signedMail(email({ from: `Jana Schmidt <${address}>`, subject: 'Data request', text: 'Please send me a copy of my personal data.' }, daysAgo(3))));
      expect(created.body.status).toBe('captured');
      const id = created.body.id as string;
      expect((await admin.post(`/requests/${id}/clarifications/request`, { message: QUESTION })).status).toBe(202);
      expect({ status: await statusOf(id), clock: await clockStateOf(id) }).toEqual({ status: 'clarification_pending', clock: 'paused' });
      return id;
    }
    const janasAddress = () => `jana.${randomUUID().slice(0, 8)}@example.org`;

    it("the requester's reply quoting the tagged reference of the notifier's email answers the clarification", async () => {
      const address = janasAddress();
      const id = await pendingClarification(address);
      const question = await mail().waitFor((m) => m.envelope.to.includes(address) && (m.parsed.text ?? '').includes(QUESTION), 20_000);
      const subject = question.parsed.subject ?? '';
      expect(subject).toContain(taggedRequestReference(id, REFERENCE_KEYS[0]));
      expect(question.parsed.headers.get('x-dsar-reference')).toBe(taggedRequestReference(id, REFERENCE_KEYS[0]));

      const answeredAt = now().toISOString();
      // The requester's address, as a mail program may write it: another case, a display name.
      const res = await deliver('mail', signedMail(email({ from: `Jana <${address.toUpperCase()}>`, subject: `Re: ${subject}`, text: ANSWER }, answeredAt)));
      expect(res.body).toMatchObject({ id, status: 'captured' });
      expect({ status: await statusOf(id), clock: await clockStateOf(id) }).toEqual({ status: 'in_progress', clock: 'running' });
      const [received] = await timelineOf(id, 'request_clarification_received');
      expect(received.payload).toMatchObject({ receivedAt: new Date(answeredAt).toISOString(), clockResumed: true, actor: 'system:inbound-mail' });
      const [captured] = await timelineOf(id, 'intake_message_captured', (p) => p.outcome === 'clarification_received');
      expect(captured.payload).toMatchObject({ reason: 'matched_reference', senderVerified: true });
    });

    it("a stranger's mail quoting the tagged reference answers nothing: the clock stays paused, the timeline shows an unverified reply an operator can confirm", async () => {
      const id = await pendingClarification(janasAddress());
      const answeredAt = now().toISOString();
      const delivery = signedMail(email({ from: STRANGER, subject: `Re: Your request ${taggedRequestReference(id, REFERENCE_KEYS[0])}: we need more information`, text: ANSWER }, answeredAt));
      const res = await deliver('mail', delivery);
      expect(res.body).toMatchObject({ id, status: 'captured' });
      const [unverified] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === delivery.headers['webhook-id']);
      expect(unverified.payload).toMatchObject({ outcome: 'reply_recorded', reason: 'matched_reference', senderVerified: false, sourceId: expect.any(String) });
      expect(JSON.stringify(unverified.payload)).not.toContain('mallory');
      expect({ status: await statusOf(id), clock: await clockStateOf(id), received: await eventsOf(id, 'request_clarification_received') }).toEqual({
        status: 'clarification_pending',
        clock: 'paused',
        received: [],
      });

      // The operator reads the mail at the provider, confirms it with the requester, and records it as the answer.
      expect((await admin.post(`/requests/${id}/clarifications/receive`, { message: 'Confirmed by phone: the account of this address.', receivedAt: answeredAt })).status).toBe(202);
      expect(await statusOf(id)).toBe('in_progress');
      const [received] = await timelineOf(id, 'request_clarification_received');
      expect(received.payload).toMatchObject({ receivedAt: new Date(answeredAt).toISOString(), actor: expect.not.stringMatching(/^system:/) });
    });

    it('a reference with a wrong tag matches nothing, even from the requester; one of the earlier key still does', async () => {
      const address = janasAddress();
      const id = await pendingClarification(address);
      const before = await queueTotal();
      for (const reference of [taggedRequestReference(id, randomBytes(32).toString('base64')), `${requestReference(id)}-${'0'.repeat(13)}`]) {
        const res = await deliver('mail', signedMail(email({ from: address, subject: `Re: Your request ${reference}`, text: ANSWER }, now().toISOString())));
        expect({ reference, status: res.body.status }).toEqual({ reference, status: 'ignored_non_dsar' });
      }
      expect({ status: await statusOf(id), clock: await clockStateOf(id), queue: await queueTotal() }).toEqual({ status: 'clarification_pending', clock: 'paused', queue: before });

      const rotated = await deliver('mail', signedMail(email({ from: address, subject: `Re: Your request ${taggedRequestReference(id, REFERENCE_KEYS[1])}`, text: ANSWER }, now().toISOString())));
      expect(rotated.body).toMatchObject({ id, status: 'captured' });
      expect(await statusOf(id)).toBe('in_progress');
    });

    it("a guessed short reference matches nothing; from the requester's address it is only recorded, unverified, and its thread proves nothing later", async () => {
      const address = janasAddress();
      const id = await pendingClarification(address);
      const guessed = await deliver('mail', signedMail(email({ from: STRANGER, subject: `Re: ${requestReference(id)}`, text: ANSWER }, now().toISOString())));
      expect(guessed.body.status).toBe('ignored_non_dsar');
      expect(await statusOf(id)).toBe('clarification_pending');

      // The short form of emails sent before references were tagged: from the request's address (which anyone can
      // forge), an unverified reply for an operator to confirm.
      const legacy = email({ from: address, subject: `Re: Your request ${requestReference(id)}`, text: ANSWER }, now().toISOString());
      const recorded = signedMail(legacy);
      expect((await deliver('mail', recorded)).body).toMatchObject({ id, status: 'captured' });
      const [unverified] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === recorded.headers['webhook-id']);
      expect(unverified.payload).toMatchObject({ outcome: 'reply_recorded', reason: 'matched_reference', senderVerified: false });
      // A reply in that message's thread is no reply in the request's thread.
      const messageId = (legacy.data as { messageId: string }).messageId;
      const inItsThread = await deliver(
        'mail',
        signedMail(email({ from: address, subject: 'Re: Re: Your request', text: ANSWER, inReplyTo: messageId, references: [messageId] }, now().toISOString())),
      );
      expect(inItsThread.body.status).toBe('ignored_non_dsar');
      expect({ status: await statusOf(id), clock: await clockStateOf(id), received: await eventsOf(id, 'request_clarification_received') }).toEqual({
        status: 'clarification_pending',
        clock: 'paused',
        received: [],
      });
    });

    it("a reply of another Slack user in the request's thread is recorded unverified; the requester's answers", async () => {
      const first = slackMessage({ text: 'Hi, please send me a copy of all my personal data.' });
      const created = await deliver('chat', signedSlack(first));
      const id = created.body.id as string;
      const thread = (first.event as { ts: string }).ts;
      expect((await admin.post(`/requests/${id}/clarifications/request`, { message: QUESTION })).status).toBe(202);
      const other = slackMessage({ text: ANSWER, user: 'U0TOM', thread_ts: thread });
      expect((await deliver('chat', signedSlack(other))).body).toMatchObject({ id, status: 'captured', reason: 'matched_thread' });
      const [unverified] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === other.event_id);
      expect(unverified.payload).toMatchObject({ outcome: 'reply_recorded', senderVerified: false });
      expect(await statusOf(id)).toBe('clarification_pending');

      // Its time from the system's clock, so that it is never earlier than the question (a random fraction of the
      // current second could be, and a reply older than the question answers nothing).
      const answeredAt = now().getTime();
      const requesterTs = `${Math.floor(answeredAt / 1000)}.${String((answeredAt % 1000) * 1000).padStart(6, '0')}`;
      expect((await deliver('chat', signedSlack(slackMessage({ text: ANSWER, thread_ts: thread, ts: requesterTs })))).body).toMatchObject({ id, status: 'captured', reason: 'matched_thread' });
      expect(await statusOf(id)).toBe('in_progress');
    });
  });

  describe('appeals by reply (issue 37, item 7)', () => {
    const DISAGREE = 'I disagree with your decision: you do hold data about me, I had an account until last year.';
    type Appeal = { id: string; message: string; status: string; createdAt: string; dueAt: string };
    const appealsOf = async (id: string) => (await admin.get(`/requests/${id}/appeals`)).body as Appeal[];
    const operatorMail = (id: string, about: (text: string) => boolean) =>
      mail().waitFor((m) => m.envelope.to.includes(OPS_EMAIL) && (m.parsed.subject ?? '').includes(requestReference(id)) && about(`${m.parsed.subject}\n${m.parsed.text ?? ''}`), 30_000);

    /** A request of `address` in `jurisdiction`, refused just now; the refusal email to the requester, once sent. */
    async function refused(jurisdiction: string, address: string) {
      const res = await admin.post(
        '/requests/capture',
        intake({ jurisdiction, requestType: 'access', requestor: { type: 'subject', name: 'Jana', email: address } }, { receivedAt: daysAgo(2), contact: address }),
      );
      expect(res.status).toBe(202);
      const id = res.body.id as string;
      expect((await admin.post(`/requests/${id}/refusals`, { reason: 'no_data_held' })).status).toBe(202);
      const email = await mail().waitFor((m) => m.envelope.to.includes(address) && (m.parsed.subject ?? '').includes(taggedRequestReference(id, REFERENCE_KEYS[0])), 30_000);
      return { id, email };
    }
    const reply = (from: string, subject: string, text: string) => signedMail(email({ from, subject: `Re: ${subject}`, text }, now().toISOString()));

    it("the requester's reply to a refusal in a jurisdiction with an appeal files one, on the appeal clock, audited, and alerts operators; a second reply files none", async () => {
      const address = `jana.${randomUUID().slice(0, 8)}@example.org`;
      const { id, email: refusal } = await refused('US-VA', address);
      expect(refusal.parsed.text).toContain('simply reply to this message');
      const before = await queueTotal();

      const delivery = reply(address, refusal.parsed.subject ?? '', DISAGREE);
      const receivedAt = JSON.parse(delivery.body).created_at as string;
      const res = await deliver('mail', delivery);
      expect(res.body).toMatchObject({ id, status: 'captured' });
      expect(await queueTotal()).toBe(before);
      const [appeal, ...more] = await appealsOf(id);
      expect(more).toEqual([]);
      expect(appeal).toMatchObject({ status: 'appeal_submitted', message: expect.stringContaining(DISAGREE) });
      // Virginia: 60 days from the reply's receipt.
      const days = (new Date(appeal.dueAt).getTime() - new Date(receivedAt).getTime()) / DAY;
      expect(days).toBeGreaterThan(59);
      expect(days).toBeLessThan(62);
      expect((await admin.get(`/requests/${id}`)).body.status).toBe('refused');

      const [submitted] = await timelineOf(id, 'request_appeal_submitted');
      expect(submitted.payload).toMatchObject({ appealId: appeal.id, appealDueAt: appeal.dueAt, channel: 'email', actor: 'system:inbound-mail' });
      const [captured] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === delivery.headers['webhook-id']);
      expect(captured.payload).toMatchObject({ outcome: 'appeal_filed', senderVerified: true, appealId: appeal.id, appealDueAt: appeal.dueAt });
      expect(JSON.stringify(captured.payload)).not.toContain('disagree');
      const audit = getSystem().services.get('audit-ledger')!.app.get(DataSource);
      await waitFor('the appeal on the audit chain', async () => {
        const rows = await audit.query(`SELECT count(*)::int AS n FROM audit_ledger.audit_entries WHERE request_id = $1 AND event_type = 'dsar.request.appeal_submitted.v1'`, [id]);
        return rows[0].n === 1;
      });
      // Operators hear of it; the requester is told it was received.
      const alert = await operatorMail(id, (text) => text.includes('Appeal by reply'));
      expect(alert.parsed.text).not.toContain(address);
      expect(alert.parsed.text).not.toContain('disagree');
      await mail().waitFor((m) => m.envelope.to.includes(address) && (m.parsed.text ?? '').includes('received your appeal'), 30_000);

      // A second reply joins the timeline: one open appeal per request.
      const second = reply(address, refusal.parsed.subject ?? '', 'Also, please hurry.');
      expect((await deliver('mail', second)).body).toMatchObject({ id, status: 'captured' });
      const [joined] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === second.headers['webhook-id']);
      expect(joined.payload).toMatchObject({ outcome: 'reply_recorded', senderVerified: true });
      expect(joined.payload.appealId).toBeUndefined();
      expect(await appealsOf(id)).toHaveLength(1);
    }, 120_000);

    it("a stranger's reply quoting the tagged reference files no appeal: recorded unverified, operators alerted to confirm it", async () => {
      const { id, email: refusal } = await refused('US-VA', `jana.${randomUUID().slice(0, 8)}@example.org`);
      const delivery = reply('Mallory <mallory@elsewhere.example>', refusal.parsed.subject ?? '', DISAGREE);
      expect((await deliver('mail', delivery)).body).toMatchObject({ id, status: 'captured' });
      const [captured] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === delivery.headers['webhook-id']);
      expect(captured.payload).toMatchObject({ outcome: 'reply_recorded', senderVerified: false, appealUnconfirmed: true });
      const alert = await operatorMail(id, (text) => text.includes('to confirm'));
      expect(alert.parsed.text).toContain('No appeal was filed');
      expect(alert.parsed.text).not.toContain('mallory');
      expect(await appealsOf(id)).toEqual([]);
      expect((await admin.get(`/requests/${id}`)).body.status).toBe('refused');
    }, 120_000);

    it('where the law gives no appeal to the controller, the refusal promises none by reply, and a reply files none', async () => {
      const address = `jana.${randomUUID().slice(0, 8)}@example.org`;
      const { id, email: refusal } = await refused('DE', address);
      expect(refusal.parsed.text).not.toMatch(/Einspruch|appeal/i);
      expect(refusal.parsed.text).toMatch(/beschweren|complaint/i);
      const delivery = reply(address, refusal.parsed.subject ?? '', 'Ich bin mit Ihrer Entscheidung nicht einverstanden.');
      expect((await deliver('mail', delivery)).body).toMatchObject({ id, status: 'captured' });
      const [captured] = await timelineOf(id, 'intake_message_captured', (p) => p.deliveryId === delivery.headers['webhook-id']);
      expect(captured.payload).toMatchObject({ outcome: 'reply_recorded', senderVerified: true });
      expect(captured.payload.appealUnconfirmed).toBeUndefined();
      expect(await appealsOf(id)).toEqual([]);
    }, 120_000);
  });

  describe('reading letters (issue 39)', () => {
    const capture = async (subject: string, text: string, from = 'Jana Schmidt <jana.schmidt@example.org>') => {
      const res = await deliver('mail', signedMail(email({ subject, text, from }, daysAgo(1))));
      expect(res.status).toBe(202);
      expect(res.body.status).toBe('captured');
      return (await admin.get(`/requests/${res.body.id}`)).body;
    };
    const inTriage = async (id: string) => ((await admin.get('/requests?triage=true&limit=200')).body.items as Array<{ id: string }>).some((item) => item.id === id);

    it('captures a letter that asks several things with its primary type and every right asked, each with its words', async () => {
      const detail = await capture(
        'Erasure request - Article 17 GDPR',
        [
          'Dear Sir or Madam,',
          '',
          'Under Article 17 GDPR I ask you to erase all personal data you hold about me, including my customer account.',
          'I also withdraw my consent to your newsletter and I object to any profiling of my purchases under Article 21 GDPR.',
          'Please confirm the erasure in writing within the period of Article 12(3) GDPR.',
          '',
          'Kind regards,',
          'Jana Schmidt',
        ].join('\n'),
      );
      expect(detail).toMatchObject({ requestType: 'deletion', requestTypeInferred: true, triage: null, locale: 'en', detectedLanguage: 'en' });
      expect(detail.typeConfidence).toBeGreaterThan(0.5);
      const rights = detail.requestedRights as Array<{ type: string; phrase: string; basis: string }>;
      expect(rights[0]).toEqual({ type: 'deletion', basis: 'citation', phrase: expect.stringContaining('Article 17 GDPR') });
      expect(rights.map((r) => r.type)).toContain('objection');
      // Each right once; the words are the letter's own.
      expect(new Set(rights.map((r) => r.type)).size).toBe(rights.length);
      for (const right of rights) expect(detail.intakeSource.rawText.replace(/\s+/g, ' ')).toContain(right.phrase.replace(/…$/, ''));
      const [captured] = await timelineOf(detail.id, 'intake_message_captured');
      expect(captured.payload).toMatchObject({ requestType: 'deletion', language: 'en' });
      expect(captured.payload).not.toHaveProperty('triageReason');
    });

    it("takes an authorised agent's letter as the agent's, and asks for the evidence of their authority", async () => {
      const detail = await capture(
        'Access request on behalf of my mother',
        [
          'Hello,',
          '',
          'I am writing on behalf of my mother, Greta Lindqvist, who holds an account with you. I act for her under a power of attorney, a copy of which I can provide.',
          'Under Article 15 GDPR, please send her a copy of all the personal data you hold about her.',
          '',
          'Regards,',
          'Oskar Lindqvist',
        ].join('\n'),
        'Oskar Lindqvist <oskar.lindqvist@example.org>',
      );
      expect(detail).toMatchObject({ requestType: 'access', requestor: { type: 'authorized_agent' }, authority: { status: 'pending', evidenceArtifacts: [] } });
    });

    it('leaves a letter in a language intake does not read to triage, with the language detected: no type guessed', async () => {
      const detail = await capture(
        'Usunięcie danych osobowych',
        'Dzień dobry, na podstawie art. 17 RODO proszę o usunięcie wszystkich moich danych osobowych, które Państwo przetwarzają. Proszę o potwierdzenie usunięcia danych.\n\nZ poważaniem,\nJanina Kowalczyk',
        'Janina Kowalczyk <janina.kowalczyk@example.org>',
      );
      expect(detail).toMatchObject({ requestType: null, requestTypeInferred: true, locale: null, detectedLanguage: 'pl', requestedRights: [] });
      expect(detail.triage).toMatchObject({ reason: 'unsupported_language', suggestedType: null });
      expect(await inTriage(detail.id)).toBe(true);
      const [captured] = await timelineOf(detail.id, 'intake_message_captured');
      expect(captured.payload).toMatchObject({ requestType: null, triageReason: 'unsupported_language', language: 'pl' });
      const [created] = await timelineOf(detail.id, 'request_created');
      expect(created.payload).toMatchObject({ requestType: null, triageReason: 'unsupported_language' });
    });

    it('leaves a letter it reads with little confidence to triage, with its best guess, until an operator names the type', async () => {
      const detail = await capture('Your privacy page', 'Hello, I read about the right to erasure and the right of access. What would either mean for my account?');
      expect(detail).toMatchObject({ requestType: null, requestTypeInferred: true, locale: 'en', triage: { reason: 'low_confidence', suggestedType: 'deletion' } });
      expect(detail.triage.confidence).toBeLessThan(0.3);
      expect(await inTriage(detail.id)).toBe(true);
      const operator = admin.as(KEYS.operatorA.token);
      const res = await operator.post(`/requests/${detail.id}/corrections`, { requestType: 'access', reason: 'On the phone the customer asked what we hold about them.' });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ requestType: 'access', previousDueAt: detail.dueAt });
      expect(await admin.get(`/requests/${detail.id}`)).toMatchObject({ body: { requestType: 'access', triage: null, dueAt: res.body.dueAt } });
      expect(await inTriage(detail.id)).toBe(false);
      const clock = (await admin.get(`/requests/${detail.id}/clock/explain`)).body;
      expect(clock.corrections).toEqual([expect.objectContaining({ from: expect.objectContaining({ requestType: null }), to: expect.objectContaining({ requestType: 'access' }) })]);
      expect(clock.steps.join('\n')).toContain('request type (triage) → access');
    });

    it('ignores a support question that names no right, as a message that is not a request', async () => {
      const before = await queueTotal();
      const res = await deliver(
        'mail',
        signedMail(email({ subject: 'Question about my invoice', text: 'Hi, I have a question about my invoice from March: the amount looks higher than my plan. Could you check it?' }, daysAgo(0))),
      );
      expect(res.status).toBe(202);
      expect(res.body.status).toBe('ignored_non_dsar');
      expect(await queueTotal()).toBe(before);
    });
  });

  describe('inbound chat (Slack)', () => {
    it("answers Slack's URL verification with its challenge, when signed", async () => {
      const challenge = randomUUID();
      const res = await deliver('chat', signedSlack({ token: 'x', challenge, type: 'url_verification' }));
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { challenge } });
      expectProblem(await deliver('chat', signedSlack({ token: 'x', challenge, type: 'url_verification' }, { secret: 'f'.repeat(32) })), 401, 'SVC-BE-1601');
    });

    it("captures a message that is a request, and answers Slack's retry of it with the same answer", async () => {
      // Slack's clock a little ahead of ours: the message counts as received now, not in the future.
      const callback = slackMessage({ text: 'Hi, please delete all my personal data from your systems.', ts: `${Math.floor(now().getTime() / 1000) + 2}.000100` });
      const res = await deliver('chat', signedSlack(callback));
      expect(res.status).toBe(200);
      const event = callback.event as { ts: string };
      expect(new Date((await admin.get(`/requests/${res.body.id}`)).body.intakeSource.receivedAt).getTime()).toBeLessThanOrEqual(now().getTime());
      expect(res.body).toEqual({
        callbackId: callback.event_id,
        channelId: CHANNEL,
        id: expect.any(String),
        reason: 'matched_subject_request',
        sourceId: event.ts,
        status: 'captured',
        surface: 'inbound_chat',
        teamId: TEAM,
      });
      const detail = (await admin.get(`/requests/${res.body.id}`)).body;
      expect(detail).toMatchObject({ requestType: 'deletion', jurisdiction: 'GB', intakeSource: { channel: 'chat', contact: `slack://user?team=${TEAM}&id=U0JANA` } });
      const before = await queueTotal();
      const retry = await deliver('chat', signedSlack(callback, { retry: 1 }));
      expect({ status: retry.status, body: retry.body, replayed: retry.headers.get('idempotent-replayed') }).toEqual({ status: 200, body: res.body, replayed: 'true' });
      expect(await queueTotal()).toBe(before);

      // A reply in the message's thread belongs to its request.
      const inThread = await deliver('chat', signedSlack(slackMessage({ text: 'Any news?', thread_ts: event.ts })));
      expect(inThread.body).toMatchObject({ id: res.body.id, status: 'captured', reason: 'matched_thread' });
    });

    it("ignores bots' messages, edits, and messages that are no request, each with its reason", async () => {
      const before = await queueTotal();
      const cases: [Record<string, unknown>, string][] = [
        [{ subtype: 'bot_message', bot_id: 'B0BOT', user: undefined, text: 'Please delete my data' }, 'bot_message'],
        [{ subtype: 'message_changed', text: undefined, message: { text: 'Please delete my data' } }, 'message_edited'],
        [{ text: 'Where is my parcel?' }, 'not_a_request'],
      ];
      for (const [event, reason] of cases) {
        const res = await deliver('chat', signedSlack(slackMessage(event)));
        expect({ status: res.status, statusOf: res.body.status, reason: res.body.reason }).toEqual({ status: 200, statusOf: 'ignored_non_dsar', reason });
      }
      expect(await queueTotal()).toBe(before);
    });

    it('refuses a bad signature, a stale timestamp and an unrouted team, storing nothing', async () => {
      const callback = slackMessage({ text: 'Please delete my data.' });
      expectProblem(await deliver('chat', signedSlack(callback, { secret: 'f'.repeat(32) })), 401, 'SVC-BE-1601');
      expectProblem(await deliver('chat', signedSlack(callback, { at: unixNow() - 6 * 60 })), 401, 'SVC-BE-1602');
      expectProblem(await deliver('chat', { ...signedSlack(callback), headers: { 'content-type': 'application/json' } }), 401, 'SVC-BE-1601');
      expectProblem(await deliver('chat', signedSlack({ ...callback, team_id: 'T0ELSEWHERE' })), 422, 'SVC-BE-1603');
      expect(await storedDeliveries(callback.event_id as string)).toBe(0);
    });
  });
}

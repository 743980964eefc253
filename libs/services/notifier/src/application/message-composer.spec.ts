import { type DeliveryLinkIssued, type Principal, quotedReferences, referenceTagMatches, type RequestDetail } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import type { DeliveryLinkClient, LifecycleClient } from '@dsar/platform/http';
import type { OutgoingEmail } from '../infrastructure/channels';
import type { NotificationEntity } from '../infrastructure/notification.entity';
import { notifierSettingsFrom } from '../notifier-settings';
import { type Composed, MessageComposer, NO_ADDRESS_ERROR } from './message-composer';
import { notifierPrincipal } from './system-principal';

const REQUEST_ID = '1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';
const KEY = 'r'.repeat(32);

const detail = {
  id: REQUEST_ID,
  tenantId: 'tenant-a',
  workspaceId: null,
  status: 'received',
  requestType: 'access',
  requestTypeInferred: false,
  requestedRights: [],
  typeConfidence: null,
  detectedLanguage: null,
  triage: null,
  jurisdiction: 'GB',
  receivedAt: '2026-03-01T09:00:00.000Z',
  dueAt: '2026-04-01T09:00:00.000Z',
  clockMode: 'receipt',
  policyPack: 'uk-gdpr',
  policyVersion: '1.0.0',
  intakeSource: { channel: 'email', rawText: 'Please send me my data.', receivedAt: '2026-03-01T09:00:00.000Z', contact: 'jana@example.org' },
  locale: 'en',
  requestor: { type: 'subject' },
  authority: null,
  appeals: [],
  acknowledgedAt: null,
  acknowledgementDueAt: null,
  statusReason: null,
  statusChangedAt: '2026-03-01T09:00:00.000Z',
  duplicate: null,
  identityActivity: { requests: 1, windowDays: 30 },
  allowedActions: ['acknowledge', 'request_clarification', 'request_verification', 'refuse', 'close'],
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
} as RequestDetail;

const lifecycle = { request: async () => detail, transitionOf: async () => undefined } as unknown as LifecycleClient;
/** No message of these describes asks for a download link. */
const noLinks = { issue: async () => Promise.reject(new Error('no link to be asked for')) } as unknown as DeliveryLinkClient;

function notification(audience: 'subject' | 'operators'): NotificationEntity {
  return {
    id: '0f0e0d0c-0000-4000-8000-000000000001',
    tenantId: 'tenant-a',
    workspaceId: null,
    requestId: REQUEST_ID,
    kind: audience === 'subject' ? 'request_fulfilled' : 'request_created',
    audience,
    sourceKey: 'event-1',
    sourceEventId: null,
    facts: { requestType: 'access', jurisdiction: 'GB', dueAt: detail.dueAt },
    recipient: null,
    status: 'pending',
    createdAt: new Date('2026-03-01T09:00:00Z'),
    updatedAt: new Date('2026-03-01T09:00:00Z'),
  } as NotificationEntity;
}

describe("the reference in the notifier's emails", () => {
  const composer = new MessageComposer(lifecycle, noLinks, notifierSettingsFrom({ REQUEST_REFERENCE_KEY: KEY, NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'] }));

  it('is the tagged reference in the subject, the text and the header of an email to the data subject', async () => {
    const composed = await composer.compose(notification('subject'), 'email', 'send-1');
    if (!composed.ok || !composed.email) throw new Error('expected an email');
    const [quoted] = quotedReferences(composed.email.subject);
    expect(referenceTagMatches(quoted, REQUEST_ID, [KEY])).toBe(true);
    const tagged = composed.email.headers?.['X-DSAR-Reference'];
    expect(tagged).toMatch(/^DSAR-1A2B3C4D-[0-9A-Z]{13}$/);
    expect(composed.email.subject).toContain(tagged);
    expect(composed.email.text).toContain(tagged);
  });

  it("is the short reference in operators' emails, which answers nothing", async () => {
    const composed = await composer.compose(notification('operators'), 'email', 'send-2');
    if (!composed.ok || !composed.email) throw new Error('expected an email');
    expect(composed.email.headers?.['X-DSAR-Reference']).toBe('DSAR-1A2B3C4D');
    expect(quotedReferences(`${composed.email.subject}\n${composed.email.text}`)).toEqual([{ idPrefix: '1a2b3c4d' }]);
  });
});

describe("messages to a data system's owner", () => {
  const composer = new MessageComposer(lifecycle, noLinks, notifierSettingsFrom({ NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'], NOTIFIER_OPERATOR_LOCALE: 'de' }));
  const taskId = '0b7e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c';
  const owned = (recipient: NotificationEntity['recipient']): NotificationEntity => ({
    ...notification('operators'),
    kind: 'task_assigned',
    audience: 'owner',
    facts: { task: { id: taskId, systemKey: 'crm', displayName: 'Customer CRM', action: 'access', mode: 'manual', dueAt: '2026-12-05T10:00:00.000Z' } },
    recipient,
  });

  it("go to the owner's email address and Slack channel, in the operators' language, without reading the request", async () => {
    const noRequest = new MessageComposer(
      { request: async () => Promise.reject(new Error('not to be read')) } as unknown as LifecycleClient,
      noLinks,
      notifierSettingsFrom({ NOTIFIER_OPERATOR_LOCALE: 'de' }),
    );
    const email = await noRequest.compose(owned({ email: 'crm-owner@example.org', slackChannel: '#crm-team' }), 'email', 'send-3');
    if (!email.ok || !email.email) throw new Error('expected an email');
    expect(email.email.to).toBe('crm-owner@example.org');
    expect(email.destination).toBe('c***@example.org');
    expect(email.email.subject).toBe('[DSAR] Neue Aufgabe für Customer CRM: DSAR-1A2B3C4D');
    expect(email.email.text).toContain(`dsar tasks claim ${taskId}`);
    const chat = await noRequest.compose(owned({ email: 'crm-owner@example.org', slackChannel: '#crm-team' }), 'chat', 'send-4');
    if (!chat.ok || !chat.chat) throw new Error('expected a chat message');
    expect(chat.chat.channel).toBe('#crm-team');
    expect(chat.chat.text).toMatch(/^\*\[DSAR\] Neue Aufgabe für Customer CRM: DSAR-1A2B3C4D\*\n/);
  });

  it('fail for good on a channel the owner has no address for', async () => {
    expect(await composer.compose(owned({ email: 'crm-owner@example.org' }), 'chat', 'send-5')).toMatchObject({ ok: false, transient: false, error: "the data system's owner has no Slack channel" });
    expect(await composer.compose(owned({ slackChannel: '#crm-team' }), 'email', 'send-6')).toMatchObject({ ok: false, transient: false, error: "the data system's owner has no email address" });
  });
});

describe('a request in triage (no type yet)', () => {
  const triaged: RequestDetail = { ...detail, requestType: null, locale: 'de', triage: { reason: 'low_confidence', suggestedType: 'access', confidence: 0.41 } };
  const reading = { request: async () => triaged, transitionOf: async () => undefined } as unknown as LifecycleClient;
  const composer = new MessageComposer(reading, noLinks, notifierSettingsFrom({ NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'] }));

  it("is named in neutral words to the data subject, in the request's language", async () => {
    const composed = await composer.compose({ ...notification('subject'), kind: 'request_acknowledged' }, 'email', 'send-7');
    if (!composed.ok || !composed.email) throw new Error('expected an email');
    expect(composed.email.text).toContain('Datenschutzanfrage');
    expect(composed.email.text).not.toMatch(/null|undefined|triage/);
  });

  it('is named in neutral words to operators, from the facts of its event', async () => {
    const composed = await composer.compose({ ...notification('operators'), facts: { requestType: null, jurisdiction: 'GB', dueAt: detail.dueAt } }, 'email', 'send-8');
    if (!composed.ok || !composed.email) throw new Error('expected an email');
    expect(`${composed.email.subject}\n${composed.email.text}`).toContain('Data protection request');
    expect(composed.email.text).not.toMatch(/\bnull\b|undefined/);
  });
});

describe('the alert of a duplicate mark', () => {
  const primary = '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f';
  const unread = { request: async () => Promise.reject(new Error('not to be read')) } as unknown as LifecycleClient;
  const composer = new MessageComposer(unread, noLinks, notifierSettingsFrom({ NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'] }));
  const marked: NotificationEntity = {
    ...notification('operators'),
    kind: 'duplicate_marked',
    facts: { duplicateOf: primary, matchedKinds: ['account'], windowDays: 7, sameIdentityRequests: 2, markedAt: '2026-03-01T09:00:05.000Z' },
  };

  it("is written from the event's facts without reading the request: both short references, what matched, the count and the path", async () => {
    const composed = await composer.compose(marked, 'email', 'send-9');
    if (!composed.ok || !composed.email) throw new Error('expected an email');
    expect(composed.email.subject).toBe('[DSAR] Marked as a duplicate: DSAR-1A2B3C4D of DSAR-5C6D7E8F');
    expect(composed.email.text).toContain(`Duplicate of: DSAR-5C6D7E8F (${primary})`);
    expect(composed.email.text).toContain('Matched on: account ID');
    expect(composed.email.text).toContain('Requests with these identities: 2 in 7 days');
    expect(composed.email.text).toContain(`POST /api/v1/requests/${REQUEST_ID}/duplicate-resolution`);
    expect(quotedReferences(`${composed.email.subject}\n${composed.email.text}`)).toEqual([{ idPrefix: '1a2b3c4d' }, { idPrefix: '5c6d7e8f' }]);
  });
});

describe('the two emails of a delivery by email', () => {
  const PORTAL = 'https://dsar.example.org/portal/';
  const EVENT_ID = '7c1d2e3f-4a5b-4c6d-9e8f-0a1b2c3d4e5f';
  const LINK_ID = '2f3e4d5c-6b7a-4980-a1b2-c3d4e5f60718';
  const CREDENTIAL = 'tR7vQ2mX9kLp4sWn8bYc1dFg6hJz0aE5uIo3eRtY-_k';
  const CODE = '40719385';
  const LINK = `${PORTAL}#${LINK_ID}.${CREDENTIAL}`;
  const issued: DeliveryLinkIssued = { requestId: REQUEST_ID, linkId: LINK_ID, credential: CREDENTIAL, code: CODE, expiresAt: '2026-03-04T10:00:00.000Z' };
  const SECRETS = [CREDENTIAL, CODE, '4071 9385'];

  /** A fulfilment-delivery that answers `answer` and notes every call. */
  function links(answer: () => Promise<DeliveryLinkIssued> = async () => issued) {
    const calls: Array<{ principal: Principal; requestId: string; key: string; language?: string }> = [];
    const client = {
      issue: async (principal: Principal, requestId: string, command: { key: string; language?: string }) => {
        calls.push({ principal, requestId, ...command });
        return answer();
      },
    } as unknown as DeliveryLinkClient;
    return { client, calls };
  }

  const ofDelivery = (kind: 'delivery_prepared' | 'delivery_code', channel = 'email'): NotificationEntity => ({
    ...notification('subject'),
    kind,
    sourceKey: EVENT_ID,
    sourceEventId: EVENT_ID,
    facts: { channel, securityLevel: 'token', artifactCount: 2 },
  });

  const settings = notifierSettingsFrom({ PORTAL_URL: PORTAL });

  async function emailOf(composed: Promise<Composed>): Promise<OutgoingEmail> {
    const c = await composed;
    if (!c.ok || !c.email) throw new Error(`expected an email, got ${JSON.stringify(c)}`);
    return c.email;
  }

  it('ask fulfilment-delivery, as the notifier, for the link of the event they come from: one has the link, the other its code, both its expiry', async () => {
    const stub = links();
    const composer = new MessageComposer(lifecycle, stub.client, settings);
    const prepared = await emailOf(composer.compose(ofDelivery('delivery_prepared'), 'email', 'send-10'));
    const code = await emailOf(composer.compose(ofDelivery('delivery_code'), 'email', 'send-11'));
    // The page is to speak the emails' language: the request's.
    const asked = { principal: notifierPrincipal('tenant-a', null), requestId: REQUEST_ID, key: EVENT_ID, language: 'en' };
    expect(stub.calls).toEqual([asked, asked]);

    expect(prepared.to).toBe('jana@example.org');
    expect(prepared.text).toContain(`open this link:\n\n${LINK}\n`);
    expect(prepared.html).toContain(`<a href="${LINK}">${LINK}</a>`);
    expect(code.text).toContain('Your one-time code for downloading your data is:\n\n4071 9385\n');
    expect(code.html).toContain('4071 9385');
    for (const email of [prepared, code]) expect(email.text).toContain('valid until March 4, 2026');
    // Each email carries one secret: the link never travels with its code.
    for (const part of [prepared.subject, prepared.text, prepared.html]) for (const secret of [CODE, '4071 9385']) expect(part).not.toContain(secret);
    for (const part of [code.subject, code.text, code.html]) for (const secret of [CREDENTIAL, LINK_ID, PORTAL]) expect(part).not.toContain(secret);
  });

  it('write a delivery on another channel as before, without asking for a link', async () => {
    const stub = links(async () => Promise.reject(new Error('no link to be asked for')));
    const email = await emailOf(new MessageComposer(lifecycle, stub.client, settings).compose(ofDelivery('delivery_prepared', 'portal'), 'email', 'send-12'));
    expect(stub.calls).toEqual([]);
    expect(email.text).toContain('You will receive it through our secure portal.');
    expect(email.text).not.toContain(PORTAL);
  });

  it('ask for no link for a request without an address: the link would revoke the earlier one for nothing', async () => {
    const stub = links();
    const unaddressed = {
      request: async () => ({ ...detail, intakeSource: { ...detail.intakeSource, contact: '+44 20 7946 0000' } }),
      transitionOf: async () => undefined,
    } as unknown as LifecycleClient;
    expect(await new MessageComposer(unaddressed, stub.client, settings).compose(ofDelivery('delivery_code'), 'email', 'send-13')).toEqual({
      ok: false,
      transient: false,
      error: NO_ADDRESS_ERROR,
      destination: '(unresolved)',
    });
    expect(stub.calls).toEqual([]);
  });

  it("wait while the download page's address is not known (an embedded runner whose gateway has no port yet)", async () => {
    const stub = links();
    const composed = await new MessageComposer(lifecycle, stub.client, notifierSettingsFrom({})).compose(ofDelivery('delivery_prepared'), 'email', 'send-14');
    expect(composed).toEqual({ ok: false, transient: true, error: "the download page's address (PORTAL_URL) is not known yet", destination: 'j***@example.org' });
    expect(stub.calls).toEqual([]);
  });

  it.each([
    ['fulfilment-delivery answers 503', true, 'fulfilment-delivery could not be reached', new ProblemError('SERVICE_UNAVAILABLE')],
    ['fulfilment-delivery answers 500', true, 'fulfilment-delivery could not be reached', new ProblemError('INTERNAL_ERROR')],
    ['the connection is refused', true, 'fulfilment-delivery could not be reached', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3004'), { code: 'ECONNREFUSED' })],
    ['the request is unknown there (404)', false, 'fulfilment-delivery has no such request: no download link to send', new ProblemError('RESOURCE_NOT_FOUND')],
    ['it has no such route (404)', false, 'fulfilment-delivery refused the download link (404 ROUTE_NOT_FOUND)', new ProblemError('ROUTE_NOT_FOUND')],
    ['delivery is not prepared (409)', false, 'delivery of the request is no longer prepared: no download link to send', new ProblemError('DELIVERY_NOTHING_TO_DELIVER')],
    ['the request is not fulfilled (409)', false, 'the request is no longer fulfilled: no download link to send', new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED')],
  ])('fail when %s (transient: %s)', async (_case, transient, text, error) => {
    for (const kind of ['delivery_prepared', 'delivery_code'] as const) {
      const composer = new MessageComposer(lifecycle, links(async () => Promise.reject(error)).client, settings);
      expect(await composer.compose(ofDelivery(kind), 'email', 'send-15')).toEqual({ ok: false, transient, error: text, destination: 'j***@example.org' });
    }
  });

  it('leave the secrets in the message alone: not in the notification, nor in what its attempt records (destination, error)', async () => {
    for (const kind of ['delivery_prepared', 'delivery_code'] as const) {
      const n = ofDelivery(kind);
      const before = JSON.stringify(n);
      const composed = await new MessageComposer(lifecycle, links().client, settings).compose(n, 'email', 'send-16');
      expect(composed.ok).toBe(true);
      expect(JSON.stringify(n)).toBe(before);
      const failed = await new MessageComposer(lifecycle, links(async () => Promise.reject(new ProblemError('DELIVERY_NOTHING_TO_DELIVER'))).client, settings).compose(n, 'email', 'send-17');
      for (const kept of [n.facts, composed.destination, failed]) for (const secret of SECRETS) expect(JSON.stringify(kept)).not.toContain(secret);
    }
  });
});

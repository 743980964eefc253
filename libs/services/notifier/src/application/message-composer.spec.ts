import { quotedReferences, referenceTagMatches, type RequestDetail } from '@dsar/contracts';
import type { LifecycleClient } from '@dsar/platform/http';
import type { NotificationEntity } from '../infrastructure/notification.entity';
import { notifierSettingsFrom } from '../notifier-settings';
import { MessageComposer } from './message-composer';

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
  const composer = new MessageComposer(lifecycle, notifierSettingsFrom({ REQUEST_REFERENCE_KEY: KEY, NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'] }));

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
  const composer = new MessageComposer(lifecycle, notifierSettingsFrom({ NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'], NOTIFIER_OPERATOR_LOCALE: 'de' }));
  const taskId = '0b7e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c';
  const owned = (recipient: NotificationEntity['recipient']): NotificationEntity => ({
    ...notification('operators'),
    kind: 'task_assigned',
    audience: 'owner',
    facts: { task: { id: taskId, systemKey: 'crm', displayName: 'Customer CRM', action: 'access', mode: 'manual', dueAt: '2026-12-05T10:00:00.000Z' } },
    recipient,
  });

  it("go to the owner's email address and Slack channel, in the operators' language, without reading the request", async () => {
    const noRequest = new MessageComposer({ request: async () => Promise.reject(new Error('not to be read')) } as unknown as LifecycleClient, notifierSettingsFrom({ NOTIFIER_OPERATOR_LOCALE: 'de' }));
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
  const composer = new MessageComposer(reading, notifierSettingsFrom({ NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'] }));

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
  const composer = new MessageComposer(unread, notifierSettingsFrom({ NOTIFIER_OPERATOR_EMAILS: ['ops@tenant-a.example'] }));
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

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

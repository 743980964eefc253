import { DeliveryEventTypes, domainEventCatalog, LifecycleEventTypes, TaskEventTypes } from '@dsar/contracts';
import { mappingsOf, NOTIFYING_EVENTS } from './domain-events.handler';

const requestId = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const taskId = '0b7e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c';
const facts = { requestId, tenantId: 'tenant-a', workspaceId: null, taskId, systemKey: 'crm', action: 'erasure', actor: 'system', occurredAt: '2026-12-02T05:00:00.000Z' };
const owner = { email: 'crm-owner@example.org', slackChannel: '#crm' };

/** Event data as the catalog's schema leaves it (what the handler gets). */
function parsed(type: string, data: Record<string, unknown>): Record<string, unknown> {
  return domainEventCatalog().require(type).schema.parse(data) as Record<string, unknown>;
}

const requested = (mode: string, state: 'queued' | 'waiting' = 'queued') =>
  parsed(TaskEventTypes.requested, {
    ...facts,
    state,
    mode,
    requestType: 'deletion',
    required: true,
    attempt: 0,
    legalDueAt: '2027-01-01T00:00:00.000Z',
    dueAt: '2026-12-05T05:00:00.000Z',
    identityTypes: ['email'],
    dataCategories: ['contact'],
    displayName: 'Customer CRM',
    owner,
  });
const overdue = (stage: string) =>
  parsed(TaskEventTypes.overdue, { ...facts, stage, dueAt: '2026-12-05T05:00:00.000Z', timeoutAt: '2026-12-09T05:00:00.000Z', state: 'queued', displayName: 'Customer CRM', owner });

describe('the notifications of task events', () => {
  it("tell a manual system's owner of a task queued for them, at the address the event gives", () => {
    const [assigned, ...others] = mappingsOf(TaskEventTypes.requested, requested('manual'));
    expect(others).toEqual([]);
    expect(assigned).toMatchObject({ kind: 'task_assigned', audience: 'owner' });
    expect(assigned.recipient?.(requested('manual'))).toEqual(owner);
    expect(assigned.facts(requested('manual'))).toEqual({
      task: {
        id: taskId,
        systemKey: 'crm',
        displayName: 'Customer CRM',
        action: 'erasure',
        mode: 'manual',
        state: 'queued',
        dueAt: '2026-12-05T05:00:00.000Z',
        legalDueAt: '2027-01-01T00:00:00.000Z',
      },
    });
  });

  it("tell nobody of a manual system's task still waiting for the systems it comes after: its owner is told when it is queued", () => {
    expect(mappingsOf(TaskEventTypes.requested, requested('manual', 'waiting'))).toEqual([]);
  });

  it.each(['push', 'pull', 'webhook'])('tell nobody of a task of a %s system: a program does that work', (mode) => {
    expect(mappingsOf(TaskEventTypes.requested, requested(mode))).toEqual([]);
  });

  it("remind the owner at the reminder, and alert operators (without the owner's address) at the escalation", () => {
    const [reminder, ...moreReminders] = mappingsOf(TaskEventTypes.overdue, overdue('reminder'));
    expect(moreReminders).toEqual([]);
    expect(reminder).toMatchObject({ kind: 'task_overdue', audience: 'owner' });
    expect(reminder.recipient?.(overdue('reminder'))).toEqual(owner);
    const [escalation, ...moreEscalations] = mappingsOf(TaskEventTypes.overdue, overdue('escalation'));
    expect(moreEscalations).toEqual([]);
    expect(escalation).toMatchObject({ kind: 'task_escalated', audience: 'operators' });
    expect(escalation.recipient).toBeUndefined();
    const kept = JSON.stringify(escalation.facts(overdue('escalation')));
    expect(kept).not.toContain('crm-owner');
    expect(JSON.parse(kept)).toEqual({
      task: { id: taskId, systemKey: 'crm', displayName: 'Customer CRM', action: 'erasure', dueAt: '2026-12-05T05:00:00.000Z', timeoutAt: '2026-12-09T05:00:00.000Z', state: 'queued' },
    });
  });

  it('keep no address in the facts of any task notification (it goes in the recipient, for owners only)', () => {
    const events: Array<[string, Record<string, unknown>]> = [
      [TaskEventTypes.requested, requested('manual')],
      [TaskEventTypes.overdue, overdue('reminder')],
      [TaskEventTypes.overdue, overdue('escalation')],
    ];
    let checked = 0;
    for (const [type, data] of events) {
      for (const m of mappingsOf(type, data)) {
        expect(JSON.stringify(m.facts(data))).not.toMatch(/owner|@|#crm/);
        checked++;
      }
    }
    expect(checked).toBe(3);
  });

  it('listen to event types the catalog has, and tell nobody of the other task events', () => {
    for (const type of Object.keys(NOTIFYING_EVENTS)) expect(domainEventCatalog().get(type)).toBeDefined();
    for (const type of [TaskEventTypes.claimed, TaskEventTypes.answered, TaskEventTypes.requeued, TaskEventTypes.blocked, TaskEventTypes.stopped]) {
      expect(NOTIFYING_EVENTS[type]).toBeUndefined();
    }
  });
});

describe('the notification of a duplicate mark', () => {
  const primary = '3d4e5f60-7182-4a93-b4c5-d6e7f8091a2b';
  const marked = parsed(LifecycleEventTypes.duplicateMarked, {
    requestId,
    tenantId: 'tenant-a',
    workspaceId: null,
    duplicateOf: primary,
    matchedKinds: ['email', 'phone'],
    windowDays: 30,
    sameIdentityRequests: 4,
    markedAt: '2026-06-10T07:45:00.000Z',
  });

  it('alerts operators, keeping the request it repeats, the kinds that matched, the counts and when', () => {
    const [alert, ...others] = mappingsOf(LifecycleEventTypes.duplicateMarked, marked);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({ kind: 'duplicate_marked', audience: 'operators' });
    expect(alert.recipient).toBeUndefined();
    expect(alert.facts(marked)).toEqual({ duplicateOf: primary, matchedKinds: ['email', 'phone'], windowDays: 30, sameIdentityRequests: 4, markedAt: '2026-06-10T07:45:00.000Z' });
  });
});

describe('the notifications of a prepared delivery', () => {
  const prepared = (channel: string) =>
    parsed(DeliveryEventTypes.prepared, {
      requestId,
      tenantId: 'tenant-a',
      workspaceId: null,
      actor: 'key:ops',
      occurredAt: '2026-06-10T07:45:00.000Z',
      channel,
      securityLevel: 'token',
      artifactCount: 2,
    });

  it('tell the data subject by email of a delivery by email twice: the link, and apart its code, with the same facts and no secret', () => {
    const data = prepared('email');
    const mappings = mappingsOf(DeliveryEventTypes.prepared, data);
    expect(mappings.map((m) => [m.kind, m.audience])).toEqual([
      ['delivery_prepared', 'subject'],
      ['delivery_code', 'subject'],
    ]);
    for (const m of mappings) expect(m.facts(data)).toEqual({ channel: 'email', securityLevel: 'token', artifactCount: 2 });
  });

  it.each(['portal', 'secure_remote_access'])('tell of a delivery through %s once, as before', (channel) => {
    expect(mappingsOf(DeliveryEventTypes.prepared, prepared(channel)).map((m) => m.kind)).toEqual(['delivery_prepared']);
  });
});

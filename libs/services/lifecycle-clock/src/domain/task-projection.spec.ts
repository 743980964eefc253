import { FulfilmentEventTypes, OPEN_TASK_STATES, TASK_STATES, TaskEventTypes } from '@dsar/contracts';
import { PROJECTED_TASK_EVENTS, taskFactOf } from './task-projection';

const base = {
  requestId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  tenantId: 'tenant-a',
  workspaceId: null,
  taskId: '0b7e5c1a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
  systemKey: 'crm',
  action: 'erasure',
  actor: 'system',
  occurredAt: '2026-12-02T05:00:00.000Z',
};

describe("the queue's copy of a request's tasks", () => {
  it('takes every task event type, and no other', () => {
    expect([...PROJECTED_TASK_EVENTS].sort()).toEqual(Object.values(TaskEventTypes).sort());
    expect(taskFactOf(FulfilmentEventTypes.tasksOverridden, base)).toBeUndefined();
  });

  it.each([
    [TaskEventTypes.requested, { required: true }, 'queued', true],
    [TaskEventTypes.requested, { required: true, state: 'waiting' }, 'waiting', true],
    [TaskEventTypes.claimed, { worker: 'w1' }, 'claimed', true],
    [TaskEventTypes.requeued, { reason: 'lease_expired' }, 'queued', true],
    [TaskEventTypes.blocked, { blockedBy: base.taskId }, 'blocked', true],
    [TaskEventTypes.answered, { outcome: 'complete', state: 'complete' }, 'complete', false],
    [TaskEventTypes.answered, { outcome: 'not_found', state: 'not_found' }, 'not_found', false],
    [TaskEventTypes.answered, { outcome: 'skipped', state: 'skipped' }, 'skipped', false],
    [TaskEventTypes.answered, { outcome: 'action_required', state: 'action_required' }, 'action_required', true],
    // A retryable error with attempts left leaves the task queued (a requeued event follows); a fatal one ends it.
    [TaskEventTypes.answered, { outcome: 'error', retryable: true, state: 'queued' }, 'queued', true],
    [TaskEventTypes.answered, { outcome: 'error', retryable: false, state: 'error' }, 'error', true],
    [TaskEventTypes.stopped, { reason: 'request_closed', state: 'cancelled' }, 'cancelled', false],
    [TaskEventTypes.stopped, { reason: 'timed_out', state: 'skipped' }, 'skipped', false],
    [TaskEventTypes.stopped, { reason: 'timed_out', state: 'action_required' }, 'action_required', true],
    [TaskEventTypes.stopped, { reason: 'attempts_exhausted', state: 'error' }, 'error', true],
    [TaskEventTypes.overdue, { stage: 'reminder', state: 'claimed' }, 'claimed', true],
  ])('%s %j: the task is %s (open: %s)', (type, extra, state, open) => {
    const fact = taskFactOf(type, { ...base, ...extra });
    expect(fact).toMatchObject({ taskId: base.taskId, requestId: base.requestId, tenantId: 'tenant-a', systemKey: 'crm', state, open });
    expect(fact?.occurredAt.toISOString()).toBe(base.occurredAt);
  });

  it('counts as open exactly the states in which a task waits for an answer or a decision, and a failed one (it blocks the fulfilment)', () => {
    for (const state of TASK_STATES) {
      expect([state, taskFactOf(TaskEventTypes.answered, { ...base, outcome: 'complete', state })?.open]).toEqual([state, [...OPEN_TASK_STATES, 'error'].includes(state)]);
    }
  });

  it('takes whether the answer is required from the requested event alone', () => {
    expect(taskFactOf(TaskEventTypes.requested, { ...base, required: false })?.required).toBe(false);
    expect(taskFactOf(TaskEventTypes.requested, { ...base, required: true })?.required).toBe(true);
    expect(taskFactOf(TaskEventTypes.claimed, { ...base, required: false })).not.toHaveProperty('required');
  });
});

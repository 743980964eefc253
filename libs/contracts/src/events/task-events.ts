import { z } from 'zod';
import { timestamp } from '../http/fields';
import { DATA_SYSTEM_ACTIONS, DATA_SYSTEM_MODES, IDENTITY_TYPES, systemKey } from '../http/data-systems';
import { REQUEST_TYPES } from '../http/request-kinds';
import { ERASURE_METHODS, ERASURE_RESULTS, TASK_OUTCOMES, TASK_STATES } from '../http/tasks';
import type { EventTypeDefinition } from './event-catalog';
import { requestSubject } from './request-events';
import { Topics } from './topics';

/**
 * Facts of the tasks a request sends its data systems (dsar.task.v1), owned
 * by fulfilment-delivery. Their subject is the request id (the request's
 * timeline and audit chain show them); their bus key is
 * `<tenantId>:<systemKey>`, so that one system's tasks stay in order on one
 * partition (ADR 0038). No event carries a task token or an identity's value:
 * a connector gets both when it claims the task over HTTP.
 */
const facts = {
  ...requestSubject,
  taskId: z.uuid(),
  systemKey,
  action: z.enum(DATA_SYSTEM_ACTIONS),
  actor: z.string().min(1).describe('Who acted: `system` for the service itself, a worker, a principal id'),
  occurredAt: timestamp,
};

/** The owner of a system as the notifier needs it (staff contact, kept only as a hash by the audit ledger). */
const owner = z.object({ email: z.string().optional(), slackChannel: z.string().optional() });

export const taskRequestedV1 = z.object({
  ...facts,
  state: z
    .enum(['queued', 'waiting'])
    .describe('`queued`: claim it now; `waiting`: it comes after other systems (or its system is paused), and a second `requested` with `queued` follows when its turn comes'),
  mode: z.enum(DATA_SYSTEM_MODES),
  requestType: z.enum(REQUEST_TYPES),
  required: z.boolean(),
  attempt: z.number().int().nonnegative().describe('Claims so far: 0 for a new task, more when it is queued again'),
  legalDueAt: timestamp,
  dueAt: timestamp,
  identityTypes: z.array(z.enum(IDENTITY_TYPES)).describe('The types of identity the task carries (their values only come with a claim)'),
  dataCategories: z.array(z.string()),
  displayName: z.string(),
  owner,
});
export const taskClaimedV1 = z.object({ ...facts, worker: z.string(), attempt: z.number().int().positive(), leaseExpiresAt: timestamp });

/** What an erasure confirmation proves, as the audit chain keeps it. */
export const erasureFacts = z.object({
  result: z.enum(ERASURE_RESULTS),
  recordsAffected: z.number().int().nonnegative(),
  categoriesErased: z.array(z.string()),
  method: z.enum(ERASURE_METHODS),
  performedBy: z.string(),
  performedAt: timestamp,
  hasExceptionReason: z.boolean(),
});
export const taskAnsweredV1 = z.object({
  ...facts,
  outcome: z.enum(TASK_OUTCOMES),
  state: z.enum(TASK_STATES).describe('The state the answer left the task in'),
  retryable: z.boolean().optional().describe('For an error: whether it is queued again'),
  byOperator: z.boolean().describe('True when an operator settled the task by hand (with evidence or a reason)'),
  erasure: erasureFacts.optional(),
  fileCount: z.number().int().nonnegative(),
  hasNote: z.boolean(),
});
export const TASK_REQUEUE_REASONS = ['lease_expired', 'retryable_error', 'operator_retry', 'webhook_failed'] as const;
export const taskRequeuedV1 = z.object({
  ...facts,
  mode: z.enum(DATA_SYSTEM_MODES),
  reason: z.enum(TASK_REQUEUE_REASONS),
  attempt: z.number().int().nonnegative(),
  dueAt: timestamp,
});
export const TASK_STOP_REASONS = ['dependency_failed', 'timed_out', 'system_deleted', 'request_closed', 'attempts_exhausted', 'no_identity'] as const;
export const taskBlockedV1 = z.object({ ...facts, blockedBy: z.uuid(), reason: z.literal('dependency_failed') });
export const taskStoppedV1 = z.object({
  ...facts,
  state: z.enum(TASK_STATES).describe('`skipped`, `error`, `action_required` or `cancelled`'),
  reason: z.enum(TASK_STOP_REASONS),
});
export const TASK_OVERDUE_STAGES = ['reminder', 'escalation'] as const;
export const taskOverdueV1 = z.object({
  ...facts,
  stage: z.enum(TASK_OVERDUE_STAGES).describe("`reminder`: the system's owner is reminded; `escalation`: operators are alerted"),
  dueAt: timestamp,
  timeoutAt: timestamp,
  state: z.enum(TASK_STATES),
  displayName: z.string(),
  owner,
});
export type TaskRequestedV1 = z.infer<typeof taskRequestedV1>;
export type TaskClaimedV1 = z.infer<typeof taskClaimedV1>;
export type TaskAnsweredV1 = z.infer<typeof taskAnsweredV1>;
export type TaskRequeuedV1 = z.infer<typeof taskRequeuedV1>;
export type TaskBlockedV1 = z.infer<typeof taskBlockedV1>;
export type TaskStoppedV1 = z.infer<typeof taskStoppedV1>;
export type TaskOverdueV1 = z.infer<typeof taskOverdueV1>;

export const TaskEventTypes = {
  requested: 'dsar.task.requested.v1',
  claimed: 'dsar.task.claimed.v1',
  answered: 'dsar.task.answered.v1',
  requeued: 'dsar.task.requeued.v1',
  blocked: 'dsar.task.blocked.v1',
  stopped: 'dsar.task.stopped.v1',
  overdue: 'dsar.task.overdue.v1',
} as const;

const task = (type: string, schema: z.ZodType, description: string, personalData?: readonly string[]): EventTypeDefinition => ({
  type,
  topic: Topics.task,
  schema,
  producer: 'fulfilment-delivery',
  description,
  ...(personalData ? { personalData } : {}),
});

export const taskEventDefinitions: EventTypeDefinition[] = [
  task(
    TaskEventTypes.requested,
    taskRequestedV1,
    "A data system has work for a request: a new task, queued for a claim (push connectors react to it), or waiting for the systems it comes after. The claim gives the identities and the task's token.",
    ['owner'],
  ),
  task(TaskEventTypes.claimed, taskClaimedV1, 'A worker claimed the task under a lease; a new token was issued and the previous one stopped working.'),
  task(
    TaskEventTypes.answered,
    taskAnsweredV1,
    'The system (or an operator, by hand) answered the task: complete (with the erasure confirmation for an erasure), not found, an error, action required, or skipped.',
  ),
  task(TaskEventTypes.requeued, taskRequeuedV1, 'The task is queued again: its lease lapsed, its system reported a retryable error, its webhook call failed, or an operator retried it.'),
  task(TaskEventTypes.blocked, taskBlockedV1, 'A task this one comes after failed: this one waits for an operator to retry or skip the failed one.'),
  task(
    TaskEventTypes.stopped,
    taskStoppedV1,
    "The service settled the task without an answer: timed out (skipped or action required, as the system's SLA says), its system deleted, its request closed, its attempts exhausted, or no identity the system takes.",
  ),
  task(TaskEventTypes.overdue, taskOverdueV1, "The task passed its system's due date: its owner is reminded (`reminder`), later operators are alerted (`escalation`).", ['owner']),
];

import { z } from 'zod';
import { intParam, NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_MESSAGE, text, timestamp } from './fields';
import { DATA_SYSTEM_ACTIONS, DATA_SYSTEM_MODES, IDENTITY_TYPES, systemKey } from './data-systems';
import { REQUEST_TYPES } from './request-kinds';

/**
 * HTTP contracts of the tasks a request sends its data systems
 * (docs/data-systems.md#tasks): what a connector lists, claims and answers,
 * and what operators see and do. fulfilment-delivery owns them.
 */

/**
 * A task's states: `waiting` for the systems it comes after (or for its paused system), `queued` for a claim,
 * `claimed` under a lease, then `complete`, `not_found` or `skipped` (finished: the systems after it start),
 * `error` (failed for good: the systems after it are `blocked`), `action_required` (an operator decides), or
 * `cancelled` (the request was closed or refused before the answer).
 */
export const TASK_STATES = ['waiting', 'queued', 'claimed', 'complete', 'not_found', 'skipped', 'error', 'action_required', 'blocked', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];
/** The states after which the systems that come after it may start. */
export const FINISHED_TASK_STATES = ['complete', 'not_found', 'skipped'] as const satisfies readonly TaskState[];
/** The states a task does not leave by itself (an operator may still retry an `error`). */
export const TERMINAL_TASK_STATES = ['complete', 'not_found', 'skipped', 'error', 'cancelled'] as const satisfies readonly TaskState[];
/** The states in which a task still waits for an answer or a decision. */
export const OPEN_TASK_STATES = ['waiting', 'queued', 'claimed', 'action_required', 'blocked'] as const satisfies readonly TaskState[];

/** The header that carries a task's token on every call that works on the task. */
export const TASK_TOKEN_HEADER = 'x-task-token';
/** The header an access file may carry: the sha256 (hex) of its bytes, checked on arrival. */
export const CONTENT_SHA256_HEADER = 'x-content-sha256';
/** A task token: `dtt_` and 43 base64url characters (32 random bytes). */
export const TASK_TOKEN_PATTERN = /^dtt_[A-Za-z0-9_-]{43}$/;

export const LEASE_SECONDS = { min: 10, max: 3600, default: 300 } as const;

export const ERASURE_RESULTS = ['erased', 'partially_erased', 'not_found', 'exception'] as const;
export const ERASURE_METHODS = ['delete', 'anonymise', 'suppress'] as const;

const HEX_SHA256 = /^[a-f0-9]{64}$/;

/** What a system erased for a task: recorded on the task, in the manifest and in the audit chain. */
export const erasureConfirmation = z
  .strictObject({
    result: z.enum(ERASURE_RESULTS),
    recordsAffected: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('Rows or records deleted, anonymised or suppressed'),
    categoriesErased: z.array(text(200)).max(100).describe('The data categories erased'),
    method: z.enum(ERASURE_METHODS),
    performedBy: text(200).describe('Who or what erased: a job, a service, a person'),
    performedAt: timestamp,
    exceptionReason: text(2000)
      .optional()
      .describe('Why not everything was erased (a legal hold, a retention duty): required with `partially_erased` and `exception`, else the answer is refused (422 `SVC-BE-1812`)'),
  })
  .meta({ id: 'ErasureConfirmation' });
export type ErasureConfirmation = z.infer<typeof erasureConfirmation>;

export const TASK_OUTCOMES = ['complete', 'not_found', 'error', 'action_required', 'skipped'] as const;

/** A system's answer to its task. A retryable `error` queues the task again while attempts are left. */
export const taskAnswer = z
  .discriminatedUnion('outcome', [
    z.strictObject({
      outcome: z.literal('complete'),
      note: text(2000).optional(),
      erasure: erasureConfirmation.optional().describe('Required when the task asks for an erasure'),
    }),
    z.strictObject({ outcome: z.literal('not_found'), note: text(2000).optional() }),
    z.strictObject({ outcome: z.literal('error'), retryable: z.boolean(), message: text(2000), code: text(100).optional() }),
    z.strictObject({ outcome: z.literal('action_required'), message: text(2000) }),
    z.strictObject({ outcome: z.literal('skipped'), reason: text(2000) }),
  ])
  .meta({ id: 'TaskAnswer' });
export type TaskAnswer = z.infer<typeof taskAnswer>;

export const taskIdentity = z.object({ type: z.enum(IDENTITY_TYPES), value: z.string() }).meta({ id: 'TaskIdentity' });

/** One pending task of a system, as its pull job lists it: no identities and no token until it is claimed. */
export const pendingTask = z
  .object({
    taskId: z.uuid(),
    requestId: z.uuid(),
    action: z.enum(DATA_SYSTEM_ACTIONS),
    dueAt: timestamp.describe("The system's own due date"),
    attempt: z.number().int().nonnegative().describe('Claims so far'),
  })
  .meta({ id: 'PendingTask' });
export const pendingTaskList = z.object({ items: z.array(pendingTask) }).meta({ id: 'PendingTaskList' });
export const pendingTasksQuery = z.strictObject({ limit: intParam(1, 100).optional().describe('At most this many, oldest first; default 20') }).meta({ id: 'PendingTasksQuery' });

/** What a claim hands the system: the work, the identities it registered for, and the token for every later call. */
export const taskWork = z
  .object({
    taskId: z.uuid().describe('Also the idempotency key of the work in the system'),
    requestId: z.uuid(),
    requestType: z.enum(REQUEST_TYPES),
    systemKey,
    action: z.enum(DATA_SYSTEM_ACTIONS),
    legalDueAt: timestamp.describe("The request's legal due date"),
    dueAt: timestamp.describe("The system's own due date"),
    identities: z.array(taskIdentity).describe('Only the identity types the system registered'),
    dataCategories: z.array(z.string()).describe('The categories asked for'),
    attempt: z.number().int().positive(),
    leaseExpiresAt: timestamp.describe('Heartbeat before this, or the task goes back to the queue'),
    token: z.string().describe('The task token for x-task-token: valid for this claim only, until the task times out; keep it secret'),
    tokenExpiresAt: timestamp,
  })
  .meta({ id: 'TaskWork' });
export type TaskWork = z.infer<typeof taskWork>;

export const taskClaimCommand = z
  .strictObject({
    worker: text(200).describe('Who claims: an instance id, a host name, a person'),
    leaseSeconds: z
      .number()
      .int()
      .min(LEASE_SECONDS.min)
      .max(LEASE_SECONDS.max)
      .optional()
      .describe(`The lease, ${LEASE_SECONDS.min}–${LEASE_SECONDS.max} s (never beyond TASK_LEASE_MAX_SECONDS); default ${LEASE_SECONDS.default}`),
  })
  .meta({ id: 'TaskClaimCommand' });
export const taskHeartbeatCommand = z.strictObject({ leaseSeconds: taskClaimCommand.shape.leaseSeconds }).meta({ id: 'TaskHeartbeatCommand' });
export const taskLease = z.object({ taskId: z.uuid(), leaseExpiresAt: timestamp }).meta({ id: 'TaskLease' });

export const taskRowsCommand = z
  .strictObject({
    category: text(200).optional().describe('The data category of the rows; also the file title'),
    rows: z
      .array(z.record(z.string().max(200).regex(NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_MESSAGE), z.unknown()))
      .min(1)
      .max(10_000)
      .describe('Objects, packaged into one JSON file of the manifest'),
  })
  .meta({ id: 'TaskRowsCommand' });
export const taskFileStored = z
  .object({ taskId: z.uuid(), artifactId: z.uuid(), size: z.number().int().nonnegative(), sha256: z.string().regex(HEX_SHA256, 'must be 64 lower-case hex characters') })
  .meta({ id: 'TaskFileStored' });

export const taskView = z
  .object({
    id: z.uuid(),
    requestId: z.uuid(),
    systemKey,
    action: z.enum(DATA_SYSTEM_ACTIONS),
    mode: z.enum(DATA_SYSTEM_MODES),
    required: z.boolean(),
    state: z.enum(TASK_STATES),
    attempts: z.number().int().nonnegative(),
    maxAttempts: z.number().int().positive(),
    dependsOn: z.array(z.uuid()).describe('Tasks of the systems this one comes after'),
    blockedBy: z.uuid().nullable(),
    legalDueAt: timestamp,
    dueAt: timestamp,
    timeoutAt: timestamp,
    leaseExpiresAt: timestamp.nullable(),
    claimedBy: z.string().nullable(),
    lastError: z.object({ message: z.string(), code: z.string().nullable(), retryable: z.boolean(), at: timestamp }).nullable(),
    answer: taskAnswer.nullable().describe('The answer that settled the task, as given (by the system or an operator)'),
    answeredAt: timestamp.nullable(),
    answeredBy: z.string().nullable(),
    stateReason: z
      .string()
      .nullable()
      .describe("Why the task is in its state when the system did not say: `timed_out`, `system_deleted`, `no_identity`, `attempts_exhausted`, `request_closed`, an operator's reason"),
    artifactIds: z.array(z.uuid()).describe('Files the system answered with'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Task' });
export type TaskView = z.infer<typeof taskView>;
export const taskList = z.object({ items: z.array(taskView) }).meta({ id: 'TaskList' });

export const taskRetryCommand = z.strictObject({ reason: text(2000).optional() }).meta({ id: 'TaskRetryCommand' });
export const taskSkipCommand = z.strictObject({ reason: text(2000) }).meta({ id: 'TaskSkipCommand' });
export const taskCompleteCommand = z
  .strictObject({
    outcome: z.enum(['complete', 'not_found']),
    evidence: text(4000).describe("What shows the work was done: a ticket, a log line, a person's statement"),
    erasure: erasureConfirmation.optional().describe('Required when the task asks for an erasure and the outcome is complete'),
  })
  .meta({ id: 'TaskCompleteCommand' });

/** The optional body of POST /requests/{id}/fulfilment. */
export const fulfilmentCommand = z
  .strictObject({
    override: z
      .strictObject({ reason: text(2000).describe('Why the request is fulfilled while required systems have not answered; recorded in the audit chain') })
      .optional()
      .describe('Fulfil although required tasks are open or an erasure is unconfirmed'),
  })
  .meta({ id: 'FulfilmentCommand' });
export type FulfilmentCommand = z.infer<typeof fulfilmentCommand>;

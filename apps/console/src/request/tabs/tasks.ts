import type { DataSystemAction, ErasureConfirmation, Permission, TaskAnswer, TaskState, TaskView } from '@dsar/contracts';
import { labelOf } from '../../labels';

/*
 * A request's data-system tasks as the Systems and tasks tab shows them, and what an operator may do to each
 * (docs/data-systems.md#tasks; the same rule as the service's, which still decides: a 409 SVC-BE-1809 otherwise).
 */

export const TASK_STATE_LABELS: Readonly<Record<TaskState, string>> = {
  waiting: 'Waiting',
  queued: 'Queued',
  claimed: 'Being worked on',
  complete: 'Complete',
  not_found: 'Nothing found',
  skipped: 'Skipped',
  error: 'Failed',
  action_required: 'Needs an operator',
  blocked: 'Blocked',
  cancelled: 'Cancelled',
};

export const DATA_SYSTEM_ACTION_LABELS: Readonly<Record<DataSystemAction, string>> = {
  access: 'Access',
  erasure: 'Erasure',
  rectification: 'Rectification',
  restriction: 'Restriction',
  objection: 'Objection',
  opt_out: 'Opt-out',
};

export const ERASURE_RESULT_LABELS: Readonly<Record<ErasureConfirmation['result'], string>> = {
  erased: 'Erased',
  partially_erased: 'Partially erased',
  not_found: 'Nothing found',
  exception: 'Exception: not erased',
};

export const ERASURE_METHOD_LABELS: Readonly<Record<ErasureConfirmation['method'], string>> = {
  delete: 'Deleted',
  anonymise: 'Anonymised',
  suppress: 'Suppressed',
};

/**
 * What the answer that settled a task says, in words, one line each: an erasure's confirmation (its result, how many
 * records, how, which categories, by whom) and the note, question or reason given. An error is the Last error column's.
 */
export function answerLines(answer: TaskAnswer | null): string[] {
  if (!answer) return [];
  const lines: string[] = [];
  if (answer.outcome === 'complete' && answer.erasure) {
    const e = answer.erasure;
    const records = `${e.recordsAffected} ${e.recordsAffected === 1 ? 'record' : 'records'}`;
    const categories = e.categoriesErased.length > 0 ? ` (${e.categoriesErased.join(', ')})` : '';
    const exception = e.exceptionReason ? `; not erased: ${e.exceptionReason}` : '';
    lines.push(`${labelOf(ERASURE_RESULT_LABELS, e.result)}: ${records} ${labelOf(ERASURE_METHOD_LABELS, e.method).toLowerCase()}${categories} by ${e.performedBy}${exception}`);
  }
  if ((answer.outcome === 'complete' || answer.outcome === 'not_found') && answer.note) lines.push(answer.note);
  if (answer.outcome === 'action_required') lines.push(answer.message);
  if (answer.outcome === 'skipped') lines.push(answer.reason);
  return lines;
}

export type TaskOperatorAction = 'retry' | 'skip' | 'complete';

/** What every operator action on a task needs (the route table). */
export const TASK_ACT_PERMISSION: Permission = 'requests:act';

const RETRYABLE: readonly TaskState[] = ['error', 'action_required', 'skipped', 'blocked'];
const OPEN: readonly TaskState[] = ['waiting', 'queued', 'claimed', 'action_required', 'blocked'];

/** The operator actions a task's state allows: retry a failed, paused, skipped or blocked one; skip or settle by hand one still open or failed. */
export function taskActionsIn(state: TaskState): TaskOperatorAction[] {
  const actions: TaskOperatorAction[] = [];
  if (RETRYABLE.includes(state)) actions.push('retry');
  if (OPEN.includes(state) || state === 'error') actions.push('skip', 'complete');
  return actions;
}

/** The actions offered for a task: none without the permission. */
export function offeredTaskActions(task: Pick<TaskView, 'state'>, permissions: readonly string[]): TaskOperatorAction[] {
  return permissions.includes(TASK_ACT_PERMISSION) ? taskActionsIn(task.state) : [];
}

export const TASK_ACTION_LABELS: Readonly<Record<TaskOperatorAction, string>> = {
  retry: 'Retry',
  skip: 'Skip',
  complete: 'Mark done',
};

/** The values of a task action's form, as typed. */
export interface TaskActionValues {
  reason?: string;
  outcome?: string;
  evidence?: string;
  erasureResult?: string;
  recordsAffected?: string;
  categoriesErased?: string;
  erasureMethod?: string;
  performedBy?: string;
  /** A `datetime-local` value, in the browser's zone. */
  performedAt?: string;
  exceptionReason?: string;
}

/** Whether settling this task as `complete` needs the erasure's confirmation. */
export function needsErasure(action: DataSystemAction, outcome: string | undefined): boolean {
  return action === 'erasure' && (outcome ?? 'complete') === 'complete';
}

const trimmed = (value: string | undefined) => value?.trim() ?? '';

/** The fields a form must have before it is sent, by name: what the API would refuse with a 400 anyway. */
export function missingTaskFields(kind: TaskOperatorAction, action: DataSystemAction, values: TaskActionValues): string[] {
  if (kind === 'skip') return trimmed(values.reason) ? [] : ['reason'];
  if (kind !== 'complete') return [];
  const missing: string[] = [];
  if (!trimmed(values.evidence)) missing.push('evidence');
  if (needsErasure(action, values.outcome)) {
    if (!/^\d{1,15}$/.test(trimmed(values.recordsAffected))) missing.push('recordsAffected');
    if (!trimmed(values.performedBy)) missing.push('performedBy');
    if (['partially_erased', 'exception'].includes(values.erasureResult ?? '') && !trimmed(values.exceptionReason)) missing.push('exceptionReason');
  }
  return missing;
}

/** A `datetime-local` value as the API's instant; an empty or broken one is `fallback`. */
function instantOf(value: string | undefined, fallback: Date): string {
  const date = value ? new Date(value) : fallback;
  return Number.isNaN(date.getTime()) ? fallback.toISOString() : date.toISOString();
}

/** The body of a task action (taskRetryCommand, taskSkipCommand, taskCompleteCommand in the contracts). */
export function taskActionBody(kind: TaskOperatorAction, action: DataSystemAction, values: TaskActionValues, now: Date): Record<string, unknown> {
  if (kind === 'retry') return trimmed(values.reason) ? { reason: trimmed(values.reason) } : {};
  if (kind === 'skip') return { reason: trimmed(values.reason) };
  const outcome = values.outcome === 'not_found' ? 'not_found' : 'complete';
  const body: Record<string, unknown> = { outcome, evidence: trimmed(values.evidence) };
  if (needsErasure(action, outcome)) {
    const categories = trimmed(values.categoriesErased)
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    body.erasure = {
      result: values.erasureResult || 'erased',
      recordsAffected: Number(trimmed(values.recordsAffected)),
      categoriesErased: categories,
      method: values.erasureMethod || 'delete',
      performedBy: trimmed(values.performedBy),
      performedAt: instantOf(values.performedAt, now),
      ...(trimmed(values.exceptionReason) ? { exceptionReason: trimmed(values.exceptionReason) } : {}),
    };
  }
  return body;
}

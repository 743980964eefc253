import type { DataSystemAction, TaskAnswer, TaskState } from '@dsar/contracts';

/** What the fulfilment gate reads of a task of the request. */
export interface GateTask {
  id: string;
  systemKey: string;
  action: DataSystemAction;
  required: boolean;
  state: TaskState;
  outcome: TaskAnswer | null;
}

/** A task the gate names in its refusal (and the override's event). */
export interface GateOpenTask {
  taskId: string;
  systemKey: string;
  state: TaskState;
}

/** Why the gate refuses, if it does: the open required tasks, else the erasures without proof. */
export type GateRefusal = { code: 'FULFILMENT_TASKS_OPEN'; tasks: GateOpenTask[] } | { code: 'ERASURE_NOT_CONFIRMED'; tasks: GateOpenTask[] };

/**
 * The required erasure tasks of a deletion request that do not prove the erasure: a task is proof when it is
 * `complete` with its confirmation, `not_found`, or `skipped` (with the reason it carries). A cancelled task or a
 * complete one without a confirmation (an answer recorded before confirmations were required) is not.
 */
export function unconfirmedErasures(tasks: readonly GateTask[]): GateOpenTask[] {
  return tasks
    .filter((t) => t.required && t.action === 'erasure')
    .filter((t) => !(t.state === 'not_found' || t.state === 'skipped' || (t.state === 'complete' && t.outcome?.outcome === 'complete' && t.outcome.erasure !== undefined)))
    .map(openTaskOf);
}

/**
 * The gate of a request's fulfilment: refused while a required task is open (`open`, as Tasks.openRequired reads
 * them), then, for a request whose action is an erasure, while a required erasure is not proven. Null: it may go.
 */
export function taskGateRefusal(action: DataSystemAction, open: readonly GateTask[], all: readonly GateTask[]): GateRefusal | null {
  if (open.length > 0) return { code: 'FULFILMENT_TASKS_OPEN', tasks: open.map(openTaskOf) };
  if (action !== 'erasure') return null;
  const unconfirmed = unconfirmedErasures(all);
  return unconfirmed.length > 0 ? { code: 'ERASURE_NOT_CONFIRMED', tasks: unconfirmed } : null;
}

/** The tasks an override goes past: the open required ones and, for an erasure, the unproven ones; each once. */
export function overriddenTasks(action: DataSystemAction, open: readonly GateTask[], all: readonly GateTask[]): GateOpenTask[] {
  const named = [...open.map(openTaskOf), ...(action === 'erasure' ? unconfirmedErasures(all) : [])];
  return named.filter((t, i) => named.findIndex((u) => u.taskId === t.taskId) === i);
}

function openTaskOf(t: GateTask): GateOpenTask {
  return { taskId: t.id, systemKey: t.systemKey, state: t.state };
}

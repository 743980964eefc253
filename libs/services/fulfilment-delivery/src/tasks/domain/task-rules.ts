import { type DataSystemAction, FINISHED_TASK_STATES, type IdentityType, OPEN_TASK_STATES, type RequestDetail, type TaskAnswer, type TaskState } from '@dsar/contracts';

/**
 * The pure rules of a data-system task (docs/data-systems.md#tasks): which
 * identities a system gets, the state a new task starts in, which tasks start
 * or are blocked when one settles, and which operator action a state allows.
 */

export interface Identity {
  type: IdentityType;
  value: string;
}

/** One address of no white space or angle brackets, with exactly one `@` (linear: the classes exclude the `@`). */
const ONE_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;
/** A phone number as people write one: an optional `+`, then 6 to 20 digits with spaces, dots, dashes or brackets between. Linear: one class, one pass. */
const PHONE_CHARACTERS = /^\+?[0-9 ().-]{6,40}$/;

/** The address when `text` is a bare email address (`local@domain.tld`, the notifier's rule), else null. */
export function emailOf(text: string): string | null {
  const s = text.trim();
  return ONE_ADDRESS.test(s) && s.slice(s.indexOf('@') + 2, -1).includes('.') ? s : null;
}

/** The number in E.164 form (`+` and digits) when `text` is a phone number, else null. */
export function phoneOf(text: string): string | null {
  const s = text.trim();
  if (!PHONE_CHARACTERS.test(s)) return null;
  const digits = s.replace(/[^0-9]/g, '');
  return digits.length >= 6 && digits.length <= 15 ? `${s.startsWith('+') ? '+' : ''}${digits}` : null;
}

/**
 * Every identity the request names: the requestor's email, the intake contact (an email address or a phone number),
 * and the account ids of its source evidence (`type: account_id`, its `reference`). Without repeats, in that order.
 */
export function identitiesOf(detail: Pick<RequestDetail, 'requestor' | 'intakeSource'>): Identity[] {
  const found: Identity[] = [];
  const add = (type: IdentityType, value: string | null | undefined) => {
    const v = value?.trim();
    if (v && !found.some((i) => i.type === type && (type === 'email' ? i.value.toLowerCase() === v.toLowerCase() : i.value === v))) found.push({ type, value: v });
  };
  add('email', detail.requestor?.email);
  const contact = detail.intakeSource.contact;
  if (contact) {
    add('email', emailOf(contact));
    add('phone', phoneOf(contact));
  }
  for (const evidence of detail.intakeSource.sourceEvidence ?? []) {
    if (evidence.type === 'account_id') add('account_id', evidence.reference);
  }
  return found;
}

/** The identities of the types a system registered. */
export function identitiesFor(all: readonly Identity[], types: readonly IdentityType[]): Identity[] {
  return all.filter((i) => types.includes(i.type));
}

const FINISHED: readonly TaskState[] = FINISHED_TASK_STATES;
const OPEN: readonly TaskState[] = OPEN_TASK_STATES;

export const isFinished = (state: TaskState): boolean => FINISHED.includes(state);
export const isOpen = (state: TaskState): boolean => OPEN.includes(state);
/** A task whose dependants cannot start until an operator acts: failed for good, or cancelled. */
export const isFailed = (state: TaskState): boolean => state === 'error' || state === 'cancelled';

/** What the rules need of a task of the request. */
export interface TaskNode {
  id: string;
  state: TaskState;
  dependsOn: readonly string[];
  blockedBy?: string | null;
}

/**
 * Where a task stands given its dependencies: `blocked` (by the first failed or blocked one, whose blocker it
 * inherits), `queued` when every one is finished and its system may work, else `waiting`.
 */
export function startState(dependsOn: readonly string[], tasks: ReadonlyMap<string, TaskNode>, systemPaused: boolean): { state: 'queued' | 'waiting' } | { state: 'blocked'; blockedBy: string } {
  for (const id of dependsOn) {
    const dep = tasks.get(id);
    if (dep && isFailed(dep.state)) return { state: 'blocked', blockedBy: dep.id };
    if (dep && dep.state === 'blocked') return { state: 'blocked', blockedBy: dep.blockedBy ?? dep.id };
  }
  const ready = dependsOn.every((id) => {
    const dep = tasks.get(id);
    // A dependency with no task (its system was deleted since) holds nothing up.
    return !dep || isFinished(dep.state);
  });
  return { state: ready && !systemPaused ? 'queued' : 'waiting' };
}

/**
 * The tasks that depend on `taskId`, directly or through others, in an order where a task comes after the ones it
 * depends on (breadth first from the settled task).
 */
export function dependantsOf(taskId: string, tasks: readonly TaskNode[]): TaskNode[] {
  const out: TaskNode[] = [];
  const seen = new Set([taskId]);
  const frontier = [taskId];
  while (frontier.length > 0) {
    const current = frontier.shift() as string;
    for (const t of tasks) {
      if (!seen.has(t.id) && t.dependsOn.includes(current)) {
        seen.add(t.id);
        out.push(t);
        frontier.push(t.id);
      }
    }
  }
  return out;
}

/**
 * The waiting dependants of a task that just failed (error, cancelled), directly or through others: each becomes
 * `blocked` by it. Tasks already settled or under way keep their state.
 */
export function toBlock(failedId: string, tasks: readonly TaskNode[]): TaskNode[] {
  return dependantsOf(failedId, tasks).filter((t) => t.state === 'waiting');
}

/** The direct waiting dependants of a task that just finished whose dependencies are now all finished: they may start. */
export function toStart(finishedId: string, tasks: readonly TaskNode[]): TaskNode[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return tasks.filter((t) => t.state === 'waiting' && t.dependsOn.includes(finishedId) && t.dependsOn.every((d) => !byId.has(d) || isFinished((byId.get(d) as TaskNode).state)));
}

/** The tasks blocked by `taskId` that go back to `waiting` when an operator retries it. */
export function toUnblock(taskId: string, tasks: readonly TaskNode[]): TaskNode[] {
  return tasks.filter((t) => t.state === 'blocked' && t.blockedBy === taskId);
}

/** The state an answer leaves a task in; a retryable error queues it again while it has attempts left. */
export function stateAfterAnswer(answer: TaskAnswer, attempts: number, maxAttempts: number): TaskState {
  switch (answer.outcome) {
    case 'complete':
    case 'not_found':
    case 'skipped':
    case 'action_required':
      return answer.outcome;
    case 'error':
      return answer.retryable && attempts < maxAttempts ? 'queued' : 'error';
  }
}

/** Why an answer does not fit its task (422 TASK_ANSWER_INVALID), or null. */
export function answerMisfit(action: DataSystemAction, answer: Pick<TaskAnswer, 'outcome'> & { erasure?: unknown }): string | null {
  if (action === 'erasure' && answer.outcome === 'complete' && answer.erasure === undefined) {
    return 'an erasure task is answered complete with its erasure confirmation (`erasure`)';
  }
  if (action !== 'erasure' && answer.erasure !== undefined) return `a task whose action is ${action} takes no erasure confirmation`;
  // The schema cannot say it (a field required by another's value): a confirmation that not all was erased says why.
  const erasure = answer.erasure as { result?: string; exceptionReason?: string } | undefined;
  if ((erasure?.result === 'partially_erased' || erasure?.result === 'exception') && erasure.exceptionReason === undefined) {
    return `an erasure confirmation with result ${erasure.result} says why (\`erasure.exceptionReason\`)`;
  }
  return null;
}

export const OPERATOR_ACTIONS = ['retry', 'skip', 'complete'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/** The states an operator may retry a task in: failed, waiting for a decision, skipped, or blocked by a failed one. */
const RETRYABLE: readonly TaskState[] = ['error', 'action_required', 'skipped', 'blocked'];

/**
 * Which operator action a state allows: retry (see RETRYABLE); skip or complete by hand any task that is not
 * settled (an open one, or an `error`).
 */
export function operatorActionsIn(state: TaskState): OperatorAction[] {
  const actions: OperatorAction[] = [];
  if (RETRYABLE.includes(state)) actions.push('retry');
  if (isOpen(state) || state === 'error') actions.push('skip', 'complete');
  return actions;
}

/** Whether two answers say the same (a repeated answer is accepted once more and changes nothing). */
export function sameAnswer(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
        )
      : v,
  );
}

/** The system's due date: `expectedHours` after `now`, never after the request's legal due date. */
export function taskDueAt(now: Date, expectedHours: number, legalDueAt: Date): Date {
  const due = new Date(now.getTime() + expectedHours * 3_600_000);
  return due > legalDueAt ? legalDueAt : due;
}

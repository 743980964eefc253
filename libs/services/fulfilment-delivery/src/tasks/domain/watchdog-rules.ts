import { type DataSystemView, type TaskAnswer, taskAnswer, type TaskState } from '@dsar/contracts';

/**
 * The pure decisions of the task watchdog and the webhook sender (docs/data-systems.md#chasing): what a task past
 * its dates, under a lapsed lease or of a deleted system becomes, and what a webhook's response means. The
 * application finds the candidates with the same conditions in SQL and checks each again under the task's lock.
 */

const HOUR_MS = 3_600_000;

/** What the watchdog reads of a task. */
export interface WatchedTask {
  state: TaskState;
  dueAt: Date;
  timeoutAt: Date;
  leaseExpiresAt: Date | null;
  remindedAt: Date | null;
  escalatedAt: Date | null;
}

/** The states in which a system has the work in hand: the ones chased, reminded and timed out. */
export const WORKED_STATES: readonly TaskState[] = ['queued', 'claimed'];
/** The states a task of a deleted system is taken out of: every open one but action_required (already an operator's). */
export const ORPHAN_STATES: readonly TaskState[] = ['waiting', 'queued', 'claimed', 'blocked'];

const worked = (t: Pick<WatchedTask, 'state'>) => WORKED_STATES.includes(t.state);

/** Past its timeout (the service's clock): the system's SLA decides (`timeoutOutcome`). */
export function isTimedOut(t: WatchedTask, now: Date): boolean {
  return worked(t) && t.timeoutAt <= now;
}

/** What a timeout does: `skip` settles the task skipped (the systems after it start); `pause` leaves it to an operator. */
export function timeoutOutcome(onTimeout: DataSystemView['sla']['onTimeout']): 'skipped' | 'action_required' {
  return onTimeout === 'skip' ? 'skipped' : 'action_required';
}

/**
 * A claim whose lease lapsed (`dbNow`: leases run on the database's clock) goes back to the queue, unless the task
 * timed out meanwhile (`now`, the service's clock): a timeout is the SLA's to settle, not another attempt.
 */
export function isLeaseLapsed(t: WatchedTask, dbNow: Date, now: Date): boolean {
  return t.state === 'claimed' && t.leaseExpiresAt !== null && t.leaseExpiresAt <= dbNow && !isTimedOut(t, now);
}

/** Past its due date and not reminded yet: its owner is reminded, once. */
export function isReminderDue(t: WatchedTask, now: Date): boolean {
  return worked(t) && t.remindedAt === null && t.dueAt <= now;
}

/** When operators are alerted: `escalateAfterHours` past the due date, or at the timeout when that comes first. */
export function escalationAt(t: Pick<WatchedTask, 'dueAt' | 'timeoutAt'>, escalateAfterHours: number): Date {
  const late = new Date(t.dueAt.getTime() + escalateAfterHours * HOUR_MS);
  return late < t.timeoutAt ? late : t.timeoutAt;
}

/** Past its escalation and not escalated yet: operators are alerted, once. */
export function isEscalationDue(t: WatchedTask, now: Date, escalateAfterHours: number): boolean {
  return worked(t) && t.escalatedAt === null && escalationAt(t, escalateAfterHours) <= now;
}

/** An open task of a system deleted since: an operator decides (`action_required`, reason system_deleted). */
export function isOrphaned(t: Pick<WatchedTask, 'state'>, systemDeleted: boolean): boolean {
  return systemDeleted && ORPHAN_STATES.includes(t.state);
}

/** The first wait after a failed webhook call; doubled per attempt up to WEBHOOK_BACKOFF_MAX_MS. */
export const WEBHOOK_BACKOFF_BASE_MS = 30_000;
export const WEBHOOK_BACKOFF_MAX_MS = 3_600_000;

/** How long a webhook task waits after its `attempt`-th call failed (1-based): exponential, capped. */
export function webhookBackoffMs(attempt: number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  return Math.min(WEBHOOK_BACKOFF_BASE_MS * 2 ** exponent, WEBHOOK_BACKOFF_MAX_MS);
}

/** What a webhook system's response means for its task. */
export type WebhookVerdict = { kind: 'answered'; answer: TaskAnswer } | { kind: 'accepted' } | { kind: 'failed'; message: string };

/**
 * A webhook system's response: a 200 whose body is a task answer answers the task; a 202 says the system works on
 * it and answers later with the token (the task stays claimed); anything else, a 200 with no valid answer
 * included, is a failed call (requeued with backoff). The message never quotes the body (it may hold personal data).
 */
export function webhookVerdict(status: number, body: string): WebhookVerdict {
  if (status === 202) return { kind: 'accepted' };
  if (status !== 200) return { kind: 'failed', message: `the webhook answered HTTP ${status}` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { kind: 'failed', message: 'the webhook answered 200 without a JSON task answer' };
  }
  const parsed = taskAnswer.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(body)'))].slice(0, 5).join(', ');
    return { kind: 'failed', message: `the webhook answered 200 with a body that is not a task answer (${fields.slice(0, 200)})` };
  }
  return { kind: 'answered', answer: parsed.data };
}

/** Whether a webhook URL may be called: https always, http only where allowed (tests, a local run). */
export function webhookUrlAllowed(url: string, allowHttp: boolean): boolean {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return false;
  }
  return protocol === 'https:' || (allowHttp && protocol === 'http:');
}

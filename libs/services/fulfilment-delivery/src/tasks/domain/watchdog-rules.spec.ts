import {
  escalationAt,
  isEscalationDue,
  isLeaseLapsed,
  isOrphaned,
  isReminderDue,
  isTimedOut,
  timeoutOutcome,
  type WatchedTask,
  WEBHOOK_BACKOFF_BASE_MS,
  WEBHOOK_BACKOFF_MAX_MS,
  webhookBackoffMs,
  webhookUrlAllowed,
  webhookVerdict,
} from './watchdog-rules';

const HOUR = 3_600_000;
const t0 = new Date('2026-03-01T00:00:00Z');
const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);
/** A task due at +72 h that times out at +168 h, claimed under a lease to +1 h. */
const task = (over: Partial<WatchedTask> = {}): WatchedTask => ({
  state: 'claimed',
  dueAt: at(72),
  timeoutAt: at(168),
  leaseExpiresAt: at(1),
  remindedAt: null,
  escalatedAt: null,
  ...over,
});

describe('the task watchdog decisions', () => {
  it('reminds a queued or claimed task once it is due, once, and never one that is not worked on', () => {
    expect(isReminderDue(task(), at(71.99))).toBe(false);
    expect(isReminderDue(task(), at(72))).toBe(true);
    expect(isReminderDue(task({ state: 'queued' }), at(80))).toBe(true);
    expect(isReminderDue(task({ remindedAt: at(72) }), at(80))).toBe(false);
    for (const state of ['waiting', 'blocked', 'action_required', 'complete', 'skipped', 'cancelled'] as const) expect(isReminderDue(task({ state }), at(80))).toBe(false);
  });

  it('escalates the given hours after the due date, or at the timeout when that comes first, once', () => {
    expect(escalationAt(task(), 24)).toEqual(at(96));
    expect(escalationAt(task({ timeoutAt: at(80) }), 24)).toEqual(at(80));
    expect(isEscalationDue(task(), at(95.99), 24)).toBe(false);
    expect(isEscalationDue(task(), at(96), 24)).toBe(true);
    expect(isEscalationDue(task({ timeoutAt: at(80) }), at(80), 24)).toBe(true);
    expect(isEscalationDue(task({ escalatedAt: at(96) }), at(100), 24)).toBe(false);
    expect(isEscalationDue(task({ state: 'action_required' }), at(100), 24)).toBe(false);
  });

  it('times out a worked task at its timeout, as the SLA says: skip settles it, pause leaves it to an operator', () => {
    expect(isTimedOut(task(), at(167.99))).toBe(false);
    expect(isTimedOut(task(), at(168))).toBe(true);
    expect(isTimedOut(task({ state: 'queued' }), at(168))).toBe(true);
    expect(isTimedOut(task({ state: 'waiting' }), at(200))).toBe(false);
    expect(isTimedOut(task({ state: 'action_required' }), at(200))).toBe(false);
    expect(timeoutOutcome('skip')).toBe('skipped');
    expect(timeoutOutcome('pause')).toBe('action_required');
  });

  it("requeues a claim whose lease lapsed on the database's clock, but not one that timed out (the SLA settles it)", () => {
    expect(isLeaseLapsed(task(), at(0.99), at(0.99))).toBe(false);
    expect(isLeaseLapsed(task(), at(1), at(1))).toBe(true);
    expect(isLeaseLapsed(task({ state: 'queued' }), at(2), at(2))).toBe(false);
    expect(isLeaseLapsed(task({ leaseExpiresAt: null }), at(2), at(2))).toBe(false);
    // A webhook's 202 holds the claim until the timeout: at the timeout it is timed out, not requeued.
    expect(isLeaseLapsed(task({ leaseExpiresAt: at(168) }), at(168), at(168))).toBe(false);
  });

  it('hands the open tasks of a deleted system to an operator, and leaves settled ones and live systems alone', () => {
    for (const state of ['waiting', 'queued', 'claimed', 'blocked'] as const) expect(isOrphaned({ state }, true)).toBe(true);
    for (const state of ['action_required', 'complete', 'not_found', 'skipped', 'error', 'cancelled'] as const) expect(isOrphaned({ state }, true)).toBe(false);
    expect(isOrphaned({ state: 'queued' }, false)).toBe(false);
  });
});

describe('the webhook sender decisions', () => {
  it('backs off exponentially from the base per failed attempt, up to the cap', () => {
    expect([1, 2, 3, 4].map(webhookBackoffMs)).toEqual([WEBHOOK_BACKOFF_BASE_MS, 2 * WEBHOOK_BACKOFF_BASE_MS, 4 * WEBHOOK_BACKOFF_BASE_MS, 8 * WEBHOOK_BACKOFF_BASE_MS]);
    expect(webhookBackoffMs(40)).toBe(WEBHOOK_BACKOFF_MAX_MS);
    expect(webhookBackoffMs(0)).toBe(WEBHOOK_BACKOFF_BASE_MS);
  });

  it('takes a 200 with a task answer as the answer, a 202 as accepted, anything else as a failed call', () => {
    expect(webhookVerdict(200, JSON.stringify({ outcome: 'not_found' }))).toEqual({ kind: 'answered', answer: { outcome: 'not_found' } });
    expect(webhookVerdict(200, JSON.stringify({ outcome: 'error', retryable: true, message: 'busy' }))).toMatchObject({ kind: 'answered' });
    expect(webhookVerdict(202, '')).toEqual({ kind: 'accepted' });
    expect(webhookVerdict(202, 'anything')).toEqual({ kind: 'accepted' });
    for (const status of [201, 204, 301, 400, 404, 500, 503]) expect(webhookVerdict(status, '{"outcome":"not_found"}')).toMatchObject({ kind: 'failed' });
    expect(webhookVerdict(200, '')).toMatchObject({ kind: 'failed' });
    expect(webhookVerdict(200, 'OK')).toMatchObject({ kind: 'failed' });
    expect(webhookVerdict(200, JSON.stringify({ outcome: 'complete', extra: 1 }))).toMatchObject({ kind: 'failed' });
    expect(webhookVerdict(200, JSON.stringify({ outcome: 'maybe' }))).toMatchObject({ kind: 'failed' });
  });

  it('never quotes the response body in a failure (it may hold personal data)', () => {
    const verdict = webhookVerdict(200, JSON.stringify({ outcome: 'done', email: 'jane@example.org' }));
    expect(verdict.kind).toBe('failed');
    expect(JSON.stringify(verdict)).not.toContain('jane@example.org');
    expect(JSON.stringify(webhookVerdict(500, 'jane@example.org'))).not.toContain('jane');
  });

  it('calls https always and http only where allowed; anything else never', () => {
    expect(webhookUrlAllowed('https://hooks.example.org/dsar', false)).toBe(true);
    expect(webhookUrlAllowed('http://127.0.0.1:8080/hook', false)).toBe(false);
    expect(webhookUrlAllowed('http://127.0.0.1:8080/hook', true)).toBe(true);
    for (const url of ['ftp://example.org/x', 'file:///etc/passwd', 'not a url', '']) expect(webhookUrlAllowed(url, true)).toBe(false);
  });
});

import { DeliveryEventTypes } from '@dsar/contracts';
import type { DeliveryLogEntryEntity, DeliveryLogOutcome } from '../infrastructure/delivery-log-entry.entity';
import { groupTries } from './delivery-log';

let seq = 0;
function row(eventType: string, eventId: string | null, outcome: DeliveryLogOutcome, at: string, detail: string | null = null, repeated?: { repeats: number; lastAt: string }): DeliveryLogEntryEntity {
  seq += 1;
  return {
    seq: String(seq),
    tenantId: 't',
    workspaceId: null,
    requestId: 'r',
    eventType,
    eventId,
    outcome,
    actor: 'key:1',
    detail,
    challengeId: null,
    artifactId: null,
    at: new Date(at),
    repeats: repeated?.repeats ?? 1,
    lastAt: repeated ? new Date(repeated.lastAt) : null,
  };
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the delivery log view', () => {
  it('groups tries by event type in the order each type first happened, numbering them from 1', () => {
    const logs = groupTries([
      row(DeliveryEventTypes.prepared, id(1), 'prepared', '2026-06-01T09:00:00Z'),
      row(DeliveryEventTypes.stepUpIssued, id(2), 'issued', '2026-06-01T09:01:00Z'),
      row(DeliveryEventTypes.stepUpFailed, id(3), 'wrong_token', '2026-06-01T09:02:00Z', 'completion: failure 1 of 5'),
      row(DeliveryEventTypes.stepUpCompleted, id(4), 'ok', '2026-06-01T09:03:00Z'),
      row(DeliveryEventTypes.stepUpCompleted, null, 'already_completed', '2026-06-01T09:03:00Z'),
      row(DeliveryEventTypes.artifactDelivered, id(5), 'metadata', '2026-06-01T09:04:00Z'),
      row(DeliveryEventTypes.stepUpFailed, id(6), 'missing_token', '2026-06-01T09:05:00Z'),
      row(DeliveryEventTypes.artifactDelivered, id(7), 'bytes', '2026-06-01T09:06:00Z'),
    ]);
    expect(logs.map((l) => [l.eventType, l.eventId, l.attempts.map((a) => `${a.attempt}:${a.outcome}`)])).toEqual([
      // Named by the public names, not the CloudEvents types the rows keep.
      ['delivery_prepared', id(1), ['1:prepared']],
      ['delivery_step_up_issued', id(2), ['1:issued']],
      ['delivery_step_up_failed', id(6), ['1:wrong_token', '2:missing_token']],
      // A repeated completion records no event: the group keeps the completion's.
      ['delivery_step_up_completed', id(4), ['1:ok', '2:already_completed']],
      ['delivery_artifact_delivered', id(7), ['1:metadata', '2:bytes']],
    ]);
    expect(logs[2].attempts[0]).toEqual({
      attempt: 1,
      at: '2026-06-01T09:02:00.000Z',
      outcome: 'wrong_token',
      actor: 'key:1',
      detail: 'completion: failure 1 of 5',
      repeats: 1,
      lastAt: '2026-06-01T09:02:00.000Z',
    });
  });

  it('shows an entry of repeated refusals with how many tries it stands for, from the first to the latest', () => {
    const logs = groupTries([row(DeliveryEventTypes.stepUpFailed, id(1), 'throttled', '2026-06-01T09:00:00Z', 'download: throttled', { repeats: 290, lastAt: '2026-06-01T09:20:00Z' })]);
    expect(logs[0].attempts).toEqual([
      { attempt: 1, at: '2026-06-01T09:00:00.000Z', outcome: 'throttled', actor: 'key:1', detail: 'download: throttled', repeats: 290, lastAt: '2026-06-01T09:20:00.000Z' },
    ]);
  });

  it('is empty without tries', () => {
    expect(groupTries([])).toEqual([]);
  });
});

import { canPrepareDelivery, deliveryLogRows } from './delivery';

describe('the delivery tab', () => {
  it('offers preparation only for a fulfilled request, to a caller who may act', () => {
    expect(canPrepareDelivery('fulfilled', ['requests:read', 'requests:act'])).toBe(true);
    expect(canPrepareDelivery('fulfilled', ['requests:read', 'audit:verify'])).toBe(false);
    expect(canPrepareDelivery('in_progress', ['requests:act'])).toBe(false);
  });

  it('lists every try of every step oldest first, repeated refusals with their last time', () => {
    const rows = deliveryLogRows([
      {
        eventId: '11111111-1111-4111-8111-111111111111',
        eventType: 'delivery_prepared',
        attempts: [
          { attempt: 1, at: '2026-06-01T09:00:00Z', outcome: 'prepared', actor: 'jwt:ada', detail: 'portal/token', repeats: 1, lastAt: '2026-06-01T09:00:00Z' },
          { attempt: 2, at: '2026-06-01T11:00:00Z', outcome: 'prepared', actor: 'jwt:ada', detail: null, repeats: 1, lastAt: '2026-06-01T11:00:00Z' },
        ],
      },
      {
        eventId: '22222222-2222-4222-8222-222222222222',
        eventType: 'delivery_step_up_failed',
        attempts: [{ attempt: 1, at: '2026-06-01T10:00:00Z', outcome: 'token_invalid', actor: 'key:ab', detail: null, repeats: 3, lastAt: '2026-06-01T10:05:00Z' }],
      },
    ]);
    expect(rows.map((r) => [r.step, r.attempt, r.outcome, r.lastAt])).toEqual([
      ['Delivery prepared', 1, 'prepared', null],
      ['Step-up token refused', 1, 'token invalid', '2026-06-01T10:05:00Z'],
      ['Delivery prepared', 2, 'prepared', null],
    ]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
  });

  it('has no rows for an empty log', () => {
    expect(deliveryLogRows([])).toEqual([]);
  });
});

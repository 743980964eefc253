import { notificationRows } from './notifications';

const REQUEST = '33333333-3333-4333-8333-333333333333';

describe('the notifications tab', () => {
  it('gives each notification its channels, attempts and the newest delivery', () => {
    const [row] = notificationRows({
      requestId: REQUEST,
      events: [
        {
          eventId: '44444444-4444-4444-8444-444444444444',
          eventType: 'request_acknowledged',
          audience: 'subject',
          status: 'delivered',
          createdAt: '2026-06-01T09:00:00Z',
          attempts: [
            { attempt: 1, channel: 'email', destination: 'p***@example.org', status: 'retrying', createdAt: '2026-06-01T09:00:01Z', error: 'timeout' },
            { attempt: 2, channel: 'email', destination: 'p***@example.org', status: 'delivered', createdAt: '2026-06-01T09:01:00Z' },
            { attempt: 3, channel: 'email', destination: 'p***@example.org', status: 'delivered', createdAt: '2026-06-01T12:00:00Z' },
          ],
        },
      ],
    });
    expect(row).toEqual({
      eventId: '44444444-4444-4444-8444-444444444444',
      kind: 'request_acknowledged',
      audience: 'subject',
      channels: 'Email',
      status: 'delivered',
      attempts: 3,
      sentAt: '2026-06-01T12:00:00Z',
      lastError: null,
    });
  });

  it('shows a pending notification as not sent, and why a failed one failed', () => {
    const rows = notificationRows({
      requestId: REQUEST,
      events: [
        { eventId: '55555555-5555-4555-8555-555555555555', eventType: 'request_created', audience: 'operators', status: 'pending', createdAt: '2026-06-01T09:00:00Z', attempts: [] },
        {
          eventId: '66666666-6666-4666-8666-666666666666',
          eventType: 'request_refused',
          audience: 'subject',
          status: 'failed',
          createdAt: '2026-06-01T09:00:00Z',
          attempts: [
            { attempt: 1, channel: 'chat', destination: '#p***', status: 'delivered', createdAt: '2026-06-01T09:00:02Z' },
            { attempt: 2, channel: 'email', destination: 'p***@example.org', status: 'failed', createdAt: '2026-06-01T09:00:03Z', error: 'mailbox unavailable' },
          ],
        },
      ],
    });
    expect(rows.map((r) => [r.channels, r.sentAt, r.lastError])).toEqual([
      ['', null, null],
      ['Chat, Email', '2026-06-01T09:00:02Z', 'mailbox unavailable'],
    ]);
  });
});

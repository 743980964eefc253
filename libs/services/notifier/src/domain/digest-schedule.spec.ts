import { dueDigestDate } from './digest-schedule';

describe('dueDigestDate', () => {
  it('is due from the local time until the local day ends', () => {
    // 07:59 and 08:00 in Berlin (UTC+1 in winter).
    expect(dueDigestDate(new Date('2026-11-25T06:59:00Z'), '08:00', 'Europe/Berlin')).toBeNull();
    expect(dueDigestDate(new Date('2026-11-25T07:00:00Z'), '08:00', 'Europe/Berlin')).toBe('2026-11-25');
    expect(dueDigestDate(new Date('2026-11-25T22:59:00Z'), '08:00', 'Europe/Berlin')).toBe('2026-11-25');
  });

  it('takes the date of the zone, not of UTC', () => {
    expect(dueDigestDate(new Date('2026-11-25T23:30:00Z'), '00:15', 'Europe/Berlin')).toBe('2026-11-26');
    expect(dueDigestDate(new Date('2026-11-26T12:00:00Z'), '08:00', 'America/New_York')).toBeNull();
    expect(dueDigestDate(new Date('2026-11-26T03:00:00Z'), '08:00', 'America/New_York')).toBe('2026-11-25');
  });

  it('is never due when off', () => {
    expect(dueDigestDate(new Date('2026-11-25T12:00:00Z'), 'off', 'UTC')).toBeNull();
  });
});

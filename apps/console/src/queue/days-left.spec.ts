import { dayNumber, daysLeft } from './days-left';

const UTC = 'UTC';
const at = (iso: string) => new Date(iso);

describe('the days-left badge', () => {
  // A 30-day period: received 1 March, due at the end of 31 March.
  const period = { receivedAt: '2026-03-01T00:00:00.000Z', dueAt: '2026-03-31T00:00:00.000Z', timeZone: UTC };

  it('counts whole calendar days to the due day while there is more than half of the period left', () => {
    expect(daysLeft({ ...period, now: at('2026-03-02T09:00:00Z') })).toEqual({ text: '29 days left', level: 'normal', overdue: false });
  });

  it('turns amber under half of the period, and red under a quarter', () => {
    expect(daysLeft({ ...period, now: at('2026-03-20T00:00:00Z') })).toMatchObject({ text: '11 days left', level: 'warning' });
    expect(daysLeft({ ...period, now: at('2026-03-25T00:00:00Z') })).toMatchObject({ text: '6 days left', level: 'critical' });
  });

  it('is amber, not red, with exactly a quarter of the period left, and red a moment later', () => {
    // A quarter of 30 days is 7.5 days before the due time.
    expect(daysLeft({ ...period, now: at('2026-03-23T12:00:00.000Z') })).toMatchObject({ level: 'warning', text: '8 days left' });
    expect(daysLeft({ ...period, now: at('2026-03-23T12:00:00.001Z') })).toMatchObject({ level: 'critical' });
  });

  it('is neutral with exactly half left, and amber a moment later', () => {
    expect(daysLeft({ ...period, now: at('2026-03-16T00:00:00.000Z') })).toMatchObject({ level: 'normal' });
    expect(daysLeft({ ...period, now: at('2026-03-16T00:00:00.001Z') })).toMatchObject({ level: 'warning' });
  });

  it('says "1 day left" the day before', () => {
    expect(daysLeft({ ...period, dueAt: '2026-03-31T22:59:59.999Z', now: at('2026-03-30T23:30:00Z') }).text).toBe('1 day left');
  });

  it('says "due today" on the due day until the due time, in red', () => {
    const due = { ...period, dueAt: '2026-03-31T22:59:59.999Z' };
    expect(daysLeft({ ...due, now: at('2026-03-31T00:00:00Z') })).toEqual({ text: 'due today', level: 'critical', overdue: false });
    expect(daysLeft({ ...due, now: at('2026-03-31T22:59:59.999Z') })).toMatchObject({ text: 'due today', overdue: false });
  });

  it('is overdue past the due time: "overdue today" on the due day, then by whole days', () => {
    const due = { ...period, dueAt: '2026-03-31T20:00:00.000Z' };
    expect(daysLeft({ ...due, now: at('2026-03-31T20:00:00.001Z') })).toEqual({ text: 'overdue today', level: 'critical', overdue: true });
    expect(daysLeft({ ...due, now: at('2026-04-01T08:00:00Z') })).toEqual({ text: 'overdue by 1 day', level: 'critical', overdue: true });
    expect(daysLeft({ ...due, now: at('2026-04-02T08:00:00Z') })).toEqual({ text: 'overdue by 2 days', level: 'critical', overdue: true });
  });

  it("follows the API's overdue flag: overdue by its word, and past the due time but not overdue when it says so (closed)", () => {
    expect(daysLeft({ ...period, now: at('2026-03-10T00:00:00Z'), overdue: true })).toMatchObject({ overdue: true, level: 'critical' });
    expect(daysLeft({ ...period, now: at('2026-04-05T00:00:00Z'), overdue: false })).toEqual({ text: 'due date passed', level: 'normal', overdue: false });
  });

  it('is red when the period has no length', () => {
    expect(daysLeft({ receivedAt: '2026-03-31T00:00:00Z', dueAt: '2026-03-31T00:00:00Z', now: at('2026-03-30T00:00:00Z'), timeZone: UTC })).toMatchObject({ level: 'critical', text: '1 day left' });
  });

  it("counts the days of the time zone it is given (the browser's by default)", () => {
    // 23:30 UTC on 30 March is already 31 March in Berlin (summer time, UTC+2).
    const input = { ...period, dueAt: '2026-03-31T21:59:59.999Z', now: at('2026-03-30T23:30:00Z') };
    expect(daysLeft({ ...input, timeZone: 'UTC' }).text).toBe('1 day left');
    expect(daysLeft({ ...input, timeZone: 'Europe/Berlin' }).text).toBe('due today');
    expect(dayNumber(at('1970-01-02T00:00:00Z'), UTC)).toBe(1);
  });
});

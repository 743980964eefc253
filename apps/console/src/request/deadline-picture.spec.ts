import { deadlineGeometry, type DeadlineInput, deadlineSummary } from './deadline-picture';

type Segment = DeadlineInput['clock']['segments'][number];
type Pause = DeadlineInput['pauses'][number];
type Extension = DeadlineInput['extensions'][number];

const day = (d: string) => `2026-${d}T00:00:00.000Z`;
const at = (d: string) => new Date(day(d));

function segment(reason: Segment['reason'], from: string, to: string | null, countsTowardDeadline = true): Segment {
  return { actor: 'system', countsTowardDeadline, from: day(from), to: to === null ? null : day(to), policyVersion: '1.0.0', reason };
}

/** A request received on 1 March with a 30-day period (base deadline 31 March), and whatever the case changes. */
function explanation(changes: Omit<Partial<DeadlineInput>, 'clock'> & { clock?: Partial<DeadlineInput['clock']> } = {}): DeadlineInput {
  const { clock, ...rest } = changes;
  return {
    baseDeadline: day('03-31'),
    finalDueAt: day('03-31'),
    pauses: [],
    extensions: [],
    ...rest,
    clock: {
      clockMode: 'receipt',
      dueAt: rest.finalDueAt ?? day('03-31'),
      receivedAt: day('03-01'),
      state: 'running',
      pausedSince: null,
      startedAt: day('03-01'),
      timeZone: 'Europe/Berlin',
      lastDay: '2026-03-31',
      segments: [segment('base', '03-01', '03-31')],
      ...clock,
    },
  };
}

const pause = (changes: Partial<Pause>): Pause => ({
  duration: 'P5D',
  note: null,
  resumeNote: null,
  reason: 'clarification',
  rule: 'suspend',
  effect: 'suspended',
  excludedDays: 6,
  from: day('03-05'),
  to: day('03-10'),
  actor: 'key:operator',
  ...changes,
});

function expectNoNaN(value: unknown): void {
  expect(JSON.stringify(value)).not.toMatch(/NaN|null,"width"|Infinity/);
}

describe('the deadline picture', () => {
  it('without pauses: one stretch that counts, the base deadline and the due date as one marker, today before it', () => {
    const g = deadlineGeometry(explanation(), at('03-11'));
    expect(g.start).toBe(day('03-01'));
    expect(g.end).toBe(day('03-31'));
    expect(g.basePeriod).toEqual({ x: 0, width: 100 });
    expect(g.bands).toEqual([{ kind: 'running', from: day('03-01'), to: day('03-31'), x: 0, width: 100, label: 'Counts toward the deadline, 2026-03-01 to 2026-03-31', open: false }]);
    expect(g.markers).toEqual([
      { kinds: ['today'], at: day('03-11'), x: 33.33, label: 'Today', row: 0 },
      { kinds: ['base-deadline', 'due'], at: day('03-31'), x: 100, label: 'Base deadline and due', row: 1 },
    ]);
    const summary = deadlineSummary(explanation(), at('03-11'), undefined, 'UTC');
    expect(summary).toMatch(/^Deadline: due 2026-03-31 \(20 days left\)\./);
    expect(summary).toContain('No pauses.');
  });

  it('with an open pause: hatched from its start to now, marked open, and the summary says the clock is paused', () => {
    const input = explanation({
      pauses: [pause({ reason: 'verification', effect: 'pending', to: null, excludedDays: 0, duration: 'P6D' })],
      clock: { state: 'paused', pausedSince: day('03-05'), segments: [segment('base', '03-01', '03-05'), segment('verification', '03-05', null, false)] },
    });
    const g = deadlineGeometry(input, at('03-11'));
    expect(g.end).toBe(day('03-31'));
    expect(g.bands.map(({ kind, x, width, open }) => ({ kind, x, width, open }))).toEqual([
      { kind: 'running', x: 0, width: 13.33, open: false },
      { kind: 'pause', x: 13.33, width: 20, open: true },
      { kind: 'remaining', x: 33.33, width: 66.67, open: false },
    ]);
    expect(g.bands[2].label).toBe('Still to run once the pause ends: due 2026-03-31 at the earliest');
    expect(g.bands[1].to).toBe(day('03-11'));
    expect(g.bands[1].label).toBe('Identity verification pause, 2026-03-05 to now (6 days): still open; the clock is suspended');
    const summary = deadlineSummary(input, at('03-11'), undefined, 'UTC');
    expect(summary).toContain('1 pause: Identity verification pause');
    expect(summary).toContain('The clock is paused since 2026-03-05.');
  });

  it('with a closed pause that suspended the clock: the pause between two stretches that count, the due date after the base deadline', () => {
    const input = explanation({
      finalDueAt: day('04-06'),
      pauses: [pause({})],
      clock: { segments: [segment('base', '03-01', '03-05'), segment('clarification', '03-05', '03-10', false), segment('resumed', '03-10', '04-06')] },
    });
    const g = deadlineGeometry(input, at('03-20'));
    expect(g.end).toBe(day('04-06'));
    expect(g.basePeriod).toEqual({ x: 0, width: 83.33 });
    expect(g.bands.map(({ kind, x, width }) => ({ kind, x, width }))).toEqual([
      { kind: 'running', x: 0, width: 11.11 },
      { kind: 'pause', x: 11.11, width: 13.89 },
      { kind: 'running', x: 25, width: 75 },
    ]);
    expect(g.bands[1]).toMatchObject({ open: false, label: 'Clarification pause, 2026-03-05 to 2026-03-10 (5 days): suspended the clock: 6 days do not count' });
    expect(g.markers.map(({ kinds, x, row }) => ({ kinds, x, row }))).toEqual([
      { kinds: ['today'], x: 52.78, row: 0 },
      { kinds: ['base-deadline'], x: 83.33, row: 1 },
      { kinds: ['due'], x: 100, row: 2 },
    ]);
    expect(deadlineSummary(input, at('03-20'), undefined, 'UTC')).toMatch(/paus/i);
  });

  it('with an extension: a band beyond the base deadline up to the new due date, named by its amount and justification', () => {
    const extension: Extension = {
      additionalDays: 61,
      additionalMonths: 2,
      justification: 'complexity',
      reason: 'Many systems hold data of this person.',
      notifiedAt: day('03-15'),
      noticeDueAt: day('03-31'),
      previousDueAt: day('03-31'),
      dueAt: day('05-31'),
      actor: 'key:operator',
    };
    const input = explanation({ finalDueAt: day('05-31'), extensions: [extension], clock: { segments: [segment('base', '03-01', '03-31'), segment('extension', '03-31', '05-31')] } });
    const g = deadlineGeometry(input, at('03-15'));
    expect(g.bands.map(({ kind, x, width }) => ({ kind, x, width }))).toEqual([
      { kind: 'running', x: 0, width: 32.97 },
      { kind: 'extension', x: 32.97, width: 67.03 },
    ]);
    expect(g.bands[1].label).toBe('Extension of 2 months (complexity), to 2026-05-31');
    expect(g.markers.map((m) => m.label)).toEqual(['Today', 'Base deadline', 'Due']);
    expect(deadlineSummary(input, at('03-15'), undefined, 'UTC')).toContain('1 extension: Extension of 2 months (complexity), to 2026-05-31.');
  });

  it('draws an extension the segments leave out from its own dates', () => {
    const extension: Extension = {
      additionalDays: 10,
      justification: 'policy_extension',
      reason: null,
      notifiedAt: day('03-15'),
      noticeDueAt: day('03-31'),
      previousDueAt: day('03-31'),
      dueAt: day('04-10'),
      actor: 'key:operator',
    };
    const g = deadlineGeometry(explanation({ finalDueAt: day('04-10'), extensions: [extension] }), at('03-15'));
    expect(g.bands.map((b) => [b.kind, b.label])).toEqual([
      ['running', 'Counts toward the deadline, 2026-03-01 to 2026-03-31'],
      ['extension', 'Extension of 10 days (policy extension), to 2026-04-10'],
    ]);
  });

  it('after the due date: the axis runs to today, which is at its end, and the summary says how late it is', () => {
    const g = deadlineGeometry(explanation(), at('04-30'));
    expect(g.end).toBe(day('04-30'));
    expect(g.markers.map(({ kinds, x }) => ({ kinds, x }))).toEqual([
      { kinds: ['base-deadline', 'due'], x: 50 },
      { kinds: ['today'], x: 100 },
    ]);
    expect(g.bands[0]).toMatchObject({ x: 0, width: 50 });
    expect(deadlineSummary(explanation(), at('04-30'), undefined, 'UTC')).toMatch(/^Deadline: due 2026-03-31 \(overdue by 30 days\)\./);
  });

  it('with a period of no length: everything at the start, one marker with every name, no NaN', () => {
    const input = explanation({ baseDeadline: day('03-01'), finalDueAt: day('03-01'), clock: { segments: [segment('base', '03-01', '03-01')] } });
    const g = deadlineGeometry(input, at('03-01'));
    expectNoNaN(g);
    expect(g.basePeriod).toEqual({ x: 0, width: 0 });
    expect(g.bands).toEqual([expect.objectContaining({ kind: 'running', x: 0, width: 0 })]);
    expect(g.markers).toEqual([{ kinds: ['base-deadline', 'due', 'today'], at: day('03-01'), x: 0, label: 'Base deadline, due and today', row: 0 }]);
    expect(deadlineSummary(input, at('03-01'), undefined, 'UTC')).toMatch(/^Deadline: due 2026-03-01 \(due today\)\./);
  });

  it('gives each marker label a row of its own, in the order of time, so that no two labels touch', () => {
    const g = deadlineGeometry(explanation({ finalDueAt: day('04-02') }), at('04-01'));
    expect(g.markers.map(({ label, row }) => ({ label, row }))).toEqual([
      { label: 'Base deadline', row: 0 },
      { label: 'Today', row: 1 },
      { label: 'Due', row: 2 },
    ]);
  });

  it('says how long a pause lasted in hours under a day, and "less than an hour" under one', () => {
    const open = (now: Date) =>
      deadlineGeometry(explanation({ pauses: [pause({ from: day('03-05'), to: null, effect: 'pending' })], clock: { state: 'paused', pausedSince: day('03-05') } }), now).bands.find(
        (b) => b.kind === 'pause',
      )?.label;
    expect(open(new Date('2026-03-05T00:20:00Z'))).toContain('(less than an hour)');
    expect(open(new Date('2026-03-05T01:00:00Z'))).toContain('(1 hour)');
    expect(open(new Date('2026-03-05T05:00:00Z'))).toContain('(5 hours)');
  });

  it('draws the time before a restart as no longer counting, and keeps positions inside the axis', () => {
    const input = explanation({
      finalDueAt: day('04-15'),
      pauses: [pause({ reason: 'verification', rule: 'restart', effect: 'restarted', excludedDays: 0, from: day('03-10'), to: day('03-16') })],
      clock: {
        startedAt: day('03-16'),
        segments: [segment('base', '03-01', '03-10', false), segment('verification', '03-10', '03-16', false), segment('restart', '03-16', '04-15')],
      },
    });
    const g = deadlineGeometry(input, at('03-20'));
    expect(g.bands.map((b) => b.kind)).toEqual(['not-counting', 'pause', 'running']);
    expect(g.bands[1].label).toContain('restarted the period when it ended');
    for (const b of g.bands) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(100.01);
    }
  });

  it('formats the dates of its labels with the formatter it is given', () => {
    const g = deadlineGeometry(explanation(), at('03-11'), (iso) => `<${iso.slice(5, 10)}>`);
    expect(g.bands[0].label).toBe('Counts toward the deadline, <03-01> to <03-31>');
  });
});

import { atRiskHorizon, statsWindowsOf } from './request-windows';

describe("the spans of the tenant's figures", () => {
  const asOf = new Date('2026-03-10T12:00:00.000Z');

  it('takes the week as 7 × 24 hours on either side of the moment of counting, and the window back from it', () => {
    expect(statsWindowsOf(asOf)).toEqual({
      asOf,
      weekAhead: new Date('2026-03-17T12:00:00.000Z'),
      weekAgo: new Date('2026-03-03T12:00:00.000Z'),
      closedSince: new Date('2026-02-08T12:00:00.000Z'),
      windowDays: 30,
    });
    expect(statsWindowsOf(asOf, 1).closedSince).toEqual(new Date('2026-03-09T12:00:00.000Z'));
  });

  it("counts days as 24 hours of UTC across a change of the clocks, as the queue's at-risk filter does", () => {
    // Europe's clocks go forward on 29 March 2026: the horizon is still 7 × 24 hours on.
    expect(atRiskHorizon(new Date('2026-03-27T12:00:00.000Z'), 7)).toEqual(new Date('2026-04-03T12:00:00.000Z'));
    expect(atRiskHorizon(asOf, 0)).toEqual(asOf);
    expect(statsWindowsOf(asOf).weekAhead).toEqual(atRiskHorizon(asOf, 7));
  });
});

import { estimateWithin, shareOf } from './request-queue';

/** The estimate of a large at-risk total: the planner's share, applied to the exact open count, within what the capped counts proved. */
describe('the at-risk estimate', () => {
  const plan = (atRisk: number, open: number) => [{ Plan: { 'Node Type': 'Append', 'Plan Rows': atRisk + open, Plans: [{ 'Plan Rows': atRisk }, { 'Plan Rows': open }] } }];

  it('reads the share from the two members of the plan, as a document or as its JSON text', () => {
    expect(shareOf(plan(578_481, 601_000))).toBeCloseTo(0.9625, 4);
    expect(shareOf(JSON.stringify(plan(25, 100)))).toBe(0.25);
  });

  it('takes every open request as at risk when the plan does not say', () => {
    expect(shareOf([{ Plan: { 'Node Type': 'Seq Scan', 'Plan Rows': 10 } }])).toBe(1);
    expect(shareOf(plan(10, 0))).toBe(1);
    expect(shareOf(plan(300, 200))).toBe(1);
  });

  it('applies the share to the open count, and keeps the answer above the cap on either side', () => {
    expect(estimateWithin(600_000, 0.96, 10_001)).toBe(576_000);
    // More than 10,000 at risk, more than 10,000 not.
    expect(estimateWithin(600_000, 0.001, 10_001)).toBe(10_001);
    expect(estimateWithin(600_000, 1, 10_001)).toBe(589_999);
    expect(estimateWithin(8, 0.1, 3)).toBe(3);
    expect(estimateWithin(8, 0.9, 3)).toBe(5);
  });
});

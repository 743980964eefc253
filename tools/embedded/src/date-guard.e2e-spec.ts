import { ManualClock } from '@dsar/platform/clock';
import { clockScenarios } from './e2e/clock.scenarios';
import { lifecycleScenarios } from './e2e/lifecycle.scenarios';
import { type TestSystem, withEmbeddedSystem } from './e2e/systems';

/**
 * The date guard: the lifecycle and clock scenarios, which count deadlines from
 * "now", run again with the system's clock started at days where a hidden
 * assumption about today's date fails at once (a weekend, a holiday season, a
 * month end, the eve of a daylight-saving change on either side of the
 * Atlantic, a leap day, a UTC evening that is already tomorrow elsewhere),
 * instead of on a random day in CI. The clock runs on from each start at the
 * real pace. To repeat any other suite on a given day: `DSAR_TEST_NOW=<ISO instant> npm run test:e2e`.
 */
const GUARD_NOWS: Array<[title: string, start: string]> = [
  ['a Friday afternoon (Fri 20 Nov 2026)', '2026-11-20T16:00:00Z'],
  ['Wed 25 Nov 2026 (five days earlier plus a month is a Sunday)', '2026-11-25T10:00:00Z'],
  ['a Saturday (Sat 21 Nov 2026)', '2026-11-21T10:00:00Z'],
  ['Christmas Eve (Thu 24 Dec 2026)', '2026-12-24T12:00:00Z'],
  ["New Year's Eve, late UTC evening (Thu 31 Dec 2026, already 1 Jan in Asia)", '2026-12-31T23:30:00Z'],
  ['31 January, a Sunday (31 Jan 2027: one month later has no 31st)', '2027-01-31T09:00:00Z'],
  ['the day before the US daylight-saving change (Sat 13 Mar 2027)', '2027-03-13T18:00:00Z'],
  ['the day before the EU daylight-saving change (Sat 27 Mar 2027)', '2027-03-27T12:00:00Z'],
  ['a leap day (Tue 29 Feb 2028)', '2028-02-29T12:00:00Z'],
];

const scenarios = (getSystem: () => TestSystem) => {
  lifecycleScenarios(getSystem);
  clockScenarios(getSystem);
};

describe.each(GUARD_NOWS)('lifecycle and clock scenarios on %s', (_title, start) => {
  withEmbeddedSystem(`date-guard-${start}`, scenarios, {}, { clock: new ManualClock(start) });
});

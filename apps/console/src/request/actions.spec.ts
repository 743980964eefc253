import type { LifecycleAction } from '@dsar/contracts';
import { ACTION_SPECS, initialValues, instantOfLocal, missingFields, offeredActions } from './actions';

const spec = (action: LifecycleAction) => {
  const found = ACTION_SPECS.find((s) => s.action === action);
  if (!found) throw new Error(`no form for ${action}`);
  return found;
};

describe('the workflow actions of the request page', () => {
  it('offers the actions the request allows, in its order, that the console has a form for', () => {
    const offered = offeredActions(['acknowledge', 'replace_requestor', 'refuse', 'extend_deadline', 'appeal'], ['requests:read', 'requests:act']);
    expect(offered.map((s) => s.label)).toEqual(['Acknowledge', 'Refuse', 'Extend deadline']);
  });

  it('offers nothing to a caller without requests:act (an auditor)', () => {
    expect(offeredActions(['acknowledge', 'refuse', 'close'], ['requests:read', 'audit:export'])).toEqual([]);
  });

  it('names its buttons by the action in words', () => {
    const labels = Object.fromEntries(ACTION_SPECS.map((s) => [s.action, s.label]));
    expect(labels).toMatchObject({
      acknowledge: 'Acknowledge',
      request_verification: 'Request verification',
      refuse: 'Refuse',
      extend_deadline: 'Extend deadline',
      pause_clock: 'Pause clock',
      resume_clock: 'Resume clock',
      close: 'Close',
      fulfil: 'Fulfil',
      request_clarification: 'Request clarification',
      correct_request: 'Correct request',
      resolve_duplicate: 'Resolve duplicate',
    });
  });

  it('calls the routes of the gateway', () => {
    const paths = Object.fromEntries(ACTION_SPECS.map((s) => [s.action, `${s.method} ${s.path('r1')}`]));
    expect(paths).toEqual({
      acknowledge: 'POST /requests/r1/acknowledgements',
      request_clarification: 'POST /requests/r1/clarifications/request',
      receive_clarification: 'POST /requests/r1/clarifications/receive',
      request_verification: 'POST /requests/r1/verification/request',
      approve_verification: 'POST /requests/r1/verification/approve',
      reject_verification: 'POST /requests/r1/verification/reject',
      fulfil: 'POST /requests/r1/fulfilment',
      refuse: 'POST /requests/r1/refusals',
      close: 'POST /requests/r1/closures',
      correct_request: 'POST /requests/r1/corrections',
      resolve_duplicate: 'POST /requests/r1/duplicate-resolution',
      extend_deadline: 'POST /requests/r1/extensions',
      pause_clock: 'POST /requests/r1/clock/pauses',
      resume_clock: 'POST /requests/r1/clock/resume',
    });
  });

  it('sends an empty body for a form left empty, leaving every choice to the API', () => {
    for (const s of ACTION_SPECS) {
      const body = s.body(initialValues(s));
      expect({ action: s.action, body }).toEqual({ action: s.action, body: {} });
    }
  });

  it('builds the bodies of the commands from what was typed', () => {
    expect(spec('refuse').body({ reason: 'excessive', rationale: ' third request this month ', message: '' })).toEqual({ reason: 'excessive', rationale: 'third request this month' });
    expect(spec('extend_deadline').body({ reason: 'Many systems.', additionalDays: '', additionalMonths: '2', justification: 'complexity' })).toEqual({
      reason: 'Many systems.',
      additionalMonths: 2,
      justification: 'complexity',
    });
    expect(spec('correct_request').body({ requestType: 'deletion', jurisdiction: ' us-ca ', reason: 'Misread letter.' })).toEqual({
      requestType: 'deletion',
      jurisdiction: 'US-CA',
      reason: 'Misread letter.',
    });
    expect(spec('resolve_duplicate').body({ resolution: 'separated', reason: 'Different account.' })).toEqual({ resolution: 'separated', reason: 'Different account.' });
    expect(spec('fulfil').body({ overrideReason: 'Legacy system retired.' })).toEqual({ override: { reason: 'Legacy system retired.' } });
    expect(spec('request_verification').body({ level: '', method: '', reasonForDoubt: '', pauseClock: 'false' })).toEqual({ pauseClock: false });
    expect(spec('pause_clock').body({ reason: 'fee', at: '2026-03-01T10:30', note: '' })).toEqual({ reason: 'fee', at: new Date('2026-03-01T10:30').toISOString() });
  });

  it('names the required fields left empty', () => {
    expect(missingFields(spec('refuse'), initialValues(spec('refuse')))).toEqual(['reason']);
    expect(missingFields(spec('correct_request'), { reason: '   ' })).toEqual(['reason']);
    expect(missingFields(spec('resolve_duplicate'), { resolution: 'confirmed', reason: 'Same person.' })).toEqual([]);
    expect(missingFields(spec('acknowledge'), {})).toEqual([]);
  });

  it('reads a local date and time as an instant, and nothing from an empty or broken one', () => {
    expect(instantOfLocal('2026-03-01T10:30')).toBe(new Date(2026, 2, 1, 10, 30).toISOString());
    expect(instantOfLocal('')).toBeUndefined();
    expect(instantOfLocal('yesterday')).toBeUndefined();
  });
});

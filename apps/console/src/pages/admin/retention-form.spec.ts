import type { RetentionClassReport } from '@dsar/contracts';
import { formOfPolicy, retentionBody, retentionFormErrors, retentionPath, sweepWords } from './retention-form';

const report = (overrides: Partial<RetentionClassReport>): RetentionClassReport => ({
  class: 'delivery_log',
  owner: 'fulfilment-delivery',
  purgeEnabled: true,
  legalHoldEnabled: false,
  minDays: 30,
  maxDays: 90,
  blockedBy: null,
  records: 0,
  requestIds: [],
  ...overrides,
});

describe('the retention form', () => {
  it('sends every field of one class', () => {
    const values = formOfPolicy({
      id: '0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10',
      tenantId: 't',
      class: 'audit_event',
      minDays: 30,
      maxDays: 365,
      purgeEnabled: false,
      legalHoldEnabled: false,
      updatedAt: null,
    });
    expect(values).toEqual({ minDays: '30', maxDays: '365', purgeEnabled: false, legalHoldEnabled: false });
    expect(retentionBody('audit_event', { ...values, maxDays: ' 400 ', purgeEnabled: true })).toEqual({ class: 'audit_event', minDays: 30, maxDays: 400, purgeEnabled: true, legalHoldEnabled: false });
  });

  it('refuses days out of range, not whole, or a maximum under the minimum', () => {
    expect(retentionFormErrors({ minDays: '0', maxDays: '36500', purgeEnabled: true, legalHoldEnabled: false })).toEqual([]);
    expect(retentionFormErrors({ minDays: '-1', maxDays: '36501', purgeEnabled: true, legalHoldEnabled: false }).map((e) => e.field)).toEqual(['minDays', 'maxDays']);
    expect(retentionFormErrors({ minDays: '2.5', maxDays: '', purgeEnabled: true, legalHoldEnabled: false }).map((e) => e.field)).toEqual(['minDays', 'maxDays']);
    expect(retentionFormErrors({ minDays: '60', maxDays: '59', purgeEnabled: true, legalHoldEnabled: false })).toEqual([{ field: 'maxDays', message: 'At least the minimum days.' }]);
  });

  it("says what the next sweep would do, and encodes the tenant's path", () => {
    expect(sweepWords(report({ blockedBy: 'legal_hold' }))).toBe('Nothing: legal hold');
    expect(sweepWords(report({}))).toBe('Nothing to purge now');
    expect(sweepWords(report({ records: 1, requestIds: ['tenant'] }))).toBe('1 record');
    expect(sweepWords(report({ records: 5, requestIds: ['a', 'b'] }))).toBe('5 records of 2 requests');
    expect(retentionPath('tenant a')).toBe('/tenants/tenant%20a/retention');
  });
});

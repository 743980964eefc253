import type { AuditEntry, AuditExport } from '@dsar/contracts';
import { auditFileOf, headCommand, heldHashCommand, verifyOutcomeOf } from './audit-chain';

const REQUEST = '8a8a8a8a-8888-4888-8888-888888888888';
const hash = (digit: string) => `sha256:${digit.repeat(64)}`;

const entry = (sequence: number, prev: string, own: string): AuditEntry => ({
  sequence,
  tenantId: 'tenant-a',
  requestId: REQUEST,
  eventId: `9b9b9b9b-9999-4999-8999-99999999999${sequence}`,
  eventType: 'dsar.request.created.v1',
  source: '/dsar/lifecycle-clock',
  actor: 'jwt:ada',
  occurredAt: '2026-06-01T09:00:00Z',
  recordedAt: '2026-06-01T09:00:01Z',
  payload: {},
  prevHash: prev,
  hash: own,
});

const exported: AuditExport = {
  requestId: REQUEST,
  format: 'jsonl',
  events: [entry(1, hash('0'), hash('a')), entry(2, hash('a'), hash('b'))],
  rootHash: hash('b'),
  headSequence: 2,
  purgedPrefix: null,
};

describe('the audit chain tab', () => {
  it('saves the export as JSON, or the CSV the API wrote, under the request reference', () => {
    const json = auditFileOf(exported, 'jsonl');
    expect([json.name, json.type]).toEqual(['audit-chain-DSAR-8A8A8A8A.json', 'application/json']);
    expect(JSON.parse(json.content)).toEqual(exported);
    const csv = auditFileOf({ ...exported, format: 'csv', content: 'sequence,hash\r\n1,x\r\n' }, 'csv');
    expect(csv).toEqual({ name: 'audit-chain-DSAR-8A8A8A8A.csv', type: 'text/csv', content: 'sequence,hash\r\n1,x\r\n' });
  });

  it("verifies the chain's head with its link, and nothing for an empty chain", () => {
    expect(headCommand(exported)).toEqual({ sequence: 2, hash: hash('b'), prevHash: hash('a') });
    expect(headCommand({ ...exported, events: [] })).toBeNull();
  });

  it('takes a hash the user holds, and says what is wrong with one it cannot send', () => {
    expect(heldHashCommand({ sequence: ' 1 ', hash: ` ${hash('A')} ` })).toEqual({ command: { sequence: 1, hash: hash('a') } });
    expect(heldHashCommand({ sequence: '0', hash: hash('a') })).toEqual({ error: expect.stringContaining('whole number') });
    expect(heldHashCommand({ sequence: '1', hash: 'sha256:abc' })).toEqual({ error: expect.stringContaining('64') });
  });

  it('says the chain is valid, or where it breaks', () => {
    expect(verifyOutcomeOf({ verified: true, status: 'verified', mismatches: [], sequence: 2, checkedEntries: 2 })).toEqual({
      valid: true,
      headline: 'Valid: the chain holds together up to entry 2 (2 entries recomputed).',
      findings: [],
    });
    const broken = verifyOutcomeOf({
      verified: false,
      status: 'tampered',
      mismatches: [{ eventId: '9b9b9b9b-9999-4999-8999-999999999992', sequence: 2, kind: 'content', expectedHash: hash('b'), actualHash: hash('c') }],
      sequence: 2,
      checkedEntries: 2,
    });
    expect(broken.valid).toBe(false);
    expect(broken.headline).toMatch(/^Broken/);
    expect(broken.findings).toEqual([expect.stringMatching(/^Entry 2 \(event 9b9b9b9b-9999-4999-8999-999999999992\): its content no longer matches its hash/)]);
    expect(verifyOutcomeOf({ verified: false, status: 'sequence_not_found', mismatches: [], sequence: 9, checkedEntries: 0 }).headline).toBe('The chain has no entry 9.');
  });
});

import { requestCreatedV1 } from '../events/request-events';
import { requestCorrectedV1 } from '../events/lifecycle-events';
import { ErrorCatalog } from '../errors/error-catalog';
import { defaultVerificationLevel, DEFAULT_VERIFICATION_LEVEL } from './verification';
import { MAX_REQUESTED_RIGHTS, newRequestCommand, queueItem, queueQuery, requestDetail, TRIAGE_REASONS } from './requests';
import { REQUEST_TYPES } from './request-kinds';

/** What intake hands lifecycle-clock for a letter it read (or left in triage), and what lifecycle-clock shows of it. */
const base = {
  jurisdiction: 'DE',
  requestTypeInferred: true,
  intakeSource: { channel: 'email', rawText: 'Bitte löschen Sie meine Daten und schicken Sie mir eine Kopie.', receivedAt: '2026-11-30T09:00:00Z' },
};
const read = { confidence: 0.93, triageReason: null, suggestedType: 'deletion', detectedLanguage: 'de' };
const rights = [
  { type: 'deletion', phrase: 'löschen Sie meine Daten', basis: 'phrase' },
  { type: 'access', phrase: 'schicken Sie mir eine Kopie', basis: 'phrase' },
];

const issuesOf = (value: unknown) => {
  const parsed = newRequestCommand.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the new-request command with a reading', () => {
  it('takes a type with every right asked and the reading, or no type with the reason it is in triage', () => {
    expect(issuesOf({ ...base, requestType: 'deletion', requestedRights: rights, reading: read })).toEqual([]);
    expect(issuesOf({ ...base, requestType: null, requestedRights: [], reading: { confidence: 0, triageReason: 'unsupported_language', suggestedType: null, detectedLanguage: 'pl' } })).toEqual([]);
    // A client that names the type sends no reading at all, as before.
    expect(issuesOf({ ...base, requestType: 'access', requestTypeInferred: false })).toEqual([]);
  });

  it('refuses a request without a type that gives no triage reason, and a typed one that says it is in triage', () => {
    expect(issuesOf({ ...base, requestType: null })).toEqual(['requestType: may be null only in triage: reading.triageReason must say why']);
    expect(issuesOf({ ...base, requestType: null, reading: read })).toEqual(['requestType: may be null only in triage: reading.triageReason must say why']);
    expect(issuesOf({ ...base, requestType: 'access', reading: { ...read, triageReason: 'low_confidence' } })).toEqual([
      'reading.triageReason: must be null when requestType is given (a request in triage has no type)',
    ]);
  });

  it('checks the rights and the reading themselves', () => {
    const tooMany = Array.from({ length: MAX_REQUESTED_RIGHTS + 1 }, () => rights[0]);
    expect(issuesOf({ ...base, requestType: 'deletion', requestedRights: tooMany })).toHaveLength(1);
    expect(issuesOf({ ...base, requestType: 'deletion', requestedRights: [{ ...rights[0], phrase: 'x'.repeat(201) }] })).toHaveLength(1);
    expect(issuesOf({ ...base, requestType: 'deletion', requestedRights: [{ ...rights[0], basis: 'guess' }] })).toHaveLength(1);
    expect(issuesOf({ ...base, requestType: 'deletion', requestedRights: [{ ...rights[0], extra: true }] })).toHaveLength(1);
    expect(issuesOf({ ...base, requestType: 'deletion', reading: { ...read, confidence: 1.2 } })).toHaveLength(1);
    expect(issuesOf({ ...base, requestType: null, reading: { ...read, triageReason: 'unsure' } }).length).toBeGreaterThan(0);
    expect(TRIAGE_REASONS).toEqual(['low_confidence', 'no_rule_matched', 'unsupported_language']);
  });
});

describe('a request in triage as lifecycle-clock shows it', () => {
  it('has no type in its detail, its queue item and its events, and says why', () => {
    const triage = { reason: 'low_confidence', suggestedType: 'deletion', confidence: 0.41 };
    expect(requestDetail.shape.requestType.safeParse(null).success).toBe(true);
    expect(requestDetail.shape.triage.safeParse(triage).success).toBe(true);
    expect(requestDetail.shape.triage.safeParse({ ...triage, reason: 'unsure' }).success).toBe(false);
    expect(queueItem.shape.requestType.safeParse(null).success).toBe(true);
    expect(requestCreatedV1.shape.requestType.safeParse(null).success).toBe(true);
    expect(requestCreatedV1.shape.triageReason.safeParse('no_rule_matched').success).toBe(true);
    expect(requestCorrectedV1.shape.previousRequestType.safeParse(null).success).toBe(true);
  });

  it('is listed by the queue filter triage=true, the others by triage=false', () => {
    expect(queueQuery.parse({ triage: 'true' })).toEqual({ triage: true });
    expect(queueQuery.parse({ triage: 'false' })).toEqual({ triage: false });
    expect(queueQuery.safeParse({ triage: 'yes' }).success).toBe(false);
  });

  it('cannot move into in_progress: a 409 of its own', () => {
    expect(ErrorCatalog.REQUEST_IN_TRIAGE).toMatchObject({ code: 'SVC-BE-1112', status: 409, retryable: false });
  });

  it('opens an identity verification at the strictest level any type has', () => {
    expect(defaultVerificationLevel(null)).toBe('enhanced');
    for (const t of REQUEST_TYPES) expect(defaultVerificationLevel(t)).toBe(DEFAULT_VERIFICATION_LEVEL[t]);
  });
});

import type { LetterReading } from './letter-reading';
import { commandReading } from './reading-command';

const reading = (over: Partial<LetterReading> = {}): LetterReading => ({
  requestType: 'deletion',
  suggestedType: 'deletion',
  requestedRights: [
    { type: 'deletion', phrase: 'Please erase my data under Article 17 GDPR.', basis: 'citation' },
    { type: 'objection', phrase: 'I object to profiling.', basis: 'phrase' },
  ],
  confidence: 0.92,
  triageReason: null,
  language: 'en',
  locale: 'en',
  requestorType: 'subject',
  rule: 'citation.gdpr',
  ...over,
});

describe('the command a reading settles', () => {
  it("takes the reading's type and rights when the client named none", () => {
    expect(commandReading(reading(), undefined, true)).toEqual({
      requestType: 'deletion',
      requestTypeInferred: true,
      requestedRights: reading().requestedRights,
      reading: { confidence: 0.92, triageReason: null, suggestedType: 'deletion', detectedLanguage: 'en' },
      locale: 'en',
    });
  });

  it('leaves the type to an operator when the reading triages it: no default type', () => {
    const triaged = commandReading(reading({ requestType: null, suggestedType: 'access', confidence: 0.41, triageReason: 'low_confidence' }), undefined, true);
    expect(triaged).toMatchObject({ requestType: null, requestTypeInferred: true, reading: { triageReason: 'low_confidence', suggestedType: 'access', confidence: 0.41 } });
  });

  it("keeps the client's type: never in triage, the rights as read", () => {
    const named = commandReading(reading({ requestType: null, triageReason: 'unsupported_language', language: 'pl', locale: null, requestedRights: [] }), 'access', true);
    expect(named).toMatchObject({ requestType: 'access', requestTypeInferred: false, requestedRights: [], locale: null, reading: { triageReason: null, detectedLanguage: 'pl' } });
  });

  it("names an agent's letter and asks for the authority evidence, unless the caller named a requestor", () => {
    const agent = reading({ requestorType: 'authorized_agent' });
    expect(commandReading(agent, undefined, true)).toMatchObject({ requestor: { type: 'authorized_agent' }, authority: { evidenceArtifacts: [], status: 'pending' } });
    const named = commandReading(agent, undefined, false);
    expect(named).not.toHaveProperty('requestor');
    expect(named).not.toHaveProperty('authority');
  });
});

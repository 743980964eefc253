import type { NewRequestCommand, RequestType } from '@dsar/contracts';
import type { LetterReading } from './letter-reading';

/** What a reading settles of the command lifecycle-clock records. */
export type ReadCommandFields = Pick<NewRequestCommand, 'requestType' | 'requestTypeInferred' | 'requestedRights' | 'reading' | 'locale' | 'requestor' | 'authority'>;

/**
 * The command's members a letter's reading settles (docs/intake.md#triage):
 * - the type: the client's when it named one, else the reading's; none when the reading leaves it to an operator
 *   (triage, with the reason and the best guess). Intake never falls back to a default type;
 * - every right the letter asks for, and the reading's confidence and detected language, also beside a named type;
 * - the requester's language, where intake reads it;
 * - for a letter an authorised agent wrote, when the caller named no requestor nor authority: the requestor's type,
 *   and the authority evidence asked for (`pending`, docs/intake.md#agents).
 */
export function commandReading(reading: LetterReading, namedType: RequestType | undefined, mayNameRequestor: boolean): ReadCommandFields {
  const inferred = namedType === undefined;
  const agent = mayNameRequestor && reading.requestorType === 'authorized_agent';
  return {
    requestType: inferred ? reading.requestType : namedType,
    requestTypeInferred: inferred,
    requestedRights: reading.requestedRights,
    reading: {
      confidence: reading.confidence,
      triageReason: inferred ? reading.triageReason : null,
      suggestedType: reading.suggestedType,
      detectedLanguage: reading.language,
    },
    locale: reading.locale,
    ...(agent ? { requestor: { type: 'authorized_agent' as const }, authority: { evidenceArtifacts: [], status: 'pending' as const } } : {}),
  };
}

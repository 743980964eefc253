import type { DuplicateState, IdentityKind, RequestDetail } from '@dsar/contracts';

/** What a request holds of its duplicate mark (the request row's columns). */
export interface DuplicateMarkColumns {
  duplicateOf: string | null;
  duplicateState: DuplicateState | null;
  duplicateMarkedAt: Date | null;
  duplicateMatchedKinds: IdentityKind[] | null;
}

/** The request's duplicate mark and its decision, as the detail and a 409 show it; null when intake never marked it. */
export function duplicateMarkOf(row: DuplicateMarkColumns): RequestDetail['duplicate'] {
  if (!row.duplicateOf || !row.duplicateState || !row.duplicateMarkedAt) return null;
  return { of: row.duplicateOf, state: row.duplicateState, markedAt: row.duplicateMarkedAt.toISOString(), matchedKinds: row.duplicateMatchedKinds ?? [] };
}

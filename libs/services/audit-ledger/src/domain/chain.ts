import { canonicalJson, HASH_PREFIX, sha256Of } from './hashing';

/** The link of a chain's first entry. */
export const GENESIS_HASH = `${HASH_PREFIX}${'0'.repeat(64)}`;

/** What an entry's hash covers: every field but the hash and the link (which is hashed in front). */
export interface EntryFacts {
  sequence: number;
  tenantId: string;
  requestId: string;
  eventId: string;
  eventType: string;
  source: string;
  actor: string;
  occurredAt: string;
  recordedAt: string;
  payload: Record<string, unknown>;
}

export interface ChainEntry extends EntryFacts {
  prevHash: string;
  hash: string;
}

/** Exactly the hashed fields, whatever else the object carries. */
function factsOf(e: EntryFacts): EntryFacts {
  return {
    sequence: e.sequence,
    tenantId: e.tenantId,
    requestId: e.requestId,
    eventId: e.eventId,
    eventType: e.eventType,
    source: e.source,
    actor: e.actor,
    occurredAt: e.occurredAt,
    recordedAt: e.recordedAt,
    payload: e.payload,
  };
}

/** Exactly an entry's fields (for an export), whatever else the object carries. */
export function entryFields(e: ChainEntry): ChainEntry {
  return { ...factsOf(e), prevHash: e.prevHash, hash: e.hash };
}

/**
 * hash = sha256(prevHash ‖ JCS(facts)), over the UTF-8 text of both: the
 * `sha256:…` string of the link, then the RFC 8785 JSON of the entry without
 * `prevHash` and `hash`. `jq -jcS 'del(.prevHash, .hash)'` prints the same
 * JSON for every entry the ledger writes (docs/audit.md).
 */
export function entryHash(prevHash: string, facts: EntryFacts): string {
  return sha256Of(prevHash, canonicalJson(factsOf(facts)));
}

/** The entry that follows a head, with its link and hash. */
export function chainEntry(head: { sequence: number; hash: string }, facts: Omit<EntryFacts, 'sequence'>): ChainEntry {
  const withSequence = { ...facts, sequence: head.sequence + 1 };
  return { ...withSequence, prevHash: head.hash, hash: entryHash(head.hash, withSequence) };
}

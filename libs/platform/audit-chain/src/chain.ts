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

/**
 * An entry as the ledger stores it and reads it back: the payload kept as the
 * exact RFC 8785 text its hash covers, so verifying re-hashes the stored
 * bytes instead of parsing and re-canonicalizing every payload.
 */
export interface StoredEntry extends Omit<ChainEntry, 'payload'> {
  payloadJson: string;
}

/** The facts as either form carries them. */
type HashedFacts = EntryFacts | Omit<StoredEntry, 'prevHash' | 'hash'>;

/** The stored form of an entry. */
export function storedEntry(e: ChainEntry): StoredEntry {
  const { payload, ...rest } = entryFields(e);
  return { ...rest, payloadJson: canonicalJson(payload) };
}

/** An entry with its payload read back into an object (timeline, export). */
export function readEntry(e: StoredEntry): ChainEntry {
  return entryFields({ ...e, payload: JSON.parse(e.payloadJson) as Record<string, unknown> });
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

/** Exactly an entry's fields, whatever else the object carries. */
function entryFields(e: ChainEntry): ChainEntry {
  return { ...factsOf(e), prevHash: e.prevHash, hash: e.hash };
}

/**
 * The facts' keys in RFC 8785 order (UTF-16 code-unit order, which for these
 * ASCII names is plain string order), fixed once so that canonicalizing an
 * entry does not copy or sort it.
 */
const FACT_KEYS: readonly (keyof EntryFacts)[] = (['sequence', 'tenantId', 'requestId', 'eventId', 'eventType', 'source', 'actor', 'occurredAt', 'recordedAt', 'payload'] as const).slice().sort();

/**
 * JCS(facts) built field by field: the same text `canonicalJson(factsOf(e))`
 * gives (the unit vectors hold it to that), without the generic walk over
 * the top level. Scalars print as `JSON.stringify` prints them, which is the
 * RFC 8785 form of strings and numbers; a stored entry's payload is its
 * stored text, any other object goes through the canonicalizer; a missing
 * field is left out, as JSON leaves it out.
 */
function canonicalFacts(e: HashedFacts): string {
  let text = '{';
  for (const key of FACT_KEYS) {
    const json = factJson(e, key);
    if (json === undefined) continue;
    if (text.length > 1) text += ',';
    text += `"${key}":${json}`;
  }
  return `${text}}`;
}

function factJson(e: HashedFacts, key: keyof EntryFacts): string | undefined {
  if (key === 'payload' && 'payloadJson' in e) return e.payloadJson;
  const value: unknown = (e as EntryFacts)[key];
  if (value === undefined) return undefined;
  return typeof value === 'object' && value !== null ? canonicalJson(value) : JSON.stringify(value);
}

/**
 * hash = sha256(prevHash ‖ JCS(facts)), over the UTF-8 text of both: the
 * `sha256:…` string of the link, then the RFC 8785 JSON of the entry without
 * `prevHash` and `hash`. `jq -jcS 'del(.prevHash, .hash)'` prints the same
 * JSON for every entry the ledger writes (docs/audit.md).
 */
export function entryHash(prevHash: string, facts: HashedFacts): string {
  return sha256Of(prevHash, canonicalFacts(facts));
}

/** The entry that follows a head, with its link and hash. */
export function chainEntry(head: { sequence: number; hash: string }, facts: Omit<EntryFacts, 'sequence'>): ChainEntry {
  const withSequence = { ...facts, sequence: head.sequence + 1 };
  return { ...withSequence, prevHash: head.hash, hash: entryHash(head.hash, withSequence) };
}

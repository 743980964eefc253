import { randomBytes } from 'node:crypto';
import { type ChainEntry, chainEntry, GENESIS_HASH, storedEntry } from '@dsar/platform/audit-chain';
import { factsOfEvent, type LedgerEvent } from '../domain/ledger-event';
import { personalFieldsIn, withPersonalDataHashed } from '../domain/personal-data';
import type { AuditStore, SqlRunner } from '../infrastructure/audit-store';

export interface AppendResult {
  entry?: ChainEntry;
  /** The event was in the chain already (a redelivery): nothing changed. */
  duplicate: boolean;
}

/**
 * Appends one event to its request's chain, inside the caller's transaction:
 * locks the chain head (appends to one request take turns), skips an event
 * id the chain holds already, hashes the fields that may be personal data
 * under the request's salt, and links the entry to the head.
 */
export async function appendEvent(store: AuditStore, run: SqlRunner, event: LedgerEvent, personalData: readonly string[] | undefined, recordedAt: Date): Promise<AppendResult> {
  const head = await store.lockHead(run, event.tenantid, event.subject, GENESIS_HASH);
  // Checked under the head's lock: a second delivery of the event waits for the first to commit, then sees it.
  if (await store.hasEvent(run, event.id)) return { duplicate: true };
  const personal = personalFieldsIn(event.data, personalData);
  const payload = personal.length === 0 ? event.data : withPersonalDataHashed(event.data, personal, await store.saltOf(run, event.tenantid, event.subject, () => randomBytes(32)));
  const entry = chainEntry(head, factsOfEvent(event, payload, recordedAt));
  await store.append(run, storedEntry(entry));
  return { entry, duplicate: false };
}

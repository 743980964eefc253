import type { AuditMismatch } from '@dsar/contracts';
import { type ChainEntry, entryHash, GENESIS_HASH, type StoredEntry } from './chain';

/** Where a verification starts: the chain's genesis, or the checkpoint a retention purge left. */
export interface ChainStart {
  /** The sequence of the last entry before the first one to check (0 at genesis). */
  sequence: number;
  hash: string;
}

export const CHAIN_GENESIS: ChainStart = { sequence: 0, hash: GENESIS_HASH };

/**
 * Recomputes a chain entry by entry, in sequence order, and records every
 * mismatch: an entry whose content no longer gives its hash (`content`), a
 * link that is not the previous entry's hash (`link`), a sequence that skips
 * or repeats (`sequence`: an entry was removed or inserted). Each entry is
 * judged against its stored neighbours, so one edited entry shows as one
 * mismatch with its own event id. Memory stays constant: feed it a cursor.
 */
export class ChainVerifier {
  private readonly found: AuditMismatch[] = [];
  private lastSequence: number;
  private lastHash: string;
  private checked = 0;

  constructor(start: ChainStart = CHAIN_GENESIS) {
    this.lastSequence = start.sequence;
    this.lastHash = start.hash;
  }

  push(entry: ChainEntry | StoredEntry): void {
    const base = { eventId: entry.eventId, sequence: entry.sequence };
    if (entry.sequence !== this.lastSequence + 1) {
      this.found.push({ ...base, kind: 'sequence', expectedHash: this.lastHash, actualHash: entry.prevHash });
    } else if (entry.prevHash !== this.lastHash) {
      this.found.push({ ...base, kind: 'link', expectedHash: this.lastHash, actualHash: entry.prevHash });
    }
    const recomputed = entryHash(entry.prevHash, entry);
    if (recomputed !== entry.hash) this.found.push({ ...base, kind: 'content', expectedHash: entry.hash, actualHash: recomputed });
    this.lastSequence = entry.sequence;
    this.lastHash = entry.hash;
    this.checked++;
  }

  get mismatches(): readonly AuditMismatch[] {
    return this.found;
  }

  get entriesChecked(): number {
    return this.checked;
  }
}

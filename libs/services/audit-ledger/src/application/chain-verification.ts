import { Injectable } from '@nestjs/common';
import type { AuditMismatch, AuditVerifyCommand, AuditVerifyResult, AuditVerifyStatus } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CHAIN_GENESIS, ChainVerifier, type StoredEntry } from '@dsar/platform/audit-chain';
import { Ledger } from './ledger';

const CHAIN_FAULTS = new Set<AuditMismatch['kind']>(['content', 'link', 'sequence']);

/**
 * `POST /requests/:id/audit/verify`: recomputes the chain from its start (or
 * from its purge checkpoint) up to `sequence`, then compares the entry found
 * there with the hash, and the link, the caller holds.
 */
@Injectable()
export class ChainVerification {
  constructor(private readonly ledger: Ledger) {}

  async verify(tenantId: string, requestId: string, command: AuditVerifyCommand): Promise<AuditVerifyResult> {
    const view = await this.ledger.view(tenantId, requestId);
    if (!view) throw new ProblemError('RESOURCE_NOT_FOUND', `No audit chain for request ${requestId}.`);
    const { sequence } = command;
    const result = (status: AuditVerifyStatus, mismatches: AuditMismatch[] = [], checkedEntries = 0): AuditVerifyResult => ({
      verified: status === 'verified',
      status,
      mismatches,
      sequence,
      checkedEntries,
    });
    if (sequence > view.head.sequence) return result('sequence_not_found');
    const prefix = view.purgedPrefix;
    if (prefix && sequence <= prefix.throughSequence) return result('purged');

    const start = prefix ? { sequence: prefix.throughSequence, hash: prefix.hash } : CHAIN_GENESIS;
    const verifier = new ChainVerifier(start);
    let target: StoredEntry | undefined;
    for await (const page of this.ledger.entries(tenantId, requestId, sequence, start.sequence)) {
      for (const entry of page) {
        verifier.push(entry);
        if (entry.sequence === sequence) target = entry;
      }
    }
    if (!target) {
      // The entry is gone though the head is past it: the next entry shows where the chain breaks.
      const next = await this.ledger.entryAfter(tenantId, requestId, sequence);
      if (next) verifier.push(next);
    }
    const mismatches = [...verifier.mismatches];
    if (target && target.hash !== command.hash) {
      mismatches.push({ eventId: target.eventId, sequence, kind: 'claimed_hash', expectedHash: command.hash, actualHash: target.hash });
    }
    if (target && command.prevHash !== undefined && target.prevHash !== command.prevHash) {
      mismatches.push({ eventId: target.eventId, sequence, kind: 'claimed_prev_hash', expectedHash: command.prevHash, actualHash: target.prevHash });
    }
    const status: AuditVerifyStatus = !target || mismatches.some((m) => CHAIN_FAULTS.has(m.kind)) ? 'tampered' : mismatches.length > 0 ? 'hash_mismatch' : 'verified';
    return result(status, mismatches, verifier.entriesChecked);
  }
}

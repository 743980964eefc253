import type { AuditExport, AuditExportFormat, AuditMismatch, AuditVerifyCommand, AuditVerifyResult, Permission } from '@dsar/contracts';
import { referenceOf } from '../../reference';

/*
 * A request's audit chain (audit-routes.ts in the api-gateway): the export as a file, the command that verifies the
 * chain's head or a hash the user holds, and the verification's outcome in words.
 */

export const AUDIT_EXPORT_PERMISSION: Permission = 'audit:export';
export const AUDIT_VERIFY_PERMISSION: Permission = 'audit:verify';

export interface AuditFile {
  name: string;
  type: string;
  content: string;
}

/**
 * The file to save: the CSV the API wrote (format csv), or the export as JSON (its entries, root hash and head), which
 * docs/audit.md checks with jq.
 */
export function auditFileOf(exported: AuditExport, format: AuditExportFormat): AuditFile {
  const base = `audit-chain-${referenceOf(exported.requestId)}`;
  if (format === 'csv') return { name: `${base}.csv`, type: 'text/csv', content: exported.content ?? '' };
  return { name: `${base}.json`, type: 'application/json', content: `${JSON.stringify(exported, null, 2)}\n` };
}

/** The command that verifies the chain up to its head, as the export gives it; null for an empty chain. */
export function headCommand(exported: AuditExport): AuditVerifyCommand | null {
  const head = exported.events.find((e) => e.sequence === exported.headSequence);
  if (!head) return null;
  return { sequence: exported.headSequence, hash: exported.rootHash, prevHash: head.prevHash };
}

const HASH = /^sha256:[0-9a-f]{64}$/;

/** The command that verifies a hash the user holds for an entry, or what is wrong with the form. */
export function heldHashCommand(values: { sequence: string; hash: string }): { command: AuditVerifyCommand } | { error: string } {
  const sequence = values.sequence.trim();
  const hash = values.hash.trim().toLowerCase();
  if (!/^[0-9]{1,9}$/.test(sequence) || Number(sequence) < 1) return { error: 'The entry is a whole number from 1.' };
  if (!HASH.test(hash)) return { error: 'The hash is sha256: followed by 64 hexadecimal digits.' };
  return { command: { sequence: Number(sequence), hash } };
}

const MISMATCH_WORDS: Readonly<Record<AuditMismatch['kind'], string>> = {
  content: 'its content no longer matches its hash',
  link: 'it does not link to the entry before it',
  sequence: 'its sequence number is out of order',
  claimed_hash: 'its hash is not the one given',
  claimed_prev_hash: 'its link is not the one given',
};

export interface VerifyOutcome {
  valid: boolean;
  headline: string;
  /** Where the chain breaks: one sentence per finding. */
  findings: string[];
}

export function verifyOutcomeOf(result: AuditVerifyResult): VerifyOutcome {
  const findings = result.mismatches.map((m) => `Entry ${m.sequence} (event ${m.eventId}): ${MISMATCH_WORDS[m.kind] ?? m.kind.replace(/_/g, ' ')}; expected ${m.expectedHash}, found ${m.actualHash}.`);
  const entries = `${result.checkedEntries} ${result.checkedEntries === 1 ? 'entry' : 'entries'} recomputed`;
  switch (result.status) {
    case 'verified':
      return { valid: result.verified, headline: `Valid: the chain holds together up to entry ${result.sequence} (${entries}).`, findings };
    case 'tampered':
      return { valid: false, headline: `Broken: the stored chain no longer holds together (${entries}).`, findings };
    case 'hash_mismatch':
      return { valid: false, headline: `Not matched: the chain holds together, but entry ${result.sequence} does not have the hash given.`, findings };
    case 'sequence_not_found':
      return { valid: false, headline: `The chain has no entry ${result.sequence}.`, findings };
    case 'purged':
      return { valid: false, headline: `Entry ${result.sequence} was purged by retention: it cannot be recomputed.`, findings };
    default:
      return { valid: false, headline: `Not verified (${String(result.status).replace(/_/g, ' ')}).`, findings };
  }
}

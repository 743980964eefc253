import { createPublicKey } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { AuditCheckpointDetail, AuditMismatch } from '@dsar/contracts';
import { CHAIN_GENESIS, type ChainEntry, type ChainStart, ChainVerifier, checkpointSignatureValid, keyIdOf, leafHash, merkleRoot, type StoredEntry } from '@dsar/platform/audit-chain';
import { csvRecords, unescapeCell } from './csv';
import { CliError, usage } from './errors';

/** What checking a chain found, entry by entry, in constant memory. */
export interface ChainReport {
  entries: number;
  /** The last entry: the chain's head as far as it was read. */
  head: { sequence: number; hash: string; prevHash: string } | undefined;
  requestId: string | undefined;
  /** Where checking started: the genesis, or the purge checkpoint before the first entry. */
  start: ChainStart;
  mismatches: readonly AuditMismatch[];
  /** Findings that are not hash mismatches: lines that are not entries, entries of another request. */
  problems: string[];
}

const ENTRY_FIELDS = ['sequence', 'tenantId', 'requestId', 'eventId', 'eventType', 'source', 'actor', 'occurredAt', 'recordedAt', 'payload', 'prevHash', 'hash'] as const;

/** An entry of a JSON export or JSON Lines (its payload an object), or of a CSV export (its payload the stored JSON text). */
function asEntry(value: unknown): ChainEntry | StoredEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const e = value as Record<string, unknown>;
  const fields = typeof e.payloadJson === 'string' ? ENTRY_FIELDS.filter((f) => f !== 'payload') : ENTRY_FIELDS;
  if (!fields.every((f) => f in e) || typeof e.sequence !== 'number' || typeof e.hash !== 'string' || typeof e.prevHash !== 'string') return undefined;
  return e as unknown as ChainEntry | StoredEntry;
}

/**
 * Recomputes every link and hash of a chain given as entries (each the JSON of
 * one entry, as a JSON Lines export has them), from `start` (the genesis, or a
 * purge checkpoint), with the audit-ledger's own verifier. With
 * `purgedStartFromFirst`, a chain that begins after sequence 1 starts from its
 * first entry's link: the server's own export of a chain whose start
 * retention purged (the ledger's verification then checks it from its purge
 * checkpoint).
 */
export async function checkChain(
  entries: AsyncIterable<unknown> | Iterable<unknown>,
  start: ChainStart,
  options: { requestId?: string; purgedStartFromFirst?: boolean; onEntry?: (entry: ChainEntry | StoredEntry) => void } = {},
): Promise<ChainReport> {
  let verifier: ChainVerifier | undefined;
  const report: ChainReport = { entries: 0, head: undefined, requestId: options.requestId, start, mismatches: [], problems: [] };
  let position = 0;
  for await (const item of entries) {
    position++;
    const entry = asEntry(item);
    if (!entry) {
      report.problems.push(`entry ${position} is not an audit chain entry`);
      continue;
    }
    if (!verifier) {
      if (start.sequence === 0 && entry.sequence > 1) {
        if (options.purgedStartFromFirst) report.start = { sequence: entry.sequence - 1, hash: entry.prevHash };
        else
          report.problems.push(
            `the chain starts at sequence ${entry.sequence}: if retention purged its start, give --purged-through ${entry.sequence - 1} and --purged-hash (the export's purgedPrefix)`,
          );
      }
      verifier = new ChainVerifier(report.start);
      report.mismatches = verifier.mismatches;
    }
    report.requestId ??= entry.requestId;
    if (entry.requestId !== report.requestId) report.problems.push(`entry ${position} (sequence ${entry.sequence}) belongs to request ${entry.requestId}, not ${report.requestId}`);
    verifier.push(entry);
    options.onEntry?.(entry);
    report.head = { sequence: entry.sequence, hash: entry.hash, prevHash: entry.prevHash };
    report.entries++;
  }
  if (report.entries === 0) report.problems.push('the chain has no entries');
  return report;
}

/** Each line of a JSON Lines stream, parsed (a line that is not JSON becomes a finding, not a crash). */
export async function* jsonLines(source: Readable): AsyncGenerator<unknown> {
  for await (const line of createInterface({ input: source, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line) as unknown;
    } catch {
      yield undefined;
    }
  }
}

/** The columns of the CSV export (audit-ledger's chain-export.ts) that verifying needs: all of them; `payload` is the stored JSON text. */
const CSV_COLUMNS = ['sequence', 'eventId', 'eventType', 'occurredAt', 'recordedAt', 'actor', 'source', 'tenantId', 'requestId', 'payload', 'prevHash', 'hash'] as const;

/** The entries of a CSV export, after its header: each row as a stored entry, or undefined for a row that is not one (a finding). */
async function* csvEntries(path: string, columns: ReadonlyMap<string, number>): AsyncGenerator<unknown> {
  let header = true;
  for await (const record of csvRecords(createReadStream(path))) {
    if (header) {
      header = false;
      continue;
    }
    if (record.malformed || record.fields.length !== columns.size) {
      yield undefined;
      continue;
    }
    // csvChainFile checked that the header has every column.
    const cell = (name: string): string => unescapeCell(record.fields[columns.get(name) ?? 0]);
    const sequence = /^\d{1,15}$/.test(cell('sequence')) ? Number(cell('sequence')) : undefined;
    if (sequence === undefined) {
      yield undefined;
      continue;
    }
    const entry: Record<string, unknown> = { sequence, payloadJson: cell('payload') };
    for (const name of CSV_COLUMNS) if (name !== 'sequence' && name !== 'payload') entry[name] = cell(name);
    yield entry;
  }
}

/** A CSV export whose header is `firstLine`: its entries, or a usage error when it lacks a column verifying needs. */
async function csvChainFile(path: string, firstLine: string): Promise<ChainFile> {
  let names: string[] = [];
  for await (const record of csvRecords([firstLine])) names = record.fields.map(unescapeCell);
  const missing = CSV_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) throw usage(`${path} is a CSV file without the columns of an audit chain export (missing ${missing.join(', ')}): it cannot be verified`);
  return { entries: csvEntries(path, new Map(names.map((n, i) => [n, i]))), start: undefined, rootHash: undefined };
}

/** A chain file: JSON Lines (`audit export --out`, the streamed export), the CSV export (`audit export --format csv --out`), or the JSON export (its `events`, and its purge checkpoint). */
export interface ChainFile {
  entries: AsyncIterable<unknown> | Iterable<unknown>;
  /** The purge checkpoint a JSON export names, if any. */
  start: ChainStart | undefined;
  /** The head the JSON export states. */
  rootHash: string | undefined;
}

export async function openChainFile(path: string): Promise<ChainFile> {
  let first: string | undefined;
  try {
    for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      first = line;
      break;
    }
  } catch (e) {
    throw CliError.of('CLI-FILE', `cannot read ${path}: ${(e as Error).message}`);
  }
  let firstValue: unknown;
  try {
    firstValue = first === undefined ? undefined : (JSON.parse(first) as unknown);
  } catch {
    firstValue = undefined;
  }
  if (asEntry(firstValue)) return { entries: jsonLines(createReadStream(path)), start: undefined, rootHash: undefined };
  // The CSV export starts with its header, whose first column is the sequence; another CSV file is named as one.
  const header = first?.replace(/^\uFEFF/, '');
  if (firstValue === undefined && header !== undefined && (/^"?sequence"?,/.test(header) || /\.csv$/i.test(path))) return csvChainFile(path, header);
  // Not JSON Lines: the JSON export (or the envelope `dsar audit export --output json` printed).
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  } catch {
    throw CliError.of('CLI-CHAIN-INVALID', `${path} is neither JSON Lines of audit entries nor an audit export (JSON)`);
  }
  const body = (parsed.ok === true && typeof parsed.data === 'object' ? parsed.data : parsed) as Record<string, unknown>;
  if (!Array.isArray(body.events)) throw CliError.of('CLI-CHAIN-INVALID', `${path} is neither JSON Lines of audit entries nor an audit export (JSON): it has no events`);
  const purged = body.purgedPrefix as { throughSequence?: unknown; hash?: unknown } | null | undefined;
  const start = purged && typeof purged.throughSequence === 'number' && typeof purged.hash === 'string' ? { sequence: purged.throughSequence, hash: purged.hash } : undefined;
  return { entries: body.events as unknown[], start, rootHash: typeof body.rootHash === 'string' ? body.rootHash : undefined };
}

const MAX_LISTED = 20;

/** The findings of a report as one message, or undefined when the chain holds. */
export function chainFindings(report: ChainReport, expectedRoot: string | undefined): string | undefined {
  const findings = [...report.problems, ...report.mismatches.map((m) => `sequence ${m.sequence} (event ${m.eventId}): ${m.kind} mismatch, expected ${m.expectedHash}, found ${m.actualHash}`)];
  if (expectedRoot && report.head && report.head.hash !== expectedRoot) findings.push(`the head (sequence ${report.head.sequence}) is ${report.head.hash}, not the expected root ${expectedRoot}`);
  if (findings.length === 0) return undefined;
  const listed = findings.slice(0, MAX_LISTED).join('; ');
  return `${findings.length} finding${findings.length === 1 ? '' : 's'}: ${listed}${findings.length > MAX_LISTED ? `; and ${findings.length - MAX_LISTED} more` : ''}`;
}

/** The start flags of a chain whose beginning retention purged, else the file's checkpoint, else the genesis. */
export function chainStart(throughSequence: number | undefined, hash: string | undefined, fromFile: ChainStart | undefined): ChainStart {
  if (throughSequence !== undefined && hash !== undefined) return { sequence: throughSequence, hash };
  return fromFile ?? CHAIN_GENESIS;
}

/** Who the checkpoint must be signed by: a key id, or a public key file. */
export interface TrustedKey {
  keyId?: string;
  publicKeyPem?: string;
}

export interface CheckpointCheck {
  data: Record<string, unknown>;
  failures: string[];
}

const STATEMENT_FIELDS = ['checkpointId', 'algorithm', 'createdAt', 'keyId', 'leafCount', 'number', 'root', 'tenantId', 'publicKey', 'signature'] as const;

/**
 * The checks of docs/audit.md#check-a-checkpoint-yourself: the checkpoint is
 * signed by the trusted key, the Ed25519 signature covers its statement, and
 * its root is the Merkle root of its leaves.
 */
export function checkCheckpoint(value: unknown, trusted: TrustedKey): CheckpointCheck {
  const c = value as AuditCheckpointDetail;
  const missing = STATEMENT_FIELDS.filter((f) => typeof value !== 'object' || value === null || !(f in value));
  if (missing.length > 0 || !Array.isArray(c.leaves)) {
    throw CliError.of('CLI-CHECKPOINT-INVALID', `not a checkpoint with its leaves (missing ${[...missing, ...(Array.isArray(c?.leaves) ? [] : ['leaves'])].join(', ')})`);
  }
  const failures: string[] = [];
  let carriedKeyId: string | undefined;
  try {
    carriedKeyId = keyIdOf(createPublicKey(c.publicKey));
  } catch (e) {
    failures.push(`its publicKey is not a public key: ${(e as Error).message}`);
  }
  if (carriedKeyId !== undefined && carriedKeyId !== c.keyId) failures.push(`its publicKey is ${carriedKeyId}, not the key ${c.keyId} it names`);
  const trustedKeyId = trusted.publicKeyPem ? keyIdOf(createPublicKey(trusted.publicKeyPem)) : trusted.keyId;
  if (trustedKeyId !== c.keyId) failures.push(`signed by key ${c.keyId}, not the trusted key ${trustedKeyId}`);
  let signature = false;
  try {
    signature = carriedKeyId === c.keyId && checkpointSignatureValid(c);
  } catch {
    signature = false;
  }
  if (!signature) failures.push('the signature does not cover its statement under its key');
  if (c.leaves.length !== c.leafCount) failures.push(`leafCount is ${c.leafCount} but it has ${c.leaves.length} leaves`);
  const root = c.leaves.length > 0 ? merkleRoot(c.leaves.map(leafHash)) : undefined;
  if (root !== c.root) failures.push(`its root is ${c.root}, but its leaves give ${root ?? 'nothing (no leaves)'}`);
  return {
    data: {
      checkpointId: c.checkpointId,
      number: c.number,
      tenantId: c.tenantId,
      createdAt: c.createdAt,
      keyId: c.keyId,
      leafCount: c.leafCount,
      root: c.root,
      previousRoot: c.previousRoot,
      trustedKey: trustedKeyId === c.keyId,
      signatureValid: signature,
      rootMatchesLeaves: root === c.root,
    },
    failures,
  };
}

import { randomBytes } from 'node:crypto';
import { type ChainEntry, chainEntry, GENESIS_HASH, storedEntry } from '@dsar/platform/audit-chain';
import type { SqlWrite } from '@dsar/platform/persistence';
import { factsOfEvent, type LedgerEvent } from '../domain/ledger-event';
import { personalFieldsIn, withPersonalDataHashed } from '../domain/personal-data';
import type { AuditStore, ChainHead, SqlRunner } from '../infrastructure/audit-store';

export interface AppendResult {
  entry?: ChainEntry;
  /** The event was in the chain already (a redelivery): nothing changed. */
  duplicate: boolean;
}

/** A chain one transaction has locked and appends to. */
interface OpenChain {
  /** The head as it stands after this transaction's appends. */
  head: ChainHead;
  /** The chain held no entry when the transaction locked it: no event can be in it but this transaction's, and it has no salt. */
  startedEmpty: boolean;
  /** The request's salt, once this transaction has read or made it. */
  salt?: Buffer;
  /** The events this transaction appended to it. */
  events: Set<string>;
  /** Events `openChains` asked the ledger about when it locked the chain: whether each was held then. */
  asked?: Map<string, boolean>;
}

/**
 * A chain as its lock found it. A head at sequence 0 is one the lock has just made: a chain's first entry and its salt
 * come in the same transaction as its head, and a purge leaves the head's sequence where it was.
 */
const lockedChain = (head: ChainHead): OpenChain => ({ head: { sequence: head.sequence, hash: head.hash }, startedEmpty: head.sequence === 0, events: new Set() });

/**
 * Where one transaction's appends go: its statements, the chains it has locked (by tenant and request), and its
 * writes. A consumer's transaction defers them to its COMMIT (`UnitOfWork.defer`, one statement for a whole batch of
 * events, ADR 0045); a migration writes them at once.
 */
export interface AppendTarget {
  readonly run: SqlRunner;
  /** The chains the transaction has locked, kept for its later appends; absent, each append locks and reads its chain again. */
  readonly chains?: Map<string, OpenChain>;
  /** An entry's INSERT or a salt's. */
  write(write: SqlWrite): Promise<void>;
  /** A chain head's UPDATE: only the last one of each chain needs to reach the database. */
  writeLatest(key: string, write: SqlWrite): Promise<void>;
}

/**
 * A target that writes at once, in the runner's own transaction, and keeps nothing between appends (the backfill of
 * a migration, whose one transaction goes over every event there is).
 */
export function immediateTarget(run: SqlRunner): AppendTarget {
  const write = async (w: SqlWrite): Promise<void> => void (await run.query(w.sql, [...w.params]));
  return { run, write, writeLatest: (_key, w) => write(w) };
}

const chainKey = (tenantId: string, requestId: string): string => `${tenantId}\u0000${requestId}`;

/** The chain locked for this transaction: its head's row lock taken on first use (appends to one request take turns). */
async function openChain(store: AuditStore, target: AppendTarget, tenantId: string, requestId: string): Promise<OpenChain> {
  const key = chainKey(tenantId, requestId);
  const open = target.chains?.get(key);
  if (open) return open;
  const chain = lockedChain(await store.lockHead(target.run, tenantId, requestId, GENESIS_HASH));
  target.chains?.set(key, chain);
  return chain;
}

/**
 * Opens the chains of several events at once, for a transaction that keeps its chains: their heads locked in one
 * statement, then, for the chains that held entries, which of the events the ledger holds and the requests' salts, one
 * statement each. The appends that follow ask nothing more of the database.
 */
export async function openChains(store: AuditStore, target: AppendTarget, events: readonly LedgerEvent[]): Promise<void> {
  const chains = target.chains;
  if (!chains) return;
  const closed = new Map<string, { tenantId: string; requestId: string }>();
  for (const e of events) {
    const key = chainKey(e.tenantid, e.subject);
    if (!chains.has(key)) closed.set(key, { tenantId: e.tenantid, requestId: e.subject });
  }
  if (closed.size === 0) return;
  const opened = new Map<string, OpenChain>();
  for (const head of await store.lockHeads(target.run, [...closed.values()], GENESIS_HASH)) opened.set(chainKey(head.tenantId, head.requestId), lockedChain(head));
  for (const [key, chain] of opened) chains.set(key, chain);
  // Only the chains that held entries can hold one of the events, or a salt.
  const holding = [...closed].filter(([key]) => opened.get(key)?.startedEmpty === false);
  if (holding.length === 0) return;
  const theirEvents = events.filter((e) => opened.get(chainKey(e.tenantid, e.subject))?.startedEmpty === false);
  const held = await store.heldEvents(
    target.run,
    theirEvents.map((e) => e.id),
  );
  for (const e of theirEvents) {
    const chain = opened.get(chainKey(e.tenantid, e.subject)) as OpenChain;
    (chain.asked ??= new Map()).set(e.id, held.has(e.id));
  }
  for (const { tenantId, requestId, salt } of await store.saltsOf(
    target.run,
    holding.map(([, request]) => request),
  )) {
    const chain = opened.get(chainKey(tenantId, requestId));
    if (chain) chain.salt = salt;
  }
}

/** Whether the event is in its chain already: one of this transaction's, or (unless the chain started empty) one stored. */
async function holds(store: AuditStore, target: AppendTarget, chain: OpenChain, eventId: string): Promise<boolean> {
  if (chain.events.has(eventId)) return true;
  if (chain.startedEmpty) return false;
  // Asked under the head's lock, by openChains or here: a second delivery of the event waits for the first to commit, then sees it.
  return chain.asked?.get(eventId) ?? store.hasEvent(target.run, eventId);
}

/** The request's salt: a new chain's made here and written with its first entry; another's read (or made) once per transaction. */
async function saltOf(store: AuditStore, target: AppendTarget, chain: OpenChain, tenantId: string, requestId: string): Promise<Buffer> {
  if (chain.salt) return chain.salt;
  if (chain.startedEmpty) {
    chain.salt = randomBytes(32);
    await target.write(store.saltInsert(tenantId, requestId, chain.salt));
  } else {
    chain.salt = await store.saltOf(target.run, tenantId, requestId, () => randomBytes(32));
  }
  return chain.salt;
}

/**
 * Appends one event to its request's chain, inside the target's transaction: locks the chain head (once per
 * transaction), skips an event the chain holds already, hashes the fields that may be personal data under the
 * request's salt, and links the entry to the head. The entry and the head's move are written through the target.
 */
export async function appendEvent(store: AuditStore, target: AppendTarget, event: LedgerEvent, personalData: readonly string[] | undefined, recordedAt: Date): Promise<AppendResult> {
  const chain = await openChain(store, target, event.tenantid, event.subject);
  if (await holds(store, target, chain, event.id)) return { duplicate: true };
  const personal = personalFieldsIn(event.data, personalData);
  const payload = personal.length === 0 ? event.data : withPersonalDataHashed(event.data, personal, await saltOf(store, target, chain, event.tenantid, event.subject));
  const entry = chainEntry(chain.head, factsOfEvent(event, payload, recordedAt));
  await target.write(store.entryInsert(storedEntry(entry)));
  chain.head = { sequence: entry.sequence, hash: entry.hash };
  chain.events.add(event.id);
  await target.writeLatest(`audit-head:${chainKey(event.tenantid, event.subject)}`, store.headUpdate(event.tenantid, event.subject, chain.head));
  return { entry, duplicate: false };
}

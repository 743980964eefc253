import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AuditCheckpoint, type AuditCheckpointDetail, type AuditPurgedPrefix, type CloudEventEnvelope, EventCatalog, isUuid } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Metrics } from '@dsar/platform/observability';
import { qualifiedSchema, UnitOfWork } from '@dsar/platform/persistence';
import { type ChainEntry, GENESIS_HASH, readEntry, type StoredEntry } from '@dsar/platform/audit-chain';
import { AuditStore, type ChainHead } from '../infrastructure/audit-store';
import { type AppendResult, type AppendTarget, appendEvent, openChains } from './chain-append';

/** How long a read waits for the request's newest event before answering with what the ledger has. */
const AWAIT_EVENT_MS = 3000;

/** Entries read per query when walking a chain: memory stays bounded whatever its length. */
const PAGE = 2000;

/** What a reader of one chain sees: its head and, when retention purged its start, where it begins. */
export interface ChainView {
  head: ChainHead;
  purgedPrefix?: AuditPurgedPrefix;
}

/** The audit ledger: one hash chain per request, appended to from every domain event. */
@Injectable()
export class Ledger {
  readonly store: AuditStore;
  /** The append target of each transaction appending now (a transaction's manager is its own, and goes with it). */
  private readonly targets = new WeakMap<EntityManager, AppendTarget>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly catalog: EventCatalog,
    private readonly clock: Clock,
  ) {
    this.store = new AuditStore(qualifiedSchema(uow.dataSource));
  }

  get dataSource(): UnitOfWork['dataSource'] {
    return this.uow.dataSource;
  }

  /**
   * Appends an event to its request's chain; runs inside the consumer's unit of work, beside its inbox row. The
   * entries and head moves of all the events of the transaction (a batch, ADR 0045) go to the database together at
   * its COMMIT, and each chain's head is locked and its salt read once per transaction.
   */
  async append(event: CloudEventEnvelope, recordedAt = this.clock.now()): Promise<AppendResult> {
    const [result] = await this.appendAll([event], recordedAt);
    return result;
  }

  /** Appends events, in order, in one transaction (the consumer's, for a batch): their chains opened together first. */
  async appendAll(events: readonly CloudEventEnvelope[], recordedAt = this.clock.now()): Promise<AppendResult[]> {
    const results = await this.uow.run(async (tx) => {
      const target = this.targetOf(tx);
      await openChains(this.store, target, events);
      const appended: AppendResult[] = [];
      for (const event of events) appended.push(await appendEvent(this.store, target, event, this.catalog.get(event.type)?.personalData, recordedAt));
      return appended;
    });
    events.forEach((event, i) => {
      if (!results[i].duplicate) Metrics.get().auditAppends.inc({ event_type: event.type });
    });
    return results;
  }

  /** The append target of a transaction: its writes deferred to its COMMIT, its open chains kept while it lasts. */
  private targetOf(tx: EntityManager): AppendTarget {
    let target = this.targets.get(tx);
    if (!target) {
      target = {
        run: tx,
        chains: new Map(),
        write: async (w) => this.uow.defer(tx, w),
        writeLatest: async (key, w) => this.uow.deferLatest(tx, key, w),
      };
      this.targets.set(tx, target);
    }
    return target;
  }

  /** The chain's head and purge state; undefined when the ledger holds nothing for the request. */
  async view(tenantId: string, requestId: string): Promise<ChainView | undefined> {
    if (!isUuid(requestId)) return undefined;
    const ds = this.uow.dataSource;
    const head = await this.store.head(ds, tenantId, requestId);
    if (!head) return undefined;
    return { head, purgedPrefix: await this.store.purgedPrefix(ds, tenantId, requestId) };
  }

  /**
   * The chain's entries after `afterSequence` through `throughSequence`,
   * oldest first, a page at a time. The next page is already asked for while
   * the caller works through the current one, so the database's time and
   * the caller's (hashing, writing out) overlap.
   */
  async *entries(tenantId: string, requestId: string, throughSequence: number, afterSequence = 0): AsyncGenerator<StoredEntry[]> {
    const pageAfter = (after: number) => this.store.entries(this.uow.dataSource, tenantId, requestId, after, throughSequence, PAGE);
    let pending: Promise<StoredEntry[]> | undefined = afterSequence < throughSequence ? pageAfter(afterSequence) : undefined;
    try {
      while (pending) {
        const page = await pending;
        pending = undefined;
        if (page.length === 0) return;
        const last = page[page.length - 1].sequence;
        if (page.length === PAGE && last < throughSequence) pending = pageAfter(last);
        yield page;
      }
    } finally {
      // A caller that stops early must not leave a query's failure unobserved.
      pending?.catch(() => undefined);
    }
  }

  /** Every entry the chain holds, oldest first (the timeline). */
  async eventsOf(tenantId: string, requestId: string): Promise<ChainEntry[]> {
    const head = isUuid(requestId) ? await this.store.head(this.uow.dataSource, tenantId, requestId) : undefined;
    const all: ChainEntry[] = [];
    if (head) for await (const page of this.entries(tenantId, requestId, head.sequence)) all.push(...page.map(readEntry));
    return all;
  }

  /** The first entry after `sequence`, if any. */
  async entryAfter(tenantId: string, requestId: string, sequence: number): Promise<StoredEntry | undefined> {
    const [entry] = await this.store.entries(this.uow.dataSource, tenantId, requestId, sequence, Number.MAX_SAFE_INTEGER, 1);
    return entry;
  }

  /** The tenant's signed checkpoints, newest first. */
  checkpoints(tenantId: string, limit: number): Promise<AuditCheckpoint[]> {
    return this.store.checkpoints(this.uow.dataSource, tenantId, limit);
  }

  /** One signed checkpoint with the chain heads it covers. */
  async checkpointWithLeaves(tenantId: string, checkpointId: string): Promise<AuditCheckpointDetail | undefined> {
    const checkpoint = isUuid(checkpointId) ? await this.store.checkpoint(this.uow.dataSource, tenantId, checkpointId) : undefined;
    return checkpoint && { ...checkpoint, leaves: await this.store.checkpointLeaves(this.uow.dataSource, checkpointId) };
  }

  /**
   * The retention purge: replaces the chain's entries up to `throughSequence`
   * by a purge checkpoint holding the hash of the last one, so the rest of
   * the chain still verifies. Returns the entries deleted. The retention job
   * calls it once an entry's retention period is over and no hold applies.
   */
  async purgeThrough(tenantId: string, requestId: string, throughSequence: number, now = this.clock.now()): Promise<number> {
    return this.uow.run(async (tx) => {
      const head = await this.store.lockHead(tx, tenantId, requestId, GENESIS_HASH);
      const purged = await this.store.purgedPrefix(tx, tenantId, requestId);
      if (throughSequence > head.sequence) throw new RangeError(`The chain of ${requestId} ends at ${head.sequence}; cannot purge through ${throughSequence}.`);
      if (purged && throughSequence <= purged.throughSequence) return 0;
      const [last] = await this.store.entries(tx, tenantId, requestId, throughSequence - 1, throughSequence, 1);
      if (!last) throw new Error(`Entry ${throughSequence} of ${requestId} is missing; the chain needs verifying before it is purged.`);
      return this.store.purgePrefix(tx, tenantId, requestId, { throughSequence, hash: last.hash, purgedAt: now.toISOString() });
    });
  }

  /**
   * Read-your-writes for a derived view: when the gateway names the request's
   * newest event (AWAIT_EVENT_HEADER), waits a bounded time for the chain to
   * hold it, then answers with what the ledger has.
   */
  async catchUp(tenantId: string, awaitEvent: string | undefined): Promise<void> {
    if (awaitEvent) await this.waitForEvent(tenantId, awaitEvent, AWAIT_EVENT_MS);
  }

  /** Waits, up to a bound, until the ledger holds an event; true when it does. */
  async waitForEvent(tenantId: string, eventId: string, timeoutMs: number): Promise<boolean> {
    if (!isUuid(eventId)) return false;
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (await this.store.hasEventOf(this.uow.dataSource, tenantId, eventId)) return true;
      if (performance.now() >= deadline) return false;
      await sleep(25);
    }
  }
}

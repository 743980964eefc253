import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { combinedWrite, type SqlWrite } from './sql-write';

/**
 * The isolation a transaction starts in without naming one: PostgreSQL's default, which `openDataSource` checks the
 * database keeps. A unit of work in it starts with a bare START TRANSACTION, one round trip instead of two.
 */
export const DEFAULT_ISOLATION: IsolationLevel = 'READ COMMITTED';

/** A unit of work's transaction, and the writes deferred to its end. */
interface Transaction {
  readonly manager: EntityManager;
  readonly deferred: SqlWrite[];
  /** Where in `deferred` the write of each key of `deferLatest` stands. */
  readonly latest: Map<string, number>;
}

/**
 * One transaction for one use case: state change, outbox rows, inbox row and
 * idempotency record commit together or not at all. A unit of work started
 * inside another joins it, so use cases compose. Hooks registered with
 * `afterCommit` run once the outermost transaction has committed (the outbox
 * relay uses this to publish right away).
 */
export class UnitOfWork {
  private readonly current = new AsyncLocalStorage<Transaction>();
  private readonly commitHooks: (() => void)[] = [];

  constructor(readonly dataSource: DataSource) {}

  afterCommit(hook: () => void): void {
    this.commitHooks.push(hook);
  }

  /** The transaction of the unit of work the caller is in, if any. */
  get activeManager(): EntityManager | undefined {
    return this.current.getStore()?.manager;
  }

  /**
   * Where a read or write outside `run` goes: the caller's transaction when it
   * is inside a unit of work, else the data source. PGlite has one session, so
   * a nested call that took a connection of its own would wait on its caller.
   */
  get manager(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
  }

  async run<T>(work: (tx: EntityManager) => Promise<T>, isolation: IsolationLevel = DEFAULT_ISOLATION): Promise<T> {
    const enclosing = this.current.getStore();
    if (enclosing) return work(enclosing.manager);
    const inTransaction = (manager: EntityManager): Promise<T> => {
      const transaction: Transaction = { manager, deferred: [], latest: new Map() };
      return this.current.run(transaction, async () => {
        const result = await work(manager);
        if (transaction.deferred.length > 0) {
          transaction.latest.clear();
          const last = combinedWrite(transaction.deferred.splice(0));
          await manager.query(last.sql, [...last.params]);
        }
        return result;
      });
    };
    const result = await (isolation === DEFAULT_ISOLATION ? this.dataSource.transaction(inTransaction) : this.dataSource.transaction(isolation, inTransaction));
    for (const hook of this.commitHooks) hook();
    return result;
  }

  /**
   * Writes that go to the database at the end of the outermost unit of work, as one statement together with every
   * other write deferred in it, right before its COMMIT: a use case's rows and the idempotency record of its answer in
   * one round trip. Nothing in the transaction sees them before then, so a deferred write is one nothing after it
   * reads or writes again (see `combinedWrite`); an error in one surfaces from `run`, and the transaction rolls back.
   */
  defer(tx: EntityManager, ...writes: SqlWrite[]): void {
    this.transactionOf(tx).deferred.push(...writes);
  }

  /**
   * A deferred write of the final state of one thing that the work changes again and again (a chain's head after each
   * entry): a later write with the same key replaces the earlier one in its place, so the thing is written once, as it
   * stands at the end. Two writes of one row cannot share a statement: PostgreSQL would apply only one of them.
   */
  deferLatest(tx: EntityManager, key: string, write: SqlWrite): void {
    const transaction = this.transactionOf(tx);
    const at = transaction.latest.get(key);
    if (at !== undefined) transaction.deferred[at] = write;
    else transaction.latest.set(key, transaction.deferred.push(write) - 1);
  }

  private transactionOf(tx: EntityManager): Transaction {
    const transaction = this.current.getStore();
    if (!transaction || transaction.manager !== tx) throw new Error('A write is deferred only inside the unit of work whose transaction it names');
    return transaction;
  }
}

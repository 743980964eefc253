import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';

/**
 * One transaction for one use case: state change, outbox rows, inbox row and
 * idempotency record commit together or not at all. A unit of work started
 * inside another joins it, so use cases compose. Hooks registered with
 * `afterCommit` run once the outermost transaction has committed (the outbox
 * relay uses this to publish right away).
 */
export class UnitOfWork {
  private readonly current = new AsyncLocalStorage<EntityManager>();
  private readonly commitHooks: (() => void)[] = [];

  constructor(readonly dataSource: DataSource) {}

  afterCommit(hook: () => void): void {
    this.commitHooks.push(hook);
  }

  /** The transaction of the unit of work the caller is in, if any. */
  get activeManager(): EntityManager | undefined {
    return this.current.getStore();
  }

  /**
   * Where a read or write outside `run` goes: the caller's transaction when it
   * is inside a unit of work, else the data source. PGlite has one session, so
   * a nested call that took a connection of its own would wait on its caller.
   */
  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
  }

  async run<T>(work: (tx: EntityManager) => Promise<T>, isolation: IsolationLevel = 'READ COMMITTED'): Promise<T> {
    const enclosing = this.current.getStore();
    if (enclosing) return work(enclosing);
    const result = await this.dataSource.transaction(isolation, (tx) => this.current.run(tx, () => work(tx)));
    for (const hook of this.commitHooks) hook();
    return result;
  }
}

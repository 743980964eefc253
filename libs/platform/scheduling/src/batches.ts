import { setImmediate as immediate, setTimeout as sleep } from 'node:timers/promises';

/** Gives the event loop a turn: what came in meanwhile (a request, the answer of a query) runs before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return immediate();
}

/** The share of the process's time a backlog may take unless a job says otherwise. */
export const DEFAULT_BATCH_SHARE = 0.5;

export interface BatchOptions {
  /** Asked at each boundary between batches: a job being stopped ends there. */
  stopping?: () => boolean;
  /**
   * The most of the process's time the batches take while a backlog lasts, in (0, 1]: after t ms of work the job
   * rests t × (1 / share − 1) ms. 1 only yields.
   */
  share?: number;
  /** The rest between batches and the clock that times the work (tests pass their own). */
  rest?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

/**
 * Paces a job that works a backlog in bounded batches (ADR 0043): each batch is one short piece of work (one
 * transaction over at most a page of rows, a chunk of hashing), and between two batches the job calls `pause`,
 * which gives the event loop a turn and rests in proportion to the work done since the previous pause. Requests
 * that arrived meanwhile go first: in embedded mode a query runs on the event loop itself and the one database
 * session serves one transaction at a time, so a job that worked its backlog in one go would hold every request
 * up for as long as it ran. The time measured includes the waits for the database, so a busy system makes the job
 * rest longer.
 */
export class BatchPacer {
  private readonly share: number;
  private readonly rest: (ms: number) => Promise<unknown>;
  private readonly now: () => number;
  private since: number;

  constructor(private readonly options: BatchOptions = {}) {
    this.share = options.share ?? DEFAULT_BATCH_SHARE;
    if (!(this.share > 0 && this.share <= 1)) throw new RangeError(`the share of a batched job must be in (0, 1], got ${this.share}`);
    this.rest = options.rest ?? sleep;
    this.now = options.now ?? (() => performance.now());
    this.since = this.now();
  }

  /** Whether the job is being stopped: it ends at the next boundary. */
  get stopping(): boolean {
    return this.options.stopping?.() ?? false;
  }

  /** The boundary between two batches: resolves true to go on, false when the job is being stopped. */
  async pause(): Promise<boolean> {
    const restMs = (this.now() - this.since) * (1 / this.share - 1);
    await (restMs >= 1 ? this.rest(restMs) : yieldToEventLoop());
    this.since = this.now();
    return !this.stopping;
  }
}

/**
 * Runs `batch` until it answers that nothing is left (false) or the job is being stopped, pausing between batches
 * (BatchPacer). Returns how many batches ran.
 */
export async function inBatches(batch: (index: number) => Promise<boolean>, options: BatchOptions = {}): Promise<number> {
  const pacer = new BatchPacer(options);
  let ran = 0;
  if (pacer.stopping) return ran;
  while (await batch(ran++)) {
    if (!(await pacer.pause())) break;
  }
  return ran;
}

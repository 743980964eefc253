import { Metrics } from '@dsar/platform/observability';
import { type BatchOptions, BatchPacer } from './batches';

/** Where a job's failed scheduled runs are told (a Nest `Logger` fits). */
export interface JobLogger {
  error(message: string): void;
}

/** The timer functions a job schedules with; tests pass a manual clock. */
export interface JobTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Takes the right to run one scheduled round across replicas: resolves the
 * release when this replica got it, null when another replica holds it
 * (this replica then skips the round).
 */
export type RunClaim = () => Promise<(() => Promise<void>) | null>;

/** What a run sees of its job while it works. */
export interface JobRun {
  /** Set once the job is being stopped: a long run ends early at a safe point. */
  readonly stopping: boolean;
  /** Whether a trigger came in while this run worked (jobs with `whenBusy: 'follow'`); reading it clears it. */
  takeFollowUp(): boolean;
  /** A pacer for work in bounded batches that yield (ADR 0043), ending at a boundary once the job is stopping. */
  pacer(options?: Omit<BatchOptions, 'stopping'>): BatchPacer;
}

export interface PeriodicJobOptions {
  /** The service the job belongs to (the metrics' `service` label). */
  service: string;
  /** The job's name (the metrics' `job` label and the log line of a failure). */
  name: string;
  /** Time between scheduled runs; 0 or less: the job never runs on its own (called runs still work). */
  intervalMs: number;
  /** Up to this much is added at random to each wait, so replicas started together drift apart. */
  jitterMs?: number;
  /**
   * A trigger that finds a run under way is dropped (`skip`), or asks for one
   * more run right after it (`follow`; the run may take it itself with `takeFollowUp`).
   */
  whenBusy?: 'skip' | 'follow';
  /** Taken before each scheduled run when only one replica at a time may run the job. */
  claim?: RunClaim;
  log: JobLogger;
  /** Called with the error of a failed scheduled run, after it is counted and logged. */
  onFailure?: (error: Error) => void;
  timers?: JobTimers;
  /** A number in [0, 1) for the jitter. */
  random?: () => number;
}

/** Longest part of an error message a failure log line carries (messages can quote stored data). */
const LOGGED_MESSAGE_LIMIT = 300;

const systemTimers: JobTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * One periodic job of a service: runs `work` every interval (plus jitter),
 * never two runs at once, optionally under a claim across replicas, counting
 * runs, failures and durations per job. A failed scheduled run is logged and
 * counted and the schedule goes on; `stop` cancels the schedule and waits for
 * the run under way, and nothing starts after it.
 */
export class PeriodicJob<R> {
  private readonly timers: JobTimers;
  private readonly random: () => number;
  private timer?: unknown;
  private started = false;
  private stopped = false;
  private followUp = false;
  /** The run under way: its work, and the whole of it (a scheduled run includes its claim). */
  private work?: Promise<R>;
  private flight?: Promise<unknown>;
  private readonly run: JobRun;

  constructor(
    private readonly options: PeriodicJobOptions,
    private readonly task: (run: JobRun) => Promise<R>,
  ) {
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? Math.random;
    const isStopping = () => this.stopped;
    const takeFollowUp = () => {
      const asked = this.followUp;
      this.followUp = false;
      return asked;
    };
    this.run = {
      get stopping() {
        return isStopping();
      },
      takeFollowUp,
      pacer: (options) => new BatchPacer({ ...options, stopping: isStopping }),
    };
  }

  /** Whether the job runs on its own (an interval is set and it was not stopped). */
  get enabled(): boolean {
    return this.options.intervalMs > 0 && !this.stopped;
  }

  get busy(): boolean {
    return this.flight !== undefined;
  }

  /** Starts the schedule (once); with `runAtStart`, the first run goes now rather than after one interval. */
  start(opts: { runAtStart?: boolean } = {}): void {
    if (!this.enabled || this.started) return;
    this.started = true;
    this.scheduleNext();
    if (opts.runAtStart) this.trigger();
  }

  /** What the timer does: a scheduled run now, unless one is under way (see `whenBusy`); nothing when not enabled. */
  trigger(): void {
    if (!this.enabled) return;
    if (this.flight) {
      if (this.options.whenBusy === 'follow') this.followUp = true;
      return;
    }
    this.launch(() => this.scheduledRun());
  }

  /**
   * A run of the caller's own, after the one under way; its result or error is
   * the caller's. `task` replaces the job's work for this run (a test hook's variant).
   */
  async runNow(task: (run: JobRun) => Promise<R> = this.task): Promise<R> {
    while (this.flight) await this.flight.catch(() => undefined);
    if (this.stopped) throw new Error(`periodic job ${this.options.name} is stopped`);
    return this.launch(() => this.measured(task));
  }

  /** The run under way if there is one, else a new run; callers at the same time share one result. */
  async shareRun(): Promise<R> {
    if (this.work) return this.work;
    return this.runNow();
  }

  /** Cancels the schedule and waits for the run under way; no run starts afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.followUp = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flight) await this.flight.catch(() => undefined);
  }

  private scheduleNext(): void {
    if (!this.enabled) return;
    const jitter = Math.floor(this.random() * Math.max(0, this.options.jitterMs ?? 0));
    // Scheduled from the tick, not from the end of a run: the rate stays one run per interval, as a fixed-rate timer.
    this.timer = this.timers.setTimeout(() => {
      this.scheduleNext();
      this.trigger();
    }, this.options.intervalMs + jitter);
  }

  private launch<T>(body: () => Promise<T>): Promise<T> {
    const flight = body();
    this.flight = flight;
    void flight
      .catch(() => undefined)
      .then(() => {
        if (this.flight !== flight) return;
        this.flight = undefined;
        this.work = undefined;
        if (this.followUp) {
          this.followUp = false;
          this.trigger();
        }
      });
    return flight;
  }

  private async scheduledRun(): Promise<void> {
    try {
      const release = this.options.claim ? await this.options.claim() : async () => undefined;
      if (!release) return;
      try {
        await this.measured(this.task);
      } finally {
        await release();
      }
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      this.options.log.error(`periodic job ${this.options.name} failed: ${error.message.slice(0, LOGGED_MESSAGE_LIMIT)}`);
      this.options.onFailure?.(error);
    }
  }

  /** One run of the work, counted and timed. */
  private measured(task: (run: JobRun) => Promise<R>): Promise<R> {
    const labels = { service: this.options.service, job: this.options.name };
    const metrics = Metrics.get();
    const endTimer = metrics.periodicJobDuration.startTimer(labels);
    const work = Promise.resolve().then(() => task(this.run));
    this.work = work;
    return work.then(
      (result) => {
        endTimer();
        metrics.periodicJobRuns.inc(labels);
        return result;
      },
      (e: unknown) => {
        endTimer();
        metrics.periodicJobRuns.inc(labels);
        metrics.periodicJobFailures.inc(labels);
        throw e;
      },
    );
  }
}

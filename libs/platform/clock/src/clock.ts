/**
 * The time the domain reads: receipt defaults, pauses and resumes, extensions,
 * event times, the deadline monitor, audit checkpoints. Every service gets one
 * through Nest (inject `Clock`); production runs on the system clock, and no
 * setting moves it. Tests hand the host a `ManualClock` to set and advance.
 *
 * Infrastructure timing (timeouts, retries, rate limits, token expiry of
 * authentication, the database's own `now()` in bookkeeping columns) keeps
 * reading the real time: it is not part of what a request's law depends on.
 */
export abstract class Clock {
  abstract now(): Date;
}

/** The machine's time. */
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

export const systemClock: Clock = new SystemClock();

const DAY_MS = 86_400_000;

/**
 * A clock a test controls. `set` puts it at an instant; while `running` (the
 * default), it then moves on at the real pace from there, so successive events
 * keep their order; one made with `{ running: false }` stays where it is set,
 * for exact assertions.
 */
export class ManualClock extends Clock {
  private base: number;
  private setAtReal: number;
  private readonly running: boolean;

  constructor(start: Date | string | number = Date.now(), options: { running?: boolean } = {}) {
    super();
    this.base = instant(start);
    this.setAtReal = Date.now();
    this.running = options.running ?? true;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Moves the clock to `at` (it keeps running from there unless frozen). */
  set(at: Date | string | number): void {
    this.base = instant(at);
    this.setAtReal = Date.now();
  }

  /** Moves the clock forward (or back, with a negative amount) by milliseconds. */
  advance(ms: number): void {
    this.set(this.nowMs() + ms);
  }

  /**
   * Runs `work` with the clock at `at`, then puts it back where it would stand had it not moved, so a test
   * that needs a particular date leaves the next test on the clock it expects.
   */
  async runAt<T>(at: Date | string | number, work: () => Promise<T>): Promise<T> {
    const back = this.nowMs();
    const realStart = Date.now();
    this.set(at);
    try {
      return await work();
    } finally {
      this.set(this.running ? back + (Date.now() - realStart) : back);
    }
  }

  /** An ISO timestamp `days` before now on this clock. */
  daysAgo(days: number): string {
    return new Date(this.nowMs() - days * DAY_MS).toISOString();
  }

  /** An ISO timestamp `ms` after now on this clock. */
  later(ms: number): string {
    return new Date(this.nowMs() + ms).toISOString();
  }

  private nowMs(): number {
    return this.running ? this.base + (Date.now() - this.setAtReal) : this.base;
  }
}

function instant(at: Date | string | number): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'string' ? Date.parse(at) : at;
  if (!Number.isFinite(ms)) throw new Error(`Not an instant: ${String(at)}`);
  return ms;
}

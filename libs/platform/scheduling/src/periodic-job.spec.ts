import { Metrics } from '@dsar/platform/observability';
import { type JobRun, type JobTimers, PeriodicJob, type PeriodicJobOptions } from './periodic-job';

/** Timers driven by hand: `advance` fires whatever falls due, in order. */
class ManualTimers implements JobTimers {
  now = 0;
  readonly waits: number[] = [];
  private pending: Array<{ at: number; callback: () => void; id: number }> = [];
  private nextId = 0;

  setTimeout(callback: () => void, ms: number): unknown {
    this.waits.push(ms);
    const id = this.nextId++;
    this.pending.push({ at: this.now + ms, callback, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((p) => p.id !== handle);
  }

  get scheduled(): number {
    return this.pending.length;
  }

  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      const due = this.pending.filter((p) => p.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.pending = this.pending.filter((p) => p !== due);
      this.now = due.at;
      due.callback();
      await settle();
    }
    this.now = until;
  }
}

/** Lets every promise callback queued so far run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let jobCount = 0;

function setup(options: Partial<PeriodicJobOptions> = {}, task?: (run: JobRun) => Promise<number>) {
  const timers = new ManualTimers();
  const errors: string[] = [];
  let runs = 0;
  const name = `test-job-${++jobCount}`;
  const job = new PeriodicJob<number>({ service: 'test', name, intervalMs: 1_000, log: { error: (m) => errors.push(m) }, timers, random: () => 0, ...options }, task ?? (async () => ++runs));
  return { job, timers, errors, name, runs: () => runs };
}

async function sample(metric: 'periodicJobRuns' | 'periodicJobFailures', job: string): Promise<number> {
  const { values } = await Metrics.get()[metric].get();
  return values.find((v) => v.labels.job === job)?.value ?? 0;
}

describe('PeriodicJob', () => {
  it('runs once per interval after start, not before', async () => {
    const { job, timers, runs } = setup();
    job.start();
    await timers.advance(999);
    expect(runs()).toBe(0);
    await timers.advance(1);
    expect(runs()).toBe(1);
    await timers.advance(3_000);
    expect(runs()).toBe(4);
    await job.stop();
  });

  it('runs at once with runAtStart', async () => {
    const { job, timers, runs } = setup();
    job.start({ runAtStart: true });
    await settle();
    expect(runs()).toBe(1);
    await timers.advance(1_000);
    expect(runs()).toBe(2);
    await job.stop();
  });

  it('with an interval of 0 never schedules nor triggers, but runs when called', async () => {
    const { job, timers, runs } = setup({ intervalMs: 0 });
    job.start({ runAtStart: true });
    job.trigger();
    await settle();
    expect(timers.scheduled).toBe(0);
    expect(runs()).toBe(0);
    await expect(job.runNow()).resolves.toBe(1);
  });

  it('never overlaps runs: a tick during a run is skipped', async () => {
    let active = 0;
    let most = 0;
    let started = 0;
    const gate = deferred();
    const { job, timers } = setup({}, async () => {
      started++;
      active++;
      most = Math.max(most, active);
      await gate.promise;
      active--;
      return started;
    });
    job.start();
    await timers.advance(5_000);
    expect(started).toBe(1);
    expect(job.busy).toBe(true);
    gate.resolve();
    await settle();
    await timers.advance(1_000);
    expect(started).toBe(2);
    expect(most).toBe(1);
    await job.stop();
  });

  it("with whenBusy 'follow' triggers during a run ask for one more run right after it", async () => {
    let started = 0;
    const gate = deferred();
    const { job } = setup({ whenBusy: 'follow' }, async () => {
      started++;
      await gate.promise;
      return started;
    });
    job.trigger();
    await settle();
    job.trigger();
    job.trigger();
    expect(started).toBe(1);
    gate.resolve();
    await settle();
    expect(started).toBe(2);
    await settle();
    expect(started).toBe(2);
    await job.stop();
  });

  it('a run that takes the follow-up itself is not followed by another', async () => {
    let started = 0;
    let took: boolean | undefined;
    const gate = deferred();
    const { job } = setup({ whenBusy: 'follow' }, async (run) => {
      started++;
      await gate.promise;
      took = run.takeFollowUp();
      return started;
    });
    job.trigger();
    await settle();
    job.trigger();
    gate.resolve();
    await settle();
    expect(took).toBe(true);
    expect(started).toBe(1);
    await job.stop();
  });

  it('keeps each wait within interval and interval + jitter', async () => {
    for (const [random, expected] of [
      [0, 1_000],
      [0.5, 1_250],
      [0.999_999, 1_499],
    ] as const) {
      const { job, timers } = setup({ jitterMs: 500, random: () => random });
      job.start();
      await timers.advance(3_000);
      expect(timers.waits.length).toBeGreaterThan(1);
      for (const wait of timers.waits) expect(wait).toBe(expected);
      await job.stop();
    }
  });

  it('stop waits for the run under way and nothing runs after it', async () => {
    const gate = deferred();
    let started = 0;
    let finished = 0;
    const { job, timers } = setup({}, async () => {
      started++;
      await gate.promise;
      finished++;
      return started;
    });
    job.start();
    await timers.advance(1_000);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(1);
    job.trigger();
    await timers.advance(10_000);
    expect(started).toBe(1);
    expect(timers.scheduled).toBe(0);
    await expect(job.runNow()).rejects.toThrow('is stopped');
  });

  it("a run's pacer goes on between batches, and ends the run at its next pause once the job is stopped", async () => {
    const inSecond = deferred();
    const gate = deferred();
    const batches: number[] = [];
    const { job } = setup({}, async (run) => {
      const pacer = run.pacer({ share: 1 });
      for (let i = 0; i < 5; i++) {
        batches.push(i);
        if (i === 1) {
          inSecond.resolve();
          await gate.promise;
        }
        if (!(await pacer.pause())) break;
      }
      return batches.length;
    });
    const running = job.runNow();
    await inSecond.promise;
    const stopping = job.stop();
    gate.resolve();
    await expect(running).resolves.toBe(2);
    await stopping;
    expect(batches).toEqual([0, 1]);
  });

  it('a failing run is counted, logged bounded, told to onFailure, and the schedule goes on', async () => {
    let calls = 0;
    const failures: Error[] = [];
    const { job, timers, errors, name } = setup({ onFailure: (e) => failures.push(e) }, async () => {
      calls++;
      if (calls === 1) throw new Error(`database gone ${'x'.repeat(5_000)}`);
      return calls;
    });
    job.start();
    await timers.advance(1_000);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`periodic job ${name} failed: database gone`);
    expect(errors[0].length).toBeLessThan(400);
    expect(failures.map((e) => e.message.slice(0, 13))).toEqual(['database gone']);
    await timers.advance(1_000);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
    expect(await sample('periodicJobRuns', name)).toBe(2);
    expect(await sample('periodicJobFailures', name)).toBe(1);
    await job.stop();
  });

  it('counts called runs and their durations under the job name; a called run fails to its caller', async () => {
    let fail = false;
    const { job, errors, name } = setup({}, async () => {
      if (fail) throw new Error('boom');
      return 7;
    });
    await expect(job.runNow()).resolves.toBe(7);
    fail = true;
    await expect(job.runNow()).rejects.toThrow('boom');
    expect(errors).toEqual([]);
    expect(await sample('periodicJobRuns', name)).toBe(2);
    expect(await sample('periodicJobFailures', name)).toBe(1);
    const { values } = await Metrics.get().periodicJobDuration.get();
    const count = values.find((v) => v.labels.job === name && v.metricName === 'dsar_periodic_job_duration_seconds_count');
    expect(count?.value).toBe(2);
    expect(count?.labels.service).toBe('test');
  });

  it('runNow waits for the run under way; shareRun joins it', async () => {
    const gate = deferred();
    let started = 0;
    const { job } = setup({}, async () => {
      const mine = ++started;
      if (mine === 1) await gate.promise;
      return mine;
    });
    const first = job.runNow();
    const shared = job.shareRun();
    const own = job.runNow();
    await settle();
    expect(started).toBe(1);
    gate.resolve();
    expect(await first).toBe(1);
    expect(await shared).toBe(1);
    expect(await own).toBe(2);
  });

  it('runs a scheduled run only under its claim, and releases it after', async () => {
    const events: string[] = [];
    let granted = false;
    const { job, timers } = setup(
      {
        claim: async () => {
          events.push(granted ? 'claimed' : 'refused');
          return granted ? async () => void events.push('released') : null;
        },
      },
      async () => {
        events.push('ran');
        return 1;
      },
    );
    job.start();
    await timers.advance(1_000);
    granted = true;
    await timers.advance(1_000);
    expect(events).toEqual(['refused', 'claimed', 'ran', 'released']);
    await job.stop();
  });
});

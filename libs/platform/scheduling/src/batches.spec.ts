import { BatchPacer, inBatches, yieldToEventLoop } from './batches';

/** A clock moved by hand, and the rests asked of it. */
function manualClock() {
  const clock = { at: 0, rests: [] as number[] };
  return {
    clock,
    now: () => clock.at,
    rest: async (ms: number) => {
      clock.rests.push(ms);
      clock.at += ms;
    },
  };
}

describe('BatchPacer', () => {
  it('rests in proportion to the work since the previous pause', async () => {
    const { clock, now, rest } = manualClock();
    const pacer = new BatchPacer({ share: 0.25, now, rest });
    clock.at += 40;
    expect(await pacer.pause()).toBe(true);
    clock.at += 10;
    await pacer.pause();
    // A quarter of the time for the work: three times as long at rest; the rest itself is not work.
    expect(clock.rests).toEqual([120, 30]);
  });

  it('with a share of 1 never rests, and under a millisecond of rest only yields', async () => {
    const { clock, now, rest } = manualClock();
    const alone = new BatchPacer({ share: 1, now, rest });
    clock.at += 500;
    await alone.pause();
    const half = new BatchPacer({ now, rest });
    clock.at += 0.5;
    await half.pause();
    expect(clock.rests).toEqual([]);
  });

  it('lets what came in during a batch run before the next one', async () => {
    const order: string[] = [];
    const pacer = new BatchPacer({ share: 1 });
    order.push('batch 1');
    setImmediate(() => order.push('request'));
    await pacer.pause();
    order.push('batch 2');
    expect(order).toEqual(['batch 1', 'request', 'batch 2']);
  });

  it('answers false at the boundary once the job is stopping', async () => {
    let stopping = false;
    const pacer = new BatchPacer({ stopping: () => stopping, share: 1 });
    expect(pacer.stopping).toBe(false);
    expect(await pacer.pause()).toBe(true);
    stopping = true;
    expect(pacer.stopping).toBe(true);
    expect(await pacer.pause()).toBe(false);
  });

  it('refuses a share outside (0, 1]', () => {
    expect(() => new BatchPacer({ share: 0 })).toThrow(RangeError);
    expect(() => new BatchPacer({ share: 1.5 })).toThrow(RangeError);
    expect(() => new BatchPacer({ share: Number.NaN })).toThrow(RangeError);
  });
});

describe('inBatches', () => {
  it('runs batches until one says nothing is left, and counts them', async () => {
    const seen: number[] = [];
    const ran = await inBatches(async (i) => {
      seen.push(i);
      return i < 3;
    });
    expect(ran).toBe(4);
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('rests between batches, none after the last', async () => {
    const { clock, now, rest } = manualClock();
    const took = [40, 10, 25];
    await inBatches(
      async (i) => {
        clock.at += took[i];
        return i < took.length - 1;
      },
      { share: 0.5, now, rest },
    );
    expect(clock.rests).toEqual([40, 10]);
  });

  it('ends at the next boundary once stopping, and runs nothing when stopping already', async () => {
    let stopping = false;
    const ran = await inBatches(
      async (i) => {
        if (i === 1) stopping = true;
        return true;
      },
      { stopping: () => stopping, share: 1 },
    );
    expect(ran).toBe(2);
    expect(await inBatches(async () => true, { stopping: () => true })).toBe(0);
  });

  it('fails with the batch that failed, running none after it', async () => {
    const seen: number[] = [];
    await expect(
      inBatches(async (i) => {
        seen.push(i);
        if (i === 1) throw new Error('database gone');
        return true;
      }),
    ).rejects.toThrow('database gone');
    expect(seen).toEqual([0, 1]);
  });
});

describe('yieldToEventLoop', () => {
  it('resolves after callbacks already queued for the event loop', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('queued'));
    await yieldToEventLoop();
    order.push('after');
    expect(order).toEqual(['queued', 'after']);
  });
});

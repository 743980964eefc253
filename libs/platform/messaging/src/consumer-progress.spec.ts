import { ConsumerProgress } from './consumer-progress';

/** A consumer whose commits are recorded, failing while `failing` is set. */
function committer() {
  const commits: { topic: string; partition: number; offset: string }[][] = [];
  const state = { failing: false };
  return {
    state,
    commits,
    commitOffsets: async (offsets: { topic: string; partition: number; offset: string }[]) => {
      if (state.failing) throw new Error('REBALANCE_IN_PROGRESS');
      commits.push(offsets);
    },
  };
}

describe('ConsumerProgress', () => {
  it('commits the next offset of each partition once its handler has resolved, in one request', async () => {
    const consumer = committer();
    const progress = new ConsumerProgress(consumer, () => undefined);
    await progress.deliver('t', 0, '41', async () => undefined);
    await progress.deliver('t', 0, '42', async () => undefined);
    await progress.deliver('t', 3, '7', async () => undefined);
    await progress.deliver('u', 0, '0', async () => undefined);
    await progress.flush();
    expect(consumer.commits).toEqual([
      [
        { topic: 't', partition: 0, offset: '43' },
        { topic: 't', partition: 3, offset: '8' },
        { topic: 'u', partition: 0, offset: '1' },
      ],
    ]);
    await progress.flush();
    expect(consumer.commits).toHaveLength(1);
  });

  it('never commits the offset of a message whose handler failed', async () => {
    const consumer = committer();
    const progress = new ConsumerProgress(consumer, () => undefined);
    await progress.deliver('t', 0, '5', async () => undefined);
    await expect(progress.deliver('t', 0, '6', async () => Promise.reject(new Error('handler')))).rejects.toThrow('handler');
    await progress.flush();
    expect(consumer.commits).toEqual([[{ topic: 't', partition: 0, offset: '6' }]]);
  });

  it('keeps offsets whose commit failed for the next commit, where a newer offset of the partition wins', async () => {
    const consumer = committer();
    const errors: string[] = [];
    const progress = new ConsumerProgress(consumer, (e) => errors.push(e.message));
    await progress.deliver('t', 0, '1', async () => undefined);
    await progress.deliver('t', 1, '10', async () => undefined);
    consumer.state.failing = true;
    await progress.flush();
    expect(errors).toEqual(['REBALANCE_IN_PROGRESS']);
    consumer.state.failing = false;
    await progress.deliver('t', 0, '2', async () => undefined);
    await progress.flush();
    expect(consumer.commits).toEqual([
      [
        { topic: 't', partition: 0, offset: '3' },
        { topic: 't', partition: 1, offset: '11' },
      ],
    ]);
  });

  it('forgets partitions a rebalance took away', async () => {
    const consumer = committer();
    const progress = new ConsumerProgress(consumer, () => undefined);
    await progress.deliver('t', 0, '1', async () => undefined);
    await progress.deliver('t', 1, '1', async () => undefined);
    progress.retain({ t: [1, 2] });
    await progress.flush();
    expect(consumer.commits).toEqual([[{ topic: 't', partition: 1, offset: '2' }]]);
  });

  it('says when the running handlers have finished', async () => {
    const progress = new ConsumerProgress(committer(), () => undefined);
    let release = (): void => undefined;
    const handled = progress.deliver('t', 0, '1', () => new Promise<void>((resolve) => (release = resolve)));
    let idle = false;
    const waiting = progress.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    release();
    await handled;
    await waiting;
    expect(idle).toBe(true);
  });

  it('commits on its own every interval once started, and not after it is stopped', async () => {
    const consumer = committer();
    const progress = new ConsumerProgress(consumer, () => undefined, 20);
    progress.start();
    await progress.deliver('t', 0, '1', async () => undefined);
    await new Promise((r) => setTimeout(r, 80));
    expect(consumer.commits).toEqual([[{ topic: 't', partition: 0, offset: '2' }]]);
    progress.stop();
    await progress.deliver('t', 0, '2', async () => undefined);
    await new Promise((r) => setTimeout(r, 80));
    expect(consumer.commits).toHaveLength(1);
  });
});

import { alignedBuffersAlive, giveBackAlignedBuffers, MAX_ALIGNED_BUFFERS, takeAlignedBuffers } from './aligned-buffers';

describe('aligned buffers', () => {
  it('gives buffers of whole 64 KiB pages, at most MAX_ALIGNED_BUFFERS at once, and none when they are all taken', () => {
    const first = takeAlignedBuffers(2, 1024 * 1024 + 8192) as Buffer[];
    expect(first.map((b) => b.length)).toEqual([17 * 64 * 1024, 17 * 64 * 1024]);
    const rest = takeAlignedBuffers(MAX_ALIGNED_BUFFERS - 2, 4096) as Buffer[];
    expect(rest).toHaveLength(MAX_ALIGNED_BUFFERS - 2);
    expect(takeAlignedBuffers(1, 4096)).toBeUndefined();
    expect(alignedBuffersAlive()).toBe(MAX_ALIGNED_BUFFERS);
    giveBackAlignedBuffers(first);
    giveBackAlignedBuffers(rest);
  });

  it('reuses the buffers given back, keeps a few idle and lets the rest go', () => {
    const taken = takeAlignedBuffers(2, 8192) as Buffer[];
    giveBackAlignedBuffers(taken);
    const again = takeAlignedBuffers(2, 8192) as Buffer[];
    expect(new Set([...again, ...taken]).size).toBe(2);
    giveBackAlignedBuffers(again);
    const many = takeAlignedBuffers(MAX_ALIGNED_BUFFERS, 8192) as Buffer[];
    giveBackAlignedBuffers(many);
    expect(alignedBuffersAlive()).toBeLessThan(MAX_ALIGNED_BUFFERS);
  });

  it('takes all or nothing: a request it cannot fill in full leaves every buffer free', () => {
    const hog = takeAlignedBuffers(MAX_ALIGNED_BUFFERS - 1, 4096) as Buffer[];
    expect(takeAlignedBuffers(2, 4096)).toBeUndefined();
    const one = takeAlignedBuffers(1, 4096) as Buffer[];
    expect(one).toHaveLength(1);
    giveBackAlignedBuffers(one);
    giveBackAlignedBuffers(hog);
  });
});

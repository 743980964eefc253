import { eventsBetween, offsetsOf, reached } from './consumer-offsets';

describe('consumer group offsets', () => {
  it('reads kafkajs offsets, a group that committed nothing standing at the start of the partition', () => {
    expect(
      offsetsOf([
        { partition: 0, offset: '12' },
        { partition: 1, offset: '-1' },
        { partition: 2, offset: '0' },
      ]),
    ).toEqual({ 0: 12, 1: 0, 2: 0 });
  });

  it('counts the messages between two positions over the partitions of the later one', () => {
    expect(eventsBetween({ 0: 10, 1: 5 }, { 0: 14, 1: 5, 2: 3 })).toBe(7);
    // A position behind the first (another member committed less after a rebalance) counts nothing, not less.
    expect(eventsBetween({ 0: 10 }, { 0: 8 })).toBe(0);
    expect(eventsBetween({}, { 0: 2, 1: 3 })).toBe(5);
  });

  it('has reached an end only when every partition of the end is reached', () => {
    expect(reached({ 0: 14, 1: 6 }, { 0: 14, 1: 5 })).toBe(true);
    expect(reached({ 0: 14, 1: 4 }, { 0: 14, 1: 5 })).toBe(false);
    // A partition the group has not committed on yet stands at 0: reached only when nothing was written there.
    expect(reached({ 0: 3 }, { 0: 3, 1: 0 })).toBe(true);
    expect(reached({ 0: 3 }, { 0: 3, 1: 1 })).toBe(false);
  });
});

import { tuneHeapGrowth } from './main-runner';

describe('tuneHeapGrowth', () => {
  it('leaves V8 alone for 0 or no setting, and refuses values outside 0–400 before touching it', () => {
    expect(() => tuneHeapGrowth(undefined)).not.toThrow();
    expect(() => tuneHeapGrowth(0)).not.toThrow();
    for (const bad of [-1, 401, 1.5]) expect(() => tuneHeapGrowth(bad)).toThrow(RangeError);
  });
});

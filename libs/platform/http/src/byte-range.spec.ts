import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { contentRange, parseRange } from './byte-range';

/** RFC 9110 §14: one `bytes=` range is served (206) or unsatisfiable (416); anything else is ignored (200, the whole file). */
describe('parseRange', () => {
  const size = 1000;

  it('reads first-last, first- and -suffix ranges', () => {
    expect(parseRange('bytes=0-99', size)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=500-', size)).toEqual({ start: 500, end: 999 });
    expect(parseRange('bytes=-100', size)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=999-999', size)).toEqual({ start: 999, end: 999 });
  });

  it('cuts an end past the file to its last byte, and a suffix longer than the file to the whole file', () => {
    expect(parseRange('bytes=900-5000', size)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', size)).toEqual({ start: 0, end: 999 });
  });

  it('takes the unit case-insensitively and blanks around the range', () => {
    expect(parseRange('Bytes = 10 - 19 ', size)).toEqual({ start: 10, end: 19 });
  });

  it('is unsatisfiable when the range starts at or past the end, or asks for no bytes', () => {
    expect(parseRange('bytes=1000-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=1000-2000', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=-10', 0)).toBe('unsatisfiable');
  });

  it('ignores no header, other units, malformed ranges and several ranges', () => {
    expect(parseRange(undefined, size)).toBeUndefined();
    expect(parseRange('', size)).toBeUndefined();
    expect(parseRange('items=0-9', size)).toBeUndefined();
    expect(parseRange('bytes=', size)).toBeUndefined();
    expect(parseRange('bytes=-', size)).toBeUndefined();
    expect(parseRange('bytes=abc', size)).toBeUndefined();
    expect(parseRange('bytes=5-1', size)).toBeUndefined();
    expect(parseRange('bytes=1.5-2', size)).toBeUndefined();
    expect(parseRange('bytes=0-9,20-29', size)).toBeUndefined();
    expect(parseRange('bytes=0-9, -5', size)).toBeUndefined();
  });

  it('writes the Content-Range of a 206 and of a 416', () => {
    expect(contentRange({ start: 0, end: 99 }, size)).toBe('bytes 0-99/1000');
    expect(contentRange('unsatisfiable', size)).toBe('bytes */1000');
  });
});

describe('parseRange on hostile headers', () => {
  it('takes time linear in the header: white space that ends in no range costs no backtracking', () => {
    // The former pattern (`bytes\s*=\s*(.*?)\s*$`) retried the trailing white space from every position: quadratic.
    const headers = [(n: number) => `bytes=0${' '.repeat(n)}x`, (n: number) => `bytes=${' \t'.repeat(n / 2)}-`, (n: number) => `bytes=${'1'.repeat(n)} ${' '.repeat(n)}`];
    for (const header of headers) expectLinearGrowth(header, (text) => parseRange(text, 1000), 12_500);
  });
});

import { ProblemError } from '@dsar/platform/errors';
import { byteLimit, contentCodingOf } from './json-body';

function problemOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (e) {
    return e as ProblemError;
  }
  throw new Error('expected a problem');
}

describe('contentCodingOf', () => {
  it('takes no coding, identity, gzip, x-gzip and deflate, in any case', () => {
    expect(contentCodingOf(undefined)).toBeUndefined();
    expect(contentCodingOf('identity')).toBeUndefined();
    expect(contentCodingOf('GZIP')).toBe('gzip');
    expect(contentCodingOf(' x-gzip ')).toBe('x-gzip');
    expect(contentCodingOf('deflate')).toBe('deflate');
    expect(contentCodingOf('identity, gzip')).toBe('gzip');
  });

  it.each(['br', 'compress', 'zstd', 'snappy', 'gzip, gzip', 'gzip, deflate', 'gzip;q=1'])('answers 415 with Accept-Encoding for %s', (coding) => {
    const problem = problemOf(() => contentCodingOf(coding));
    expect(problem.definition).toMatchObject({ name: 'CONTENT_ENCODING_UNSUPPORTED', status: 415 });
    expect(problem.headers).toEqual({ 'Accept-Encoding': 'gzip, deflate' });
  });

  it('does not echo a strange coding name', () => {
    expect(problemOf(() => contentCodingOf('<script>')).detail).not.toContain('<script>');
  });
});

describe('byteLimit', () => {
  it('reads the sizes configuration writes', () => {
    expect(byteLimit('1mb')).toBe(1024 * 1024);
    expect(byteLimit('512kb')).toBe(512 * 1024);
    expect(byteLimit('100b')).toBe(100);
    expect(byteLimit('100')).toBe(100);
    expect(() => byteLimit('lots')).toThrow();
  });
});

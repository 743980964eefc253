import { artifactFilenameHeader, artifactTitleHeader, ENCODED_HEADER_TEXT_PATTERN } from '@dsar/contracts';
import { safeFilename } from '@dsar/platform/storage';
import { artifactTitleOf } from './manifest-rules';

/**
 * The published schemas of `x-artifact-filename` and `x-artifact-title` say what the service takes (issue
 * [first-day] 19): a value they allow is not refused for its form. Only what a pattern cannot see of the decoded
 * name stays a refusal: a name that is only a directory, `.` or `..`, or blank once decoded.
 */
describe('the published schemas of the artifact headers', () => {
  it.each([
    ['a', true],
    ['%C3%A9t%C3%A9%202026.pdf', true],
    ['%E2%80%94%F0%9F%98%80', true],
    ['100%25', true],
    ['%9c', false],
    ['%FF.txt', false],
    ['%C3', false],
    ['%C0%AF', false],
    ['%ED%A0%80', false],
    ['%E2%80%AE', false],
    ['%E2%81%A6', false],
    ['%C2%85', false],
    ['%00', false],
    ['a\tb', false],
    ['trail%', false],
  ])('%j: allowed %s', (value, allowed) => {
    expect(ENCODED_HEADER_TEXT_PATTERN.test(value)).toBe(allowed);
  });

  it('what they allow the service takes: thousands of generated values', () => {
    const tokens = [
      'a',
      'Z',
      '.',
      ' ',
      '%',
      '%20',
      '%2F',
      '%2E',
      '%25',
      '%41',
      '%C3',
      '%A9',
      '%E2',
      '%80',
      '%AE',
      '%94',
      '%81',
      '%A6',
      '%ED',
      '%A0',
      '%F0',
      '%9F',
      '%98',
      '%FF',
      '%7F',
      '%09',
      '%C2',
      '%85',
      '\t',
      '/',
      '~',
    ];
    let seed = 20261202;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let allowedCount = 0;
    for (let i = 0; i < 20_000; i++) {
      const value = Array.from({ length: 1 + (next() % 8) }, () => tokens[next() % tokens.length]).join('');
      if (artifactTitleHeader.safeParse(value).success) {
        expect(() => artifactTitleOf(value, 'fallback')).not.toThrow();
      }
      if (!artifactFilenameHeader.safeParse(value).success) continue;
      allowedCount++;
      const decoded = decodeURIComponent(value);
      const name = decoded.split(/[/\\]/).at(-1)?.trim() ?? '';
      // The refusals only the decoded text shows, documented with the header.
      if (name === '' || name === '.' || name === '..') continue;
      expect(() => safeFilename(value)).not.toThrow();
    }
    expect(allowedCount).toBeGreaterThan(1000);
  });
});

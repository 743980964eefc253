import { CODE_LENGTH, isWholeCode, normalisedCode } from './code';

describe('the code the person types', () => {
  it('loses the spaces and dashes people type to read it', () => {
    for (const typed of ['48151623', '4815 1623', ' 4815-1623 ', '4815\u00a01623', '48-15-16-23', '4815\u20131623', '4815\u22121623', '4815\t1623\n'])
      expect({ typed, code: normalisedCode(typed) }).toEqual({ typed, code: '48151623' });
  });

  it('is whole with exactly 8 digits, and nothing else', () => {
    expect(CODE_LENGTH).toBe(8);
    expect(isWholeCode(normalisedCode('4815 1623'))).toBe(true);
    for (const typed of ['', '4815162', '481516234', '4815162a', '4815.1623', '４８１５１６２３', '4815_1623'])
      expect({ typed, whole: isWholeCode(normalisedCode(typed)) }).toEqual({ typed, whole: false });
  });
});

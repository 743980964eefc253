import { csvText, spreadsheetSafeCell } from './csv';

describe('csvText', () => {
  it.each([
    ['=HYPERLINK("https://evil.example","x")', `"'=HYPERLINK(""https://evil.example"",""x"")"`],
    ['+1+1', `"'+1+1"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(1;2)', `"'@SUM(1;2)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['\uFF1D1+1', `"'\uFF1D1+1"`],
    // A value that starts with the quote itself is escaped too: a leading quote always means "escaped".
    ["'=1", `"''=1"`],
  ])('escapes %j as a quoted cell with a leading quote', (value, cell) => {
    expect(csvText([['1', value, 'x']])).toBe(`1,${cell},x\r\n`);
  });

  it('leaves every other cell as RFC 4180 has it', () => {
    expect(
      csvText([
        ['sequence', 'actor'],
        ['1', 'key:0a1b'],
        ['2', 'a,b'],
        ['3', 'say "hi"'],
        ['4', 'a=1'],
        ['5', ''],
      ]),
    ).toBe('sequence,actor\r\n1,key:0a1b\r\n2,"a,b"\r\n3,"say ""hi"""\r\n4,a=1\r\n5,\r\n');
  });

  it('keeps every value readable: a cell that starts with a quote held the rest', () => {
    const values = ['=1', '+1', '-1', '@a', "'a", "''", 'plain', '', 'a-1'];
    for (const value of values) {
      const cell = spreadsheetSafeCell(value);
      expect(cell.startsWith("'") ? cell.slice(1) : cell).toBe(value);
    }
  });
});

import { InvalidFilenameError, MAX_FILENAME_BYTES, safeFilename } from './safe-filename';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('safeFilename', () => {
  it('keeps an ordinary name, decoded and trimmed', () => {
    expect(safeFilename('passport.pdf')).toBe('passport.pdf');
    expect(safeFilename('my%20passport%20scan.pdf')).toBe('my passport scan.pdf');
    expect(safeFilename('  spaced.txt  ')).toBe('spaced.txt');
    expect(safeFilename('.profile')).toBe('.profile');
    expect(safeFilename('100%25.txt')).toBe('100%.txt');
  });

  it.each([
    ['..%2F..%2Fetc%2Fpasswd', 'passwd'],
    ['../../etc/passwd', 'passwd'],
    ['..%5C..%5Cwindows%5Csystem32%5Cconfig', 'config'],
    ['C:\\Users\\jane\\Desktop\\id card.png', 'id card.png'],
    ['/absolute/path/file.txt', 'file.txt'],
    ['%2e%2e%2fsecret', 'secret'],
    ['dir/ inner .txt ', 'inner .txt'],
  ])('drops the directory part of %j', (header, expected) => {
    expect(safeFilename(header)).toBe(expected);
  });

  it.each([undefined, '', '   ', '.', '..', '%2e%2e', 'dir/', 'a/..', 'a%2F.', '..%2F', ' / '])('refuses %j', (header) => {
    expect(() => safeFilename(header)).toThrow(InvalidFilenameError);
  });

  it.each(['bad%zzname', 'trail%', 'half%2', '%C3', '%FF.txt', '%ED%A0%80.txt'])('refuses the invalid percent-encoding %j', (header) => {
    expect(() => safeFilename(header)).toThrow(/invalid percent-encoding/);
  });

  it.each(['a%00b.txt', 'line%0Abreak.txt', 'tab\tname.txt', 'del%7F.txt', 'c1%C2%85.txt', 'esc%1B[31m.txt', 'cr\r.txt'])('refuses the control characters in %j', (header) => {
    expect(() => safeFilename(header)).toThrow(/control characters/);
  });

  it('refuses bidirectional overrides that disguise an extension', () => {
    expect(() => safeFilename('invoice%E2%80%AEfdp.exe')).toThrow(/bidirectional/);
    expect(() => safeFilename('x%E2%81%A6y.txt')).toThrow(/bidirectional/);
  });

  it('normalizes Unicode to NFC', () => {
    // "é" as e + combining acute (NFD, as macOS sends it) becomes the single code point.
    const result = safeFilename('Rene%CC%81e.pdf');
    expect(result).toBe('Ren\u00e9e.pdf');
    expect(result).toBe(result.normalize('NFC'));
    expect(safeFilename('%E5%B1%A5%E6%AD%B4%E6%9B%B8.pdf')).toBe('履歴書.pdf');
    expect(safeFilename('%F0%9F%93%84 scan.png')).toBe('📄 scan.png');
  });

  it('cuts a long name to 255 bytes, keeping the extension', () => {
    const long = `${'a'.repeat(300)}.pdf`;
    const result = safeFilename(long);
    expect(bytes(result)).toBe(MAX_FILENAME_BYTES);
    expect(result).toBe(`${'a'.repeat(251)}.pdf`);
    expect(safeFilename('b'.repeat(255))).toBe('b'.repeat(255));
    expect(safeFilename('c'.repeat(300))).toBe('c'.repeat(255));
  });

  it('cuts multi-byte names on a code point boundary', () => {
    // 100 × "ü" (2 bytes) and 100 × "😀" (4 bytes, a surrogate pair in JS) = 600 bytes.
    const name = `${'ü'.repeat(100)}${'😀'.repeat(100)}.jpeg`;
    const result = safeFilename(encodeURIComponent(name));
    expect(bytes(result)).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(result.endsWith('.jpeg')).toBe(true);
    expect(result).toBe(`${'ü'.repeat(100)}${'😀'.repeat(12)}.jpeg`);
    expect(Buffer.from(result, 'utf8').toString('utf8')).toBe(result); // no broken surrogate or sequence
    expect(bytes(safeFilename('é'.repeat(200)))).toBe(254); // 127 × 2 bytes: the 128th would not fit
  });

  it('does not keep an "extension" that is most of the name', () => {
    const result = safeFilename(`x.${'y'.repeat(300)}`);
    expect(bytes(result)).toBe(MAX_FILENAME_BYTES);
    expect(result.startsWith('x.yyy')).toBe(true);
  });

  it('gives a clear message', () => {
    expect(() => safeFilename(undefined)).toThrow('The file name is missing');
    expect(() => safeFilename('../')).toThrow('The file name is empty once its directory part is removed');
  });
});

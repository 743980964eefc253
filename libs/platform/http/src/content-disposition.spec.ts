import { contentDisposition } from './content-disposition';

/** RFC 6266 / 8187: an ASCII `filename` every client reads, and the exact name in `filename*` when it is not ASCII. */
describe('contentDisposition', () => {
  it('gives a plain ASCII name as filename only, attachment by default', () => {
    expect(contentDisposition('report-2024.pdf')).toBe('attachment; filename="report-2024.pdf"');
    expect(contentDisposition('scan.png', 'inline')).toBe('inline; filename="scan.png"');
  });

  it('escapes quotes and backslashes in the quoted name', () => {
    expect(contentDisposition('say "hi"\\now.txt')).toBe('attachment; filename="say \\"hi\\"\\\\now.txt"');
  });

  it('adds filename* with the UTF-8 bytes percent-encoded when the name is not ASCII, one _ per character in the fallback', () => {
    expect(contentDisposition('Auskunft – Müller.pdf')).toBe('attachment; filename="Auskunft _ M_ller.pdf"; filename*=UTF-8\'\'Auskunft%20%E2%80%93%20M%C3%BCller.pdf');
    // A character outside the BMP is one character: one `_`, four bytes.
    expect(contentDisposition('😀.txt')).toBe('attachment; filename="_.txt"; filename*=UTF-8\'\'%F0%9F%98%80.txt');
  });

  it('encodes what attr-char does not allow, which encodeURIComponent leaves alone', () => {
    expect(contentDisposition("é(1)*'.txt")).toBe("attachment; filename=\"_(1)*'.txt\"; filename*=UTF-8''%C3%A9%281%29%2A%27.txt");
  });

  it('never lets a control character into the header', () => {
    const header = contentDisposition('a\r\nSet-Cookie: x=1.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toBe('attachment; filename="a__Set-Cookie: x=1.txt"; filename*=UTF-8\'\'a%0D%0ASet-Cookie%3A%20x%3D1.txt');
  });

  it('survives a lone surrogate and an empty name', () => {
    expect(contentDisposition('a\uD800b')).toBe('attachment; filename="a_b"; filename*=UTF-8\'\'a%EF%BF%BDb');
    expect(contentDisposition('')).toBe('attachment');
  });
});

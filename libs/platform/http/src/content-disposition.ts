/** Whether a file is shown by the browser (`inline`) or saved (`attachment`). */
export type DispositionType = 'attachment' | 'inline';

/** A lone UTF-16 surrogate: not a character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Printable US-ASCII: what a quoted-string may hold unchanged (after escaping `"` and `\`). */
const PLAIN_ASCII = /^[\x20-\x7E]*$/;

/**
 * RFC 5987 / 8187 `ext-value` of a name: `UTF-8''` and its UTF-8 bytes, each
 * one outside `attr-char` percent-encoded (encodeURIComponent also leaves
 * `*'()` alone, which attr-char does not allow).
 */
function extValue(name: string): string {
  const encoded = encodeURIComponent(name).replace(/[*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `UTF-8''${encoded}`;
}

/**
 * The `Content-Disposition` of a file download (RFC 6266): `filename="..."`
 * always, as printable ASCII (anything else becomes `_`, `"` and `\` are
 * escaped), so that every client gets a usable name; and, when the name is not
 * plain ASCII, `filename*=UTF-8''...` (RFC 8187) with the exact name, which
 * clients that know it prefer. Control characters never reach the header.
 *
 *   contentDisposition('report.pdf')        → attachment; filename="report.pdf"
 *   contentDisposition('Auskunft – Müller.pdf')
 *     → attachment; filename="Auskunft _ M_ller.pdf"; filename*=UTF-8''Auskunft%20%E2%80%93%20M%C3%BCller.pdf
 */
export function contentDisposition(filename: string, type: DispositionType = 'attachment'): string {
  const name = filename.replace(LONE_SURROGATE, '\uFFFD');
  if (name === '') return type;
  // Code points, not UTF-16 units: one character outside ASCII is one `_`.
  const fallback = Array.from(name, (c) => (PLAIN_ASCII.test(c) ? c : '_'))
    .join('')
    .replace(/["\\]/g, (c) => `\\${c}`);
  const header = `${type}; filename="${fallback}"`;
  return PLAIN_ASCII.test(name) ? header : `${header}; filename*=${extValue(name)}`;
}

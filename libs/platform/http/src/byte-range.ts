/** One range of bytes of a representation, both ends included (RFC 9110 §14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

/** `bytes=` at the start of a Range header, any case, white space allowed around `=`; anchored, so linear. */
const BYTES_UNIT = /^bytes\s*=/i;
/** One range spec: `first-last`, `first-` or `-suffix`. The digit and space classes are disjoint, so matching is linear. */
const RANGE_SPEC = /^(\d*)\s*-\s*(\d*)$/;

/**
 * The single byte range a `Range` header asks for, for a file of `size` bytes:
 *
 * - `{ start, end }` to answer 206 with those bytes (an end past the file is
 *   cut to its last byte; `bytes=-n` is the last n bytes);
 * - `'unsatisfiable'` to answer 416 with `Content-Range: bytes *\/size` (the
 *   range starts at or past the end, or is `bytes=-0`);
 * - `undefined` to ignore the header and send the whole file (RFC 9110 §14.2):
 *   no header, another unit than bytes, a malformed range, or several ranges
 *   (multipart/byteranges is not served).
 *
 * Check `If-Range` before (`conditionalFileAnswer` does): when it does not match, the header is ignored too.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined || !Number.isSafeInteger(size) || size < 0) return undefined;
  const trimmed = header.trim();
  const unit = BYTES_UNIT.exec(trimmed);
  if (!unit) return undefined;
  const set = trimmed.slice(unit[0].length).trim();
  if (set.includes(',')) return undefined;
  const spec = RANGE_SPEC.exec(set);
  if (!spec || (spec[1] === '' && spec[2] === '')) return undefined;
  if (spec[1] === '') {
    // A suffix: the last n bytes, or the whole file when it is shorter.
    const length = Number(spec[2]);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(spec[1]);
  const last = spec[2] === '' ? undefined : Number(spec[2]);
  if (last !== undefined && last < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: last === undefined ? size - 1 : Math.min(last, size - 1) };
}

/** The `Content-Range` of a 206 (`bytes 0-99/1000`) or of a 416 (`bytes *\/1000`). */
export function contentRange(range: ByteRange | 'unsatisfiable', size: number): string {
  return range === 'unsatisfiable' ? `bytes */${size}` : `bytes ${range.start}-${range.end}/${size}`;
}

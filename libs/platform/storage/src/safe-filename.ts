/** A file name from an upload header that cannot be made safe; the message says why and may be shown to the caller. */
export class InvalidFilenameError extends Error {
  readonly code = 'INVALID_FILENAME';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFilenameError';
  }
}

export const MAX_FILENAME_BYTES = 255;
/** An extension longer than this is no extension worth keeping when a name must be shortened. */
const MAX_EXTENSION_BYTES = 32;

/** C0 controls, DEL and C1 controls. */
const isControl = (code: number): boolean => code <= 0x1f || (code >= 0x7f && code <= 0x9f);
/** The bidirectional embeddings, overrides and isolates that can make `txt.exe` read as `exe.txt`. */
const isBidiControl = (code: number): boolean => (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
const hasAny = (text: string, test: (code: number) => boolean): boolean => [...text].some((c) => test(c.codePointAt(0) ?? 0));

/**
 * The name to record and show for an uploaded file, from its (percent-
 * encoded) header value. Only a label: files are stored under generated keys,
 * never under this name.
 *
 * - Percent-decoded as UTF-8; an invalid escape is refused.
 * - Control characters (C0, DEL, C1) and bidirectional overrides are refused,
 *   not stripped: no honest client sends them, and a name that hides them
 *   should not reach a download's Content-Disposition.
 * - Any directory part is dropped, for `/` and `\` alike, after decoding:
 *   `..%2F..%2Fetc%2Fpasswd` becomes the harmless `passwd` (the client's path
 *   is no concern of ours, and browsers send bare names anyway).
 * - NFC-normalized and trimmed; empty, `.` and `..` are refused.
 * - At most 255 UTF-8 bytes: a longer name is cut on a code point boundary,
 *   keeping its extension (up to 32 bytes) when it has one.
 */
export function safeFilename(headerValue: string | undefined): string {
  if (headerValue === undefined || headerValue.trim() === '') throw new InvalidFilenameError('The file name is missing');
  let decoded: string;
  try {
    decoded = decodeURIComponent(headerValue);
  } catch {
    throw new InvalidFilenameError('The file name has an invalid percent-encoding (each % must start a valid UTF-8 escape such as %20)');
  }
  if (hasAny(decoded, isControl)) throw new InvalidFilenameError('The file name contains control characters');
  if (hasAny(decoded, isBidiControl)) throw new InvalidFilenameError('The file name contains bidirectional text overrides');
  const parts = decoded.normalize('NFC').split(/[/\\]/);
  const name = (parts[parts.length - 1] ?? '').trim();
  if (name === '') throw new InvalidFilenameError('The file name is empty once its directory part is removed');
  if (name === '.' || name === '..') throw new InvalidFilenameError('The file name may not be "." or ".."');
  return truncateUtf8(name, MAX_FILENAME_BYTES);
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** `name` cut to `limit` UTF-8 bytes on a code point boundary, the extension kept when there is one. */
function truncateUtf8(name: string, limit: number): string {
  if (byteLength(name) <= limit) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && byteLength(name.slice(dot)) <= MAX_EXTENSION_BYTES ? name.slice(dot) : '';
  const stem = cutToBytes(name.slice(0, name.length - extension.length), limit - byteLength(extension)).trimEnd();
  return stem === '' ? cutToBytes(name, limit) : `${stem}${extension}`;
}

function cutToBytes(text: string, limit: number): string {
  let out = '';
  let used = 0;
  for (const codePoint of text) {
    const size = byteLength(codePoint);
    if (used + size > limit) break;
    out += codePoint;
    used += size;
  }
  return out;
}

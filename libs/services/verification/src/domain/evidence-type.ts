/**
 * Media types of evidence files: the one declared by the client, normalized,
 * or, when none is declared, the one recognized from the file's first bytes.
 * Recognition covers the default allow-list only; anything else stays unknown
 * and is refused (a type is never guessed from the filename). A declared type
 * that has a signature here must match the file's first bytes.
 */

/** Bytes needed to recognize every type below. */
export const SNIFF_BYTES = 16;

const SIGNATURES: Array<{ type: string; test: (b: Buffer) => boolean }> = [
  { type: 'application/pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/tiff', test: (b) => ['49492a00', '4d4d002a'].includes(b.subarray(0, 4).toString('hex')) },
  { type: 'image/heic', test: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && ['heic', 'heix', 'mif1', 'msf1', 'heis'].includes(b.subarray(8, 12).toString('latin1')) },
];

/** The type recognized from a file's first bytes; undefined when none matches. */
export function sniffMediaType(head: Buffer): string | undefined {
  return SIGNATURES.find((s) => s.test(head))?.type;
}

/**
 * Whether a file's first bytes contradict its declared type: they carry the
 * signature of another type, or the declared type has a signature they lack.
 * A declared type without a signature here (one an operator added to the
 * allow-list) cannot be checked, so only another type's signature contradicts it.
 */
export function contradictsDeclaredType(declared: string, head: Buffer): boolean {
  const recognized = sniffMediaType(head);
  if (recognized !== undefined) return recognized !== declared;
  return SIGNATURES.some((s) => s.type === declared);
}

/** A declared media type without parameters, lower-cased; undefined when it is not `type/subtype`. */
export function normalizeMediaType(declared: string): string | undefined {
  const essence = declared.split(';')[0].trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence) ? essence : undefined;
}

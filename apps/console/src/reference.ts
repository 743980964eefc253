/**
 * A request's short reference, `DSAR-` and the first eight hex digits of its id in capitals (request-reference.ts in
 * the contracts, whose code the console does not bundle). The API takes it in place of an id, so a path may hold
 * either: a reference stays as it is, in capitals.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_REFERENCE = /^DSAR-[0-9A-F]{8}$/i;

export function referenceOf(idOrReference: string): string {
  if (SHORT_REFERENCE.test(idOrReference)) return idOrReference.toUpperCase();
  if (UUID.test(idOrReference)) return `DSAR-${idOrReference.slice(0, 8).toUpperCase()}`;
  return idOrReference;
}

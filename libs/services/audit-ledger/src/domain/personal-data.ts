import { saltedHash } from './hashing';

/** The fields of a payload that are present and may hold personal data. */
export function personalFieldsIn(payload: Record<string, unknown>, fields: readonly string[] | undefined): string[] {
  return (fields ?? []).filter((f) => payload[f] !== undefined && payload[f] !== null);
}

/**
 * The payload as the chain keeps it: each field that may hold personal data
 * replaced by its salted hash under the request's salt. Deleting the salt
 * (crypto-shredding) leaves the hashes unlinkable and the chain intact.
 */
export function withPersonalDataHashed(payload: Record<string, unknown>, fields: readonly string[], salt: Buffer): Record<string, unknown> {
  if (fields.length === 0) return payload;
  const copy = { ...payload };
  for (const f of fields) copy[f] = saltedHash(salt, payload[f]);
  return copy;
}

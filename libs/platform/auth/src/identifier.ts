/**
 * Tenant, workspace and principal ids travel on from the gateway as HTTP
 * headers (see IdentityHeaders), which are trimmed by the reader and reject
 * control and non-Latin-1 characters. Ids are therefore held to printable
 * ASCII without surrounding spaces, so what a token claims is exactly what
 * internal services receive.
 */
const PRINTABLE_ASCII_ID = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
export const MAX_ID_LENGTH = 256;

export function isUsableId(value: string): boolean {
  return value.length <= MAX_ID_LENGTH && PRINTABLE_ASCII_ID.test(value);
}

export const USABLE_ID_RULE = `printable ASCII without surrounding spaces, at most ${MAX_ID_LENGTH} characters`;

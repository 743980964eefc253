import { createHmac } from 'node:crypto';
import { canonicalJson } from '@dsar/platform/audit-chain';

/** `hmac-sha256:<hex>`: a salted hash of a value that may be personal data (docs/audit.md#personal-data). */
export function saltedHash(salt: Buffer, value: unknown): string {
  const text = typeof value === 'string' ? value : canonicalJson(value);
  return `hmac-sha256:${createHmac('sha256', salt).update(text, 'utf8').digest('hex')}`;
}

import { createHash } from 'node:crypto';
import { InvalidKeyError } from './errors';

/**
 * Blob keys are `/`-separated relative names of lowercase letters, digits and
 * `.`, `_`, `-`. Lowercase only, so that a case-insensitive file system
 * (macOS) cannot merge two keys; no `..`, empty or absolute parts, so that a key
 * can never leave the store's root; short enough for S3 (1024 bytes) and for
 * a file name (255 bytes) with room for the temporary suffix.
 */
export const MAX_KEY_LENGTH = 1024;
export const MAX_SEGMENT_LENGTH = 200;

const SEGMENT = /^[a-z0-9._-]+$/;

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'has an empty part (leading, trailing or doubled /)';
  if (segment === '.' || segment === '..') return 'has a . or .. part';
  if (segment.length > MAX_SEGMENT_LENGTH) return `has a part longer than ${MAX_SEGMENT_LENGTH} characters`;
  if (!SEGMENT.test(segment)) return 'may hold only a-z, 0-9, ".", "_", "-" between the / separators';
  return undefined;
}

/** Throws InvalidKeyError unless `key` is a valid blob key. */
export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidKeyError('A blob key must be a non-empty string');
  if (key.length > MAX_KEY_LENGTH) throw new InvalidKeyError(`A blob key must be at most ${MAX_KEY_LENGTH} characters`);
  for (const segment of key.split('/')) {
    const problem = segmentProblem(segment);
    // The key is quoted JSON-escaped, so a control character in it cannot forge a log line.
    if (problem) throw new InvalidKeyError(`Blob key ${JSON.stringify(key)} ${problem}`);
  }
}

/** Whether `key` is a valid blob key (drivers use it to skip their own temporary names when listing). */
export function isBlobKey(key: string): boolean {
  try {
    assertBlobKey(key);
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws unless `prefix` is a key followed by `/` (a "folder"). Prefixes end
 * at a separator so that a file system and S3 agree on what they cover:
 * `a/` covers `a/x` and `a/b/c`, never `ab/x` nor the object `a` itself.
 * `''` (everything) is accepted by `list` only.
 */
export function assertBlobPrefix(prefix: string, options: { allowEmpty?: boolean } = {}): void {
  if (prefix === '' && options.allowEmpty) return;
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) throw new InvalidKeyError(`A blob prefix must end with /: ${JSON.stringify(prefix)}`);
  assertBlobKey(prefix.slice(0, -1));
}

/** Normalizes a store's folder in an S3 bucket (S3_PREFIX): '' or a valid blob prefix ending in `/`. */
export function s3KeyPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  assertBlobPrefix(`${trimmed}/`);
  return `${trimmed}/`;
}

/** Tenant ids are printable ASCII without surrounding spaces (as the gateway accepts them), at most 256 characters. */
const TENANT_ID = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const MAX_TENANT_ID_LENGTH = 256;
const MAX_TENANT_SEGMENT_LENGTH = 100;

export function assertTenantId(tenantId: string): void {
  if (typeof tenantId !== 'string' || tenantId.length > MAX_TENANT_ID_LENGTH || !TENANT_ID.test(tenantId)) {
    throw new InvalidKeyError(`A tenant id must be printable ASCII without surrounding spaces, at most ${MAX_TENANT_ID_LENGTH} characters`);
  }
}

/**
 * The key segment of a tenant: the id itself when it is already lowercase
 * letters, digits, `_` and `-` (the usual case, readable on disk), otherwise
 * every other byte as `.` and two hex digits (`Acme.EU` → `.41cme.2e.45.55`).
 * An id whose escaped form would be too long becomes `.h` and its SHA-256:
 * `.` only ever starts an escape and `h` is no hex digit, so the mapping stays
 * one-to-one.
 */
export function tenantSegment(tenantId: string): string {
  assertTenantId(tenantId);
  let out = '';
  for (const byte of Buffer.from(tenantId, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[a-z0-9_-]/.test(c) ? c : `.${byte.toString(16).padStart(2, '0')}`;
  }
  return out.length <= MAX_TENANT_SEGMENT_LENGTH ? out : `.h${createHash('sha256').update(tenantId, 'utf8').digest('hex')}`;
}

/**
 * The tenant id a segment stands for (the inverse of `tenantSegment`), or
 * undefined when the segment is the hash of a long id (`.h…`, which cannot be
 * reversed) or no segment `tenantSegment` makes.
 */
export function tenantIdOfSegment(segment: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] !== '.') {
      bytes.push(segment.charCodeAt(i));
      continue;
    }
    const hex = segment.slice(i + 1, i + 3);
    if (!/^[0-9a-f]{2}$/.test(hex)) return undefined;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  const tenantId = Buffer.from(bytes).toString('latin1');
  try {
    // Only a segment tenantSegment would make from that id counts: no stray characters, no escape of a plain one.
    return tenantSegment(tenantId) === segment ? tenantId : undefined;
  } catch {
    return undefined;
  }
}

import { ProblemError } from '@dsar/platform/errors';

/**
 * Paths are taken only in their normalized form. A URL parser (the WHATWG one
 * of fetch, a proxy's, a framework's) resolves `.` and `..` segments, their
 * percent-encoded forms (`%2e`, `%2E%2e`, `.%2e`) and, for http URLs, treats a
 * backslash as a slash; an encoded slash (`%2f`) becomes a separator once
 * decoded. A path holding any of them can mean one thing to the check that
 * authorizes it and another to the service that serves it, so it is refused.
 * So is a segment that decodes to a control character: no id or key holds one,
 * and NUL (`%00`) cannot even be looked up in PostgreSQL text.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point of this rule
const CONTROL_CHARACTER = /[\x00-\x1F\x7F]/;

/** Why a raw path (no query) is not in normalized form, or undefined when it is. */
export function unsafePathReason(rawPath: string): string | undefined {
  if (!rawPath.startsWith('/')) return 'it does not start with /';
  if (rawPath.includes('\\')) return 'it contains a backslash';
  for (const segment of rawPath.split('/')) {
    if (/%(?:2f|5c)/i.test(segment)) return 'a segment contains an encoded slash or backslash';
    if (/%(?![0-9a-f]{2})/i.test(segment)) return 'a segment contains a malformed percent-encoding';
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'a segment is not valid percent-encoded UTF-8';
    }
    if (decoded === '.' || decoded === '..') return 'it contains a dot segment';
    if (CONTROL_CHARACTER.test(decoded)) return 'a segment contains a control character (U+0000–U+001F or U+007F)';
    // A second round of decoding must not reveal one either (`%252e%252e`, decoded by a later hop).
    if (/^(?:\.|%2e){1,2}$/i.test(decoded) || /%(?:2f|5c)/i.test(decoded)) return 'it contains an encoded dot segment or separator';
  }
  return undefined;
}

/** The path part of a request target (`/a/b?c` → `/a/b`). */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** Throws 400 REQUEST_PATH_INVALID for a request target whose path is not in normalized form. */
export function assertNormalizedPath(target: string): void {
  const reason = unsafePathReason(pathOf(target));
  if (reason) throw new ProblemError('REQUEST_PATH_INVALID', `The path is not in normalized form: ${reason}.`);
}

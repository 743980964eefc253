/**
 * What went wrong, as the page tells the person (texts.ts words each kind): the API's problems
 * (libs/contracts/src/http/portal.ts, docs/delivery.md) read by their status and the step the page was at, and the
 * page's own (a link cut short, no answer at all). The API's codes and titles are for operators; the person reads
 * what the problem means for them and what to do.
 */
export type PortalProblem =
  /** The address holds no link, or one cut short: nothing was asked of the API. */
  | { kind: 'incomplete_link' }
  /** 404: no such link, or the credential is not its own (the API does not tell them apart). */
  | { kind: 'invalid_link' }
  /** 410: the link is past its time, or a newer link replaced it. */
  | { kind: 'expired' }
  /** 409, or a link whose state is `used`: its code was entered before, in another browser or tab. */
  | { kind: 'used' }
  /** 403, or a link whose state is `locked`: too many wrong codes. */
  | { kind: 'locked' }
  /** 401 to a code: `attemptsLeft` as the link says after it (null until the page has read it). */
  | { kind: 'wrong_code'; attemptsLeft: number | null }
  /** A code that is not 8 digits (the page's check, or the API's 400). */
  | { kind: 'malformed_code' }
  /** 429: `retryAfterSeconds` from Retry-After, null without one. */
  | { kind: 'too_many_tries'; retryAfterSeconds: number | null }
  /** 401 or 410 to a download: the session of this tab no longer opens the files. */
  | { kind: 'session_ended' }
  /** 404 to a download: the file is gone (retention, or replaced since the list was read). */
  | { kind: 'file_gone' }
  /** No answer: the network, or the connection broke during a download. */
  | { kind: 'network' }
  /** Any other answer (5xx, a proxy's page): the service could not answer. */
  | { kind: 'unavailable' };

export type ProblemKind = PortalProblem['kind'];

/** What the page was doing when the answer came. */
export type PortalStep = 'link' | 'code' | 'download';

/** The problem an error answer means at `step`. */
export function problemOfAnswer(step: PortalStep, status: number, retryAfter: string | null, now: number): PortalProblem {
  if (status === 429) return { kind: 'too_many_tries', retryAfterSeconds: retryAfterSeconds(retryAfter, now) };
  if (step === 'download') {
    if (status === 401 || status === 410) return { kind: 'session_ended' };
    if (status === 404) return { kind: 'file_gone' };
    return { kind: 'unavailable' };
  }
  switch (status) {
    case 400:
      return step === 'code' ? { kind: 'malformed_code' } : { kind: 'invalid_link' };
    case 401:
      return step === 'code' ? { kind: 'wrong_code', attemptsLeft: null } : { kind: 'invalid_link' };
    case 403:
      return { kind: 'locked' };
    case 404:
      return { kind: 'invalid_link' };
    case 409:
      return { kind: 'used' };
    case 410:
      return { kind: 'expired' };
    default:
      return { kind: 'unavailable' };
  }
}

/** The longest wait the page passes on: a larger Retry-After is a fault of whoever sent it. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;
const DELTA_SECONDS = /^[0-9]{1,9}$/;
/** The HTTP date every server sends (IMF-fixdate, RFC 9110): `Wed, 12 Mar 2025 10:02:00 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/;

/** Retry-After in seconds from `now` (ms): delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (DELTA_SECONDS.test(value)) return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS);
  const at = HTTP_DATE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

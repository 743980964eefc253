/**
 * The kinds of identity the blind index of lifecycle-clock keeps of a request (docs/identity.md): an email address,
 * a phone number, and an account id given as evidence. Each kind has its own derived key, so a value of one kind
 * never matches a value of another.
 */
export const IDENTITY_KINDS = ['email', 'phone', 'account'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** The longest identity value the index and the search take, in characters (before normalisation). */
export const IDENTITY_VALUE_MAX_LENGTH = 512;

/** What an operator decides of a request marked as a duplicate: the same request (`confirmed`), or a request of its own (`separated`). */
export const DUPLICATE_RESOLUTIONS = ['confirmed', 'separated'] as const;
export type DuplicateResolution = (typeof DUPLICATE_RESOLUTIONS)[number];

/** Where a request stands as a duplicate: marked at intake and waiting for an operator, or resolved either way. */
export const DUPLICATE_STATES = ['marked', 'confirmed', 'separated'] as const;
export type DuplicateState = (typeof DUPLICATE_STATES)[number];

/** The window of the duplicate check by default, in days (IDENTITY_DUPLICATE_WINDOW_DAYS). */
export const DEFAULT_DUPLICATE_WINDOW_DAYS = 30;

/**
 * Query parameters whose value is a person's identity (the queue's search by identity): a problem's `instance` and a
 * log line show them as `[REDACTED]`, so that an answer or a log never repeats the identity searched for.
 */
export const PERSONAL_QUERY_PARAMETERS: readonly string[] = ['identity'];

import { z } from 'zod';

/** Field types every HTTP contract shares. */
export const timestamp = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp with a zone designator, e.g. 2026-03-01T09:30:00Z');

/** Trimmed, non-empty text of at most `max` characters. */
export const text = (max: number) => z.string().trim().min(1).max(max);

/** A whole number given as a query parameter (text), from `min` to `max`. */
export const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

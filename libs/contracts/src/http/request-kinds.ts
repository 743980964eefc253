/**
 * The kinds of request and clock start, on their own so that the policy pack
 * schema can use them without importing the request contracts (which list the
 * jurisdictions the built-in packs cover).
 */
export const REQUEST_TYPES = ['access', 'deletion', 'rectification', 'portability', 'restriction', 'objection', 'opt_out'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const CLOCK_MODES = ['receipt', 'active'] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

/**
 * The code of the second email, as the person types it: `1234 5678`, `1234-5678`, pasted with a space before. The API
 * takes the 8 digits alone (portalCodeCommand in the contracts), so the page removes what people add to read them.
 */
export const CODE_LENGTH = 8;

/** White space and the dashes a keyboard or a copy from an email may give (hyphen, non-breaking hyphen, en and em dash, minus). */
const SEPARATORS = /[\s\-\u2010\u2011\u2012\u2013\u2014\u2212]/g;
const CODE = /^[0-9]{8}$/;

/** The code without its separators; any other character stays, for the check to refuse. */
export function normalisedCode(typed: string): string {
  return typed.replace(SEPARATORS, '');
}

/** True for what the API takes: exactly 8 digits. */
export function isWholeCode(code: string): boolean {
  return CODE.test(code);
}

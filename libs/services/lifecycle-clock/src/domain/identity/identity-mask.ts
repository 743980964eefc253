/**
 * A person's identities as the masked request detail shows them (`GET /requests/:id?requestor=masked`, the console's
 * view until a recorded reveal): enough to tell two people apart at a glance, not enough to read the identity off a
 * screen over a shoulder. Each function is linear in its input.
 */
const HIDDEN = '***';

/** `jane@example.org` → `j***@example.org`: the first letter of the mailbox, the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return maskAccount(email);
  return `${Array.from(email.slice(0, at))[0]}${HIDDEN}${email.slice(at)}`;
}

const isDigit = (c: string) => c >= '0' && c <= '9';

/**
 * `+44 7700 900123` → `+44 7*** ***123`: the country code (the digits after `+` up to the first separator), the first
 * digit after it and the last three stay; every other digit is a star, separators stay where they are.
 */
export function maskPhone(phone: string): string {
  const chars = Array.from(phone.trim());
  const digitCount = chars.filter(isDigit).length;
  if (digitCount === 0) return HIDDEN;
  let leading: number;
  if (chars[0] === '+') {
    const separator = chars.findIndex((c, i) => i > 0 && !isDigit(c));
    const countryDigits = separator === -1 ? 2 : separator - 1;
    leading = countryDigits + 1;
  } else {
    leading = 1;
  }
  const trailing = 3;
  // Too short to keep that much: only the last two digits show.
  if (digitCount <= leading + trailing + 2) {
    leading = 0;
  }
  const keepFrom = digitCount - (leading === 0 ? 2 : trailing);
  let seen = 0;
  return chars
    .map((c) => {
      if (!isDigit(c)) return c;
      const index = seen++;
      return index < leading || index >= keepFrom ? c : '*';
    })
    .join('');
}

/** `ac12345689` → `ac***89`: two characters at each end; a short id shows none. */
export function maskAccount(account: string): string {
  const chars = Array.from(account.trim());
  if (chars.length <= 5) return HIDDEN;
  return `${chars.slice(0, 2).join('')}${HIDDEN}${chars.slice(-2).join('')}`;
}

/** `Jane Roe` → `J*** R***`: the initial of each word. */
export function maskName(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return HIDDEN;
  return words.map((w) => `${Array.from(w)[0]}${HIDDEN}`).join(' ');
}

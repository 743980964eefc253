/** Anything shaped like an email address, bare or in angle brackets. */
const ADDRESS = /[^\s<>()[\]"',;:]+@[^\s<>()[\]"',;:]+/g;
const MAX_LENGTH = 300;

/**
 * A failure as one short line without email addresses: SMTP servers echo the
 * recipient in their refusals (`550 5.1.1 <alice@example.org>: unknown`), and
 * the text is stored with the attempt and shown to operators.
 */
export function errorText(message: string): string {
  const line = message.replace(ADDRESS, '***').replace(/\s+/g, ' ').trim();
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line || 'unknown error';
}

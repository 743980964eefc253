const EMAIL = /^([^\s@]+)@([^\s@]+)$/;
/** A Slack channel name (`#privacy-ops`) or a conversation id (`C0123ABCD`, `G…`, `D…`). */
const SLACK_CHANNEL = /^(?:#\S+|[CGD][A-Z0-9]{6,})$/;

/**
 * A destination as stored with an attempt and shown to operators: enough to
 * tell destinations apart, not enough to read a data subject's address back.
 * An email keeps its first character and its domain (`a***@example.org`); a
 * Slack channel its first two characters (`#p***`, `C0***`); anything else
 * its first character.
 */
export function maskDestination(destination: string): string {
  const value = destination.trim();
  if (value === '') return '***';
  const email = EMAIL.exec(value);
  if (email) return `${[...email[1]][0]}***@${email[2]}`;
  // Code points, not UTF-16 units: a name must not be cut inside a character.
  const chars = [...value];
  if (SLACK_CHANNEL.test(value)) return `${chars.slice(0, 2).join('')}***`;
  return `${chars[0]}***`;
}

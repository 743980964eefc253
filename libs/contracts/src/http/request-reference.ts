/**
 * The reference people see and quote back for a request: `DSAR-` and the first
 * eight hex digits of its id, in capitals (`DSAR-1A2B3C4D`). Short enough to
 * read out on the phone. The notifier puts it in the subject of every email to
 * the data subject; intake matches a reply to its request by it
 * (docs/webhooks.md#replies).
 */
export function requestReference(requestId: string): string {
  return `DSAR-${requestId.replace(/[^0-9a-zA-Z]/g, '').slice(0, 8).toUpperCase()}`;
}

/** A reference inside a text (a subject, a chat message), standing as a word of its own, in any case. */
const REFERENCE_IN_TEXT = /(?<![\p{L}\p{N}])DSAR-([0-9A-F]{8})(?![\p{L}\p{N}])/giu;

/**
 * The id prefixes (eight lower-case hex digits) of the references a text
 * quotes, in the order they stand, each once: `Re: Your request DSAR-1A2B3C4D`
 * gives `['1a2b3c4d']`.
 */
export function referencedIdPrefixes(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE_IN_TEXT)].map((m) => m[1].toLowerCase()))];
}

/** The text with every reference in it replaced by a space: a quoted reference is the service's word, not the author's. */
export function withoutRequestReferences(text: string): string {
  return text.replace(REFERENCE_IN_TEXT, ' ');
}

/** The id prefix a reference names (`DSAR-1A2B3C4D` → `1a2b3c4d`, any case), or undefined when it is not one. */
export function idPrefixOfReference(reference: string): string | undefined {
  const m = /^DSAR-([0-9A-F]{8})$/i.exec(reference.trim());
  return m ? m[1].toLowerCase() : undefined;
}

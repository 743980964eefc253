/**
 * Text of inbound messages: the plain text of an HTML body, the part of a
 * message its author wrote (without the quoted or forwarded message below it),
 * addresses out of `Name <address>` headers, and text made fit for a request's
 * `rawText`. Pure functions; nothing here reads the network or the clock.
 */

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the character references of HTML text: the named ones above and numeric ones (`&#233;`, `&#xE9;`). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * The readable text of an HTML body: head, styles, scripts and comments
 * dropped, quoted blocks (`<blockquote>`) dropped, block ends and `<br>` made
 * line breaks, the other tags removed, entities decoded. Not a renderer: enough
 * to read what a person wrote when a message has no text part.
 *
 * Anyone can mail the inbox, so every pattern here runs in time linear in the
 * text: a comment, a dropped element or a quoted block left open runs to the
 * end of the text (as a browser reads it), and a tag's attributes stop at the
 * next `<`, so no start rescans the rest of the text.
 */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
      .replace(/<(head|style|script|title)\b[^<>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
      .replace(/<blockquote\b[^<>]*>[\s\S]*?(?:<\/blockquote\s*>|$)/gi, '\n')
      .replace(/<br\s*\/?>/gi, '\n')
      .replace(/<\/(p|div|tr|li|h[1-6]|table|ul|ol)\s*>/gi, '\n')
      .replace(/<[^<>]*>/g, ''),
  )
    .replace(/[ \t\u00A0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The words that end the line introducing a quoted reply: "On … wrote:", "Le … a écrit :", … (German: see endsQuoteIntro). */
const QUOTE_INTRO_END = /(?:wrote|schrieb|a [ée]crit|escribi[óo]|escreveu|ha scritto|schreef)\s*:\s*$/i;
/** "Am … schrieb Jane Doe <jane@example.org>:": German puts the name after the verb. */
const GERMAN_QUOTE_VERB = /\bschrieb\s/i;
const ENDS_WITH_COLON = /:\s*$/;

/**
 * Whether a line ends the introduction of a quoted reply. The German form is
 * two tests rather than one pattern: `schrieb\s.*:\s*$` would, on a line of
 * many "schrieb", rescan the rest of the line from each of them.
 */
function endsQuoteIntro(line: string): boolean {
  return QUOTE_INTRO_END.test(line) || (ENDS_WITH_COLON.test(line) && GERMAN_QUOTE_VERB.test(line));
}
const QUOTE_INTRO_START = /^\s*(?:on|am|le|el|em|il|op)\s/i;
/** "-----Original Message-----" and its kin, in the five languages and Italian and Dutch. */
const SEPARATOR =
  /^\s*-{2,}\s*(?:original message|urspr[üu]ngliche nachricht|message d'origine|mensaje original|mensagem original|messaggio originale|oorspronkelijk bericht|forwarded message|weitergeleitete nachricht|message transf[ée]r[ée]|mensaje reenviado|mensagem encaminhada|messaggio inoltrato|doorgestuurd bericht)\s*-{2,}\s*$/i;
const FORWARD_INTRO =
  /^\s*(?:begin forwarded message|anfang der weitergeleiteten nachricht|d[ée]but du message r[ée]exp[ée]di[ée]|inicio del mensaje reenviado|in[íi]cio da mensagem encaminhada)\s*:/i;
/** The header block Outlook puts above a quoted message: "From: …" then "Sent: …" (or Date, To, Subject). */
const HEADER_FROM = /^\s*\*?(?:from|von|de|da|van)\s*:\*?\s*\S/i;
const HEADER_NEXT = /^\s*\*?(?:sent|gesendet|envoy[ée]|enviado|date|datum|fecha|data|inviato|verzonden|to|an|[àa]|para|aan|subject|betreff|objet|asunto|assunto|oggetto|onderwerp)\s*:/i;

/**
 * What the author of a message wrote: the text above the first quoted or
 * forwarded message ("On … wrote:", "-----Original Message-----", an
 * Outlook header block, "Begin forwarded message:"), without lines quoted
 * with `>`. A reply quotes the request it answers; reading only the author's
 * words keeps "Thanks, here is my ID" from being taken for the request quoted
 * under it, and a request written above a forwarded newsletter from being
 * taken for the newsletter.
 */
export function authoredText(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (SEPARATOR.test(line) || FORWARD_INTRO.test(line)) break;
    if (QUOTE_INTRO_START.test(line) && (endsQuoteIntro(line) || (i + 1 < lines.length && endsQuoteIntro(lines[i + 1])))) break;
    if (HEADER_FROM.test(line) && lines.slice(i + 1, i + 4).some((next) => HEADER_NEXT.test(next))) break;
    if (/^\s*>/.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n').trim();
}

/**
 * The address of a mailbox as headers write it: `Jane Doe <jane@example.org>`,
 * `"Doe, Jane" <jane@example.org>` or a bare `jane@example.org`; lower case.
 * Undefined when there is none.
 */
export function addressOf(mailbox: string): string | undefined {
  // Linear on any header: the local part holds no `@` (one place to split a run), and a bare address starts where a
  // run of address characters starts (no start inside a run rescans it).
  const bracketed = /<\s*([^<>\s@]+@[^<>\s]+)\s*>/.exec(mailbox);
  const bare = bracketed ? bracketed[1] : /(?<![^\s<>"',;])[^\s<>"',;@]+@[^\s<>"',;]+/.exec(mailbox)?.[0];
  return bare?.replace(/^mailto:/i, '').toLowerCase();
}

/** The local part of an address (before the last @). */
export function localPartOf(address: string): string {
  return address.slice(0, address.lastIndexOf('@'));
}

/**
 * The Message-IDs a header lists (`In-Reply-To`, `References`): each `<id>`,
 * or, without angle brackets, each word; without the brackets.
 */
export function messageIdsOf(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  const text = typeof value === 'string' ? value : value.join(' ');
  const bracketed = [...text.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]);
  return bracketed.length > 0 ? bracketed : text.split(/[\s,]+/).filter(Boolean);
}

// eslint-disable-next-line no-control-regex -- the control characters a request's text may not hold (contracts' NO_CONTROL_CHARACTERS)
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/g;

/**
 * Text fit for a request's free-text fields: the control characters the
 * contracts refuse (all but tab, line feed and carriage return) removed, and at
 * most `max` characters (cut on a character, never inside a surrogate pair).
 */
export function fitText(text: string, max: number): string {
  const clean = text.replace(CONTROL, '');
  if (clean.length <= max) return clean;
  const cut = /[\uD800-\uDBFF]/.test(clean[max - 1]) ? max - 1 : max;
  return clean.slice(0, cut);
}

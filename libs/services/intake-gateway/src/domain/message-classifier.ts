import { type RequestType, withoutRequestReferences } from '@dsar/contracts';
import { authoredText, localPartOf, addressOf } from './mail-text';
import {
  AUTO_REPLY_CUES,
  BOUNCE_CUES,
  BOUNCE_SENDERS,
  BULK_CUES,
  FIRST_PERSON_CUES,
  HEADER_CUES,
  type HeaderCue,
  INFORMATIONAL_CUES,
  LEGAL_CUES,
  OWN_DATA_CUES,
  REPLY_SUBJECT,
  REQUEST_MARKERS,
  SPAM_CUES,
} from './message-classifier-rules';
import { compileGuarded, type GuardedPattern, inferRequestType, likelyLanguage, normalize, occursIn } from './request-type-inference';
import type { RuleLanguage } from './request-type-rules';

/** A message as the classifier reads it: a mail's subject, text, sender and headers, or a chat message's text. */
export interface InboundText {
  subject?: string;
  /** The body as plain text (an HTML-only mail converted with htmlToText). */
  text: string;
  /** The sender's mailbox (`Name <address>` or an address), when the channel has one. */
  from?: string;
  /** Mail headers by lower-case name, where the provider passes them on. */
  headers?: Readonly<Record<string, string>>;
}

/** Why a message is, or is not, a request (docs/intake.md#inbound-message-classification). */
export const CLASSIFICATION_REASONS = ['request', 'empty_message', 'bounce', 'auto_reply', 'bulk_mail', 'spam', 'informational', 'not_a_request'] as const;
export type ClassificationReason = (typeof CLASSIFICATION_REASONS)[number];

export interface MessageClassification {
  /** Whether the message is a data subject request. */
  isRequest: boolean;
  reason: ClassificationReason;
  /** The type inferRequestType reads in the author's words (`access` by default), for a request and for any other message. */
  requestType: RequestType;
  /** The deciding type rule, or `default`. */
  rule: string;
  /** The language of the deciding rule, else the one whose common words the text uses most; null when neither says. */
  language: RuleLanguage | null;
  /** The cue groups found (`action`, `own_data`, `legal`, `bulk`, …): what the decision rested on, never the words. */
  cues: readonly string[];
}

/**
 * How much of a long text is read: the first 20 000 and the last 10 000
 * characters. Requests are short; a long message is a newsletter or a thread,
 * whose footer (the bulk cues) is at its end.
 */
const HEAD_CHARS = 20_000;
const TAIL_CHARS = 10_000;

function window(text: string): string {
  return text.length <= HEAD_CHARS + TAIL_CHARS ? text : `${text.slice(0, HEAD_CHARS)}\n${text.slice(-TAIL_CHARS)}`;
}

const compiled = (cues: Readonly<Record<RuleLanguage, readonly string[]>>): readonly GuardedPattern[] => Object.values(cues).flat().map(compileGuarded);

const CUES = {
  ownData: compiled(OWN_DATA_CUES),
  firstPerson: compiled(FIRST_PERSON_CUES),
  asking: compiled(REQUEST_MARKERS),
  legal: compiled(LEGAL_CUES),
  informational: compiled(INFORMATIONAL_CUES),
  autoReply: compiled(AUTO_REPLY_CUES),
  bounce: compiled(BOUNCE_CUES),
  bulk: compiled(BULK_CUES),
  spam: compiled(SPAM_CUES),
};

/** Whether any pattern matches the normalized text. */
const anyOf = (patterns: readonly GuardedPattern[], normalized: string): boolean => normalized !== '' && patterns.some((p) => occursIn(p, normalized));

const headerSays = (cues: readonly HeaderCue[], headers: Readonly<Record<string, string>> | undefined): boolean =>
  headers !== undefined && cues.some(({ name, value }) => headers[name] !== undefined && value.test(headers[name].trim()));

/**
 * Decides whether an inbound message is a data subject request, with the
 * request type and language intake would record. Deterministic: the same
 * message always gets the same answer, and `cues` says why. The steps, each
 * ending the decision when it holds (docs/intake.md):
 *
 * 0. the text read is the subject (unless it is a reply's or a forward's) and
 *    what the author wrote (mail-text.ts `authoredText`), without the request
 *    references it quotes; the noise cues of the subject are read in any case;
 * 1. nothing written (subject and author's text empty): `empty_message`;
 * 2. a delivery report: from the mailer daemon or postmaster, a report header,
 *    a bounce phrase in the subject, or in the body of a message that names no
 *    request: `bounce`;
 * 3. an automatic reply: its header or subject, or its phrases in the author's
 *    text of a message that does not read as a request: `auto_reply`;
 * 4. bulk mail: a newsletter footer in the author's text, or `Precedence: bulk`: `bulk_mail`;
 * 5. an offer or a prize, unless the author also asks for something about their own data: `spam`;
 * 6. a notice about the reader's rights that does not name the author's own data: `informational`;
 * 7. a request when a request-type phrase stands, not negated, and the author
 *    names their own data, or a data-protection right or law, or speaks of
 *    themselves and asks; or when, without such a phrase, the author invokes a
 *    right or law of themselves, asking (the type is then the default,
 *    `access`): `request`; otherwise `not_a_request`.
 *
 * "Reads as a request" in 2 and 3 is step 7's test; in 5 it needs the author's own data.
 */
export function classifyMessage(message: InboundText): MessageClassification {
  // The subject of a reply or a forward is the quoted message's, and a quoted reference (`DSAR-1A2B3C4D`) is the
  // service's word: neither is what the author wrote.
  const written = message.subject ?? '';
  const subject = REPLY_SUBJECT.test(written) ? '' : withoutRequestReferences(written).trim();
  const authored = window(withoutRequestReferences(authoredText(message.text)));
  const own = [subject, authored].filter((part) => part !== '').join('\n');
  const reading = inferRequestType(own);
  const result = (reason: ClassificationReason, cues: readonly string[]): MessageClassification => ({
    isRequest: reason === 'request',
    reason,
    requestType: reading.requestType,
    rule: reading.rule,
    language: reading.language ?? likelyLanguage(own),
    cues,
  });
  if (own.trim() === '') return result('empty_message', []);

  const subjectText = normalize(written);
  const ownText = normalize(own);
  const bodyText = normalize(window(message.text));
  const action = reading.rule !== 'default';
  const ownData = anyOf(CUES.ownData, ownText);
  const legal = anyOf(CUES.legal, ownText);
  const asksForThemselves = anyOf(CUES.firstPerson, ownText) && anyOf(CUES.asking, ownText);
  const readsAsRequest = (action && (ownData || legal || asksForThemselves)) || (legal && asksForThemselves);
  const found = [...(action ? [`action:${reading.rule}`] : []), ...(ownData ? ['own_data'] : []), ...(legal ? ['legal'] : []), ...(asksForThemselves ? ['asking'] : [])];
  const sender = message.from ? addressOf(message.from) : undefined;

  if (
    (sender !== undefined && BOUNCE_SENDERS.some((s) => s.test(localPartOf(sender)))) ||
    headerSays(HEADER_CUES.bounce, message.headers) ||
    anyOf(CUES.bounce, subjectText) ||
    (!action && anyOf(CUES.bounce, bodyText))
  ) {
    return result('bounce', [...found, 'bounce']);
  }
  if (
    headerSays(HEADER_CUES.autoReply, message.headers) ||
    anyOf(CUES.autoReply, subjectText) ||
    (!readsAsRequest && (headerSays(HEADER_CUES.automated, message.headers) || anyOf(CUES.autoReply, ownText)))
  ) {
    return result('auto_reply', [...found, 'auto_reply']);
  }
  if (headerSays(HEADER_CUES.bulk, message.headers) || anyOf(CUES.bulk, ownText)) return result('bulk_mail', [...found, 'bulk']);
  if (!(action && ownData) && anyOf(CUES.spam, ownText)) return result('spam', [...found, 'spam']);
  if (!ownData && anyOf(CUES.informational, ownText)) return result('informational', [...found, 'informational']);
  return result(readsAsRequest ? 'request' : 'not_a_request', found);
}

import { withoutRequestReferences } from '@dsar/contracts';
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
  NOT_A_REQUEST_CUES,
  UNREAD_LANGUAGE_CUES,
  OWN_DATA_CUES,
  REPLY_SUBJECT,
  REQUEST_MARKERS,
  SPAM_CUES,
} from './message-classifier-rules';
import { type LanguageDetector } from './language/language-detector';
import { lawCues, type LetterReading, readLetter } from './letter-reading';
import { ASK_CUES } from './letter-reading-rules';
import { compileGuarded, type GuardedPattern, normalize, occursIn } from './request-type-inference';
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
  /** The letter reader's reading of the author's words (letter-reading.ts), for a request and for any other message. */
  reading: LetterReading;
  /** The cue groups found (`right:deletion`, `own_data`, `legal`, `complaint`, `bulk`, …): what the decision rested on, never the words. */
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
  asking: [...compiled(REQUEST_MARKERS), ...compiled(ASK_CUES)],
  legal: compiled(LEGAL_CUES),
  informational: compiled(INFORMATIONAL_CUES),
  autoReply: compiled(AUTO_REPLY_CUES),
  bounce: compiled(BOUNCE_CUES),
  bulk: compiled(BULK_CUES),
  spam: compiled(SPAM_CUES),
};

const UNREAD = { data: UNREAD_LANGUAGE_CUES.data.map(compileGuarded), ask: UNREAD_LANGUAGE_CUES.ask.map(compileGuarded) };

/** The confidence at which an opt-out reads as a request with no other cue: asked, not only named. */
const OPT_OUT_ON_ITS_OWN = 0.5;

const NOT_A_REQUEST_GROUPS = Object.entries(NOT_A_REQUEST_CUES).map(([group, cues]) => ({ group, patterns: compiled(cues) }));

/** Whether any pattern matches the normalized text. */
const anyOf = (patterns: readonly GuardedPattern[], normalized: string): boolean => normalized !== '' && patterns.some((p) => occursIn(p, normalized));

const headerSays = (cues: readonly HeaderCue[], headers: Readonly<Record<string, string>> | undefined): boolean =>
  headers !== undefined && cues.some(({ name, value }) => headers[name] !== undefined && value.test(headers[name].trim()));

/**
 * Decides whether an inbound message is a data subject request, with the
 * reading intake would record (letter-reading.ts). Deterministic given the
 * detector: the same message always gets the same answer, and `cues` says why.
 * The steps, each ending the decision when it holds (docs/intake.md):
 *
 * 0. the text read is the subject (unless it is a reply's or a forward's) and
 *    what the author wrote (mail-text.ts `authoredText`), without the request
 *    references it quotes; the noise cues of the subject are read in any case;
 * 1. nothing written (subject and author's text empty): `empty_message`;
 * 2. a delivery report: from the mailer daemon or postmaster, a report header,
 *    a bounce phrase in the subject, or in the body of a message that asks no
 *    right: `bounce`;
 * 3. an automatic reply: its header or subject, or its phrases in the author's
 *    text of a message that does not read as a request: `auto_reply`;
 * 4. bulk mail: a newsletter footer in the author's text, or `Precedence: bulk`: `bulk_mail`;
 * 5. an offer or a prize, unless the author also asks for something about their own data: `spam`;
 * 6. a notice about the reader's rights that does not name the author's own data: `informational`;
 * 7. a developer's feature request, or a complaint about lost data or a
 *    support question that cites no article of the law (NOT_A_REQUEST_CUES):
 *    `not_a_request`;
 * 8. a request when the reading found a right, and the author names their own
 *    data, or a data-protection right or law, or speaks of themselves, or
 *    writes for someone else, or the reading is an opt-out asked for (confidence ≥ 0.5); or when, without a right found, the
 *    author invokes a right or law of themselves, asking (the reading then
 *    goes to triage, `no_rule_matched`): `request`; otherwise `not_a_request`.
 *    In a language intake does not read: a law's name or an article cited
 *    (what every language writes alike), or a few words of personal data and
 *    of asking (UNREAD_LANGUAGE_CUES); the reading goes to triage,
 *    `unsupported_language`.
 *
 * "Reads as a request" in 2 and 3 is step 8's test; in 5 it needs the author's own data.
 */
export function classifyMessage(message: InboundText, detector: LanguageDetector): MessageClassification {
  // The subject of a reply or a forward is the quoted message's, and a quoted reference (`DSAR-1A2B3C4D`) is the
  // service's word: neither is what the author wrote.
  const written = message.subject ?? '';
  const subject = REPLY_SUBJECT.test(written) ? '' : withoutRequestReferences(written).trim();
  const authored = window(withoutRequestReferences(authoredText(message.text)));
  const own = [subject, authored].filter((part) => part !== '').join('\n');
  const reading = readLetter(authored, detector, { subject });
  const result = (reason: ClassificationReason, cues: readonly string[]): MessageClassification => ({ isRequest: reason === 'request', reason, reading, cues });
  if (own.trim() === '') return result('empty_message', []);

  const subjectText = normalize(written);
  const ownText = normalize(own);
  const bodyText = normalize(window(message.text));
  const unsupported = reading.triageReason === 'unsupported_language';
  const rights = reading.requestedRights.map((r) => r.type);
  const action = reading.suggestedType !== null;
  const ownData = anyOf(CUES.ownData, ownText);
  const legal = anyOf(CUES.legal, ownText);
  const law = lawCues(ownText);
  // An article that grants a right, cited: the strongest sign of a request. In a language intake does not read, a law's name counts too.
  const cited = law.rightCited || (unsupported && law.lawNamed);
  const agent = reading.requestorType === 'authorized_agent';
  const firstPerson = anyOf(CUES.firstPerson, ownText);
  // "No more catalogues, thank you": an opt-out needs no "my"; bulk mail, offers and notices are sorted out first.
  const optingOut = reading.requestType === 'opt_out' && reading.confidence >= OPT_OUT_ON_ITS_OWN;
  const asking = anyOf(CUES.asking, ownText);
  const asksForThemselves = firstPerson && asking;
  const unreadAsk = unsupported && anyOf(UNREAD.data, ownText) && anyOf(UNREAD.ask, ownText);
  const readsAsRequest = unsupported ? cited || unreadAsk : (action && (ownData || legal || firstPerson || agent || optingOut)) || (legal && asksForThemselves);
  const found = [
    ...rights.map((type) => `right:${type}`),
    ...(unsupported ? ['unsupported_language'] : []),
    ...(unreadAsk ? ['asking_unread_language'] : []),
    ...(ownData ? ['own_data'] : []),
    ...(legal ? ['legal'] : []),
    ...(cited ? ['citation'] : []),
    ...(asksForThemselves ? ['asking'] : firstPerson ? ['first_person'] : []),
    ...(agent ? ['agent'] : []),
  ];
  const sender = message.from ? addressOf(message.from) : undefined;

  if (
    (sender !== undefined && BOUNCE_SENDERS.some((s) => s.test(localPartOf(sender)))) ||
    headerSays(HEADER_CUES.bounce, message.headers) ||
    anyOf(CUES.bounce, subjectText) ||
    (!action && !cited && anyOf(CUES.bounce, bodyText))
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
  if (readsAsRequest) {
    // A developer cites the law for their users' sake; a complaint or a question that cites an article asks for the right.
    const against = NOT_A_REQUEST_GROUPS.filter(({ group, patterns }) => (group === 'feature_request' || !cited) && anyOf(patterns, ownText)).map(({ group }) => group);
    if (against.length > 0) return result('not_a_request', [...found, ...against]);
  }
  return result(readsAsRequest ? 'request' : 'not_a_request', found);
}

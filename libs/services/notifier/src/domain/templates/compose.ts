import type { Locale } from '../notification-kinds';
import { htmlLayout } from './layout';

/**
 * Built-in messages are written once as blocks (paragraphs, facts, quotes,
 * lists, conditions) and turned into both the plain-text and the HTML
 * template, so the two bodies of an email cannot drift apart. Block content is
 * Handlebars: `{{date dueAt}}`, `{{#if x}}…{{/if}}`.
 */
export interface MessageTemplates {
  subject: string;
  text: string;
  html: string;
}

export interface Fact {
  label: string;
  /** Handlebars, e.g. `{{date dueAt}}`. */
  value: string;
  /** Handlebars expression; the row shows only when it is truthy. */
  when?: string;
}

export type Block =
  | { type: 'p'; text: string }
  | { type: 'quote'; expression: string; title?: string }
  | { type: 'facts'; rows: Fact[] }
  | { type: 'list'; each: string; item: string; title?: string }
  | { type: 'link'; expression: string }
  | { type: 'code'; expression: string }
  | { type: 'if'; test: string; then: Block[]; otherwise: Block[] };

export const p = (text: string): Block => ({ type: 'p', text });
/** Text someone else wrote (an operator's note, the reasons for an extension), set apart from ours; nothing when it is empty. */
export const quote = (expression: string, title?: string): Block => ({ type: 'quote', expression, title });
export const facts = (...rows: Fact[]): Block => ({ type: 'facts', rows });
export const fact = (label: string, value: string, when?: string): Fact => ({ label, value, when });
/** One line per element of the array at `each`, under a title; nothing at all when it is empty. */
export const list = (each: string, item: string, title?: string): Block => ({ type: 'list', each, item, title });
/** A link on a line of its own: the URL in plain text, an anchor showing the URL in HTML; nothing when it is empty. */
export const link = (expression: string): Block => ({ type: 'link', expression });
/** A one-time code on a line of its own, in groups of four digits (`oneTimeCode`), set large in HTML; nothing when it is empty. */
export const code = (expression: string): Block => ({ type: 'code', expression });
export const when = (test: string, then: Block | Block[], otherwise: Block | Block[] = []): Block => ({
  type: 'if',
  test,
  then: ([] as Block[]).concat(then),
  otherwise: ([] as Block[]).concat(otherwise),
});

/** `Germany (DE)`, `DE` or `Germany`, whichever parts are known. */
export const JURISDICTION = '{{#if jurisdictionName}}{{jurisdictionName}}{{#if jurisdiction}} ({{jurisdiction}}){{/if}}{{else}}{{jurisdiction}}{{/if}}';
/** ` (Access to personal data)` after a reference, when the type is known. */
export const TYPE_SUFFIX = '{{#if requestType}} ({{requestType requestType}}){{/if}}';
/** A delivery by email: the person gets a link to the download page and, in a second message, its one-time code. */
export const BY_EMAIL = '(eq delivery.channel "email")';
/** The due date after an extension: the extension's own, else the request's. */
export const NEW_DUE = '(or extension.dueAt dueAt)';

/** What every message in one language shares. */
export interface Frame {
  lang: Locale;
  /** The salutation for a requester; uses recipientName when there is one. */
  greeting: string;
  signOff: readonly string[];
  /** Closing line of a requester's message: quote the reference. */
  subjectFooter: string;
  /** Closing line of an operator's message. */
  operatorFooter: string;
  /** Closing line of a message to the owner of a data system. */
  ownerFooter: string;
  /** Between a fact's label and its value in plain text; default ": ". */
  colon?: string;
}

/** A message to the requester: salutation, body, sign-off and the reference line. */
export function subjectMessage(frame: Frame, subject: string, body: Block[]): MessageTemplates {
  return message(frame, subject, [p(frame.greeting), ...body, p(frame.signOff.join('\n'))], frame.subjectFooter);
}

/** A message to operators: no salutation (and no names anywhere, see operator-context.ts). */
export function operatorMessage(frame: Frame, subject: string, body: Block[]): MessageTemplates {
  return message(frame, subject, body, frame.operatorFooter);
}

/** A message to the owner of a data system about its task: as an operator's, with a footer of its own. */
export function ownerMessage(frame: Frame, subject: string, body: Block[]): MessageTemplates {
  return message(frame, subject, body, frame.ownerFooter);
}

/** The system a task is for: `Customer CRM (crm)`, or its key alone. */
export const SYSTEM = '{{#if task.displayName}}{{task.displayName}} ({{task.systemKey}}){{else}}{{task.systemKey}}{{/if}}';
/** The system's name in a subject line. */
export const SYSTEM_NAME = '{{or task.displayName task.systemKey}}';
/**
 * The dsar CLI's lines that claim a task and answer it (docs/cli.md#data-systems-and-tasks), the same in every
 * language. The claim prints the identities and the task's token, which the answer reads from DSAR_TASK_TOKEN; neither
 * is ever in a message.
 */
export const CLAIM_COMMAND = 'dsar tasks claim {{task.id}} --worker your-name';
export const ANSWER_COMMAND = 'dsar tasks answer {{task.id}} --outcome complete';

/**
 * Where an operator decides a request marked as a duplicate (docs/identity.md#duplicates), the same in every language:
 * the body names `resolution` (`confirmed` or `separated`) and the `reason`.
 */
export const DUPLICATE_RESOLUTION = 'POST /api/v1/requests/{{requestId}}/duplicate-resolution';

function message(frame: Frame, subject: string, body: Block[], footer: string): MessageTemplates {
  return {
    subject,
    text: `${textOf(body, frame.colon ?? ': ')}\n\n--\n${footer}\n`,
    html: htmlLayout(frame.lang, subject, htmlOf(body), footer),
  };
}

// Blank lines left by false conditions are collapsed after rendering (render.ts), so blocks join generously here.
function textOf(blocks: Block[], colon: string): string {
  return blocks.map((b) => textBlock(b, colon)).join('\n\n');
}

function textBlock(block: Block, colon: string): string {
  switch (block.type) {
    case 'p':
      return block.text;
    case 'quote':
      return guard(block.expression, `${block.title ? `${block.title}\n` : ''}{{${block.expression}}}`);
    case 'facts':
      return block.rows.map((r) => guard(r.when, `${r.label}${colon}${r.value}\n`)).join('');
    case 'list':
      return guard(`(count ${block.each})`, `${block.title ? `${block.title}\n` : ''}{{#each ${block.each}}}- ${block.item}\n{{/each}}`);
    case 'link':
      return guard(block.expression, `{{${block.expression}}}`);
    case 'code':
      return guard(block.expression, `{{oneTimeCode ${block.expression}}}`);
    case 'if':
      return `{{#if ${block.test}}}${textOf(block.then, colon)}{{else}}${textOf(block.otherwise, colon)}{{/if}}`;
  }
}

const P = 'margin:0 0 16px';
const QUOTE = 'margin:0 0 16px;padding:8px 16px;border-left:4px solid #c8ccd0;background:#f6f7f8;white-space:pre-line';
const LABEL = 'padding:2px 16px 2px 0;color:#555c63;vertical-align:top';
const VALUE = 'padding:2px 0;vertical-align:top;font-weight:bold';
// A long link breaks anywhere rather than widening the message past a phone's screen.
const LINK = 'margin:0 0 16px;word-break:break-all';
const CODE = "margin:0 0 16px;font-family:Consolas,Menlo,'Courier New',monospace;font-size:26px;font-weight:bold;letter-spacing:2px";

function htmlOf(blocks: Block[]): string {
  return blocks.map(htmlBlock).join('\n');
}

function htmlBlock(block: Block): string {
  switch (block.type) {
    case 'p':
      return `<p style="${P}">${block.text.replace(/\n/g, '<br>')}</p>`;
    case 'quote':
      return guard(block.expression, `${htmlTitle(block.title)}<blockquote style="${QUOTE}">{{${block.expression}}}</blockquote>`);
    case 'facts': {
      const rows = block.rows.map((r) => guard(r.when, `<tr><td style="${LABEL}">${r.label}</td><td style="${VALUE}">${r.value}</td></tr>`));
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="${P};border-collapse:collapse">${rows.join('')}</table>`;
    }
    case 'list':
      return guard(`(count ${block.each})`, `${htmlTitle(block.title)}<ul style="${P};padding-left:20px">{{#each ${block.each}}}<li>${block.item}</li>{{/each}}</ul>`);
    case 'link':
      return guard(block.expression, `<p style="${LINK}"><a href="{{${block.expression}}}">{{${block.expression}}}</a></p>`);
    case 'code':
      return guard(block.expression, `<p style="${CODE}">{{oneTimeCode ${block.expression}}}</p>`);
    case 'if':
      return `{{#if ${block.test}}}${htmlOf(block.then)}{{else}}${htmlOf(block.otherwise)}{{/if}}`;
  }
}

function htmlTitle(title: string | undefined): string {
  return title ? `<p style="margin:0 0 4px">${title}</p>` : '';
}

function guard(test: string | undefined, content: string): string {
  return test ? `{{#if ${test}}}${content}{{/if}}` : content;
}

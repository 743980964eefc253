import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options } from 'pino-http';
import { domainEventCatalog, IdentityHeaders, IdentitySignatureHeaders } from '@dsar/contracts';

/**
 * What is never logged (docs/security.md#what-is-never-logged). Three layers
 * keep it out of every line, whoever logs:
 *
 * 1. `formatters.log` walks every logged object: keys that may hold personal
 *    data or secrets lose their value, errors are reduced to `errorForLog`;
 * 2. serializers: `req` keeps the method, the path and the query's parameter
 *    names, `res` the status, `err` goes through `errorForLog`, `msg` through
 *    `scrubText`;
 * 3. pino's redaction of the fixed paths below.
 *
 * Nothing a client sends is logged unbounded: every text is cut to
 * MAX_LOGGED_TEXT before it is scrubbed, arrays and objects to
 * MAX_LOGGED_ITEMS entries.
 */
export const REDACTED = '[REDACTED]';

/** Keys whose value is never logged, at any depth (compared in lower case). */
export const SENSITIVE_KEYS: ReadonlySet<string> = new Set(
  [
    // secrets and credentials
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'x-api-key',
    'x-delivery-token',
    'token',
    'accesstoken',
    'refreshtoken',
    'idtoken',
    'apikey',
    'apikeys',
    'password',
    'secret',
    'signingkey',
    'signingkeypem',
    'internal_auth_key',
    'internalauthkey',
    // identity headers the gateway hands to internal services, and their signature
    ...Object.values(IdentityHeaders),
    ...Object.values(IdentitySignatureHeaders),
    // personal data of the request and its requestor
    'email',
    'name',
    'contact',
    'rawtext',
    'phone',
    'address',
    'requestor',
    'message',
    'rationale',
    'relation',
    'note',
    'notes',
    'evidenceartifacts',
    // request bodies and event payloads
    'body',
    'rawbody',
    'payload',
    'data',
    // what database errors carry beside their message: the statement's values
    'parameters',
    'params',
    'driverError',
    'where',
    'detail',
    'hint',
    'internalquery',
    // every event field the contracts mark as personal data
    ...personalDataFields(),
  ].map((k) => k.toLowerCase()),
);

/** The top-level event fields the event catalog marks as personal data. */
export function personalDataFields(): string[] {
  return [
    ...new Set(
      domainEventCatalog()
        .types()
        .flatMap((d) => d.personalData ?? []),
    ),
  ];
}

/** Paths pino redacts on top of the walk (fixed places, kept as a second net). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-delivery-token"]',
  'req.headers["x-api-key"]',
  ...[...Object.values(IdentityHeaders), ...Object.values(IdentitySignatureHeaders)].map((h) => `req.headers["${h}"]`),
  'res.headers["set-cookie"]',
  '*.email',
  '*.name',
  '*.contact',
  '*.rawText',
  '*.phone',
  '*.address',
  '*.token',
  '*.password',
  '*.secret',
  '*.requestor',
  '*.parameters',
  '*.driverError',
  '*.where',
  'body',
  'req.body',
];

/*
 * Every pattern below sees outside input (paths, messages that quote values) before anyone is authenticated, so each
 * runs in time linear in its input: a match can only start at a fixed word or at the start of a run (the e-mail
 * pattern's lookbehind), and no two alternatives of a repetition can match the same character, so a failed start
 * gives up after one pass. An unclosed quote or parenthesis is taken as running to the end of the text, so a value
 * cut short by cutForLog is still redacted.
 */
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const DEV_TOKEN = /\bdsar_[A-Za-z0-9_-]{8,}/g;
/** PostgreSQL messages that quote a value: `Key (col)=(value)`, `...: "value"`, `value "x" is out of range`, `Token "x" is invalid`. */
const PG_KEY_VALUE = /(Key \((?:[^()]|\([^()]*\))*\))=\((?:[^()]|\([^()]*\))*(?:\)|$)/g;
const PG_QUOTED_AFTER_COLON = /:\s*"(?:[^"\\]|\\[\s\S])*(?:"|$)/g;
const PG_VALUE_WORD = /\b(value|Token|string|input)\s+"(?:[^"\\]|\\[\s\S])*(?:"|$)/gi;
const SQL_STRING = /(?:E|U&)?'(?:[^']|'')*(?:'|$)/g;

/**
 * The most of one text a log line keeps: a message, an error's message, any string field, the path of a request and
 * the parameter names of its query. A longer text is cut (cutForLog) before it is scrubbed, so that neither the line
 * nor the work of scrubbing it grows with what a client sends.
 */
export const MAX_LOGGED_TEXT = 2048;
/** The most items of an array, and keys of an object, a log line keeps; the rest are counted, not listed. */
export const MAX_LOGGED_ITEMS = 100;
/** Characters of an address, a token or a quoted word: a cut inside a run of them drops the run's kept part too. */
const WORD_CHARACTER = /[\w.%+@~=-]/;

/**
 * `text` as long as a log line may hold it: at most MAX_LOGGED_TEXT characters, and when longer, cut there with a
 * marker saying how much was left out. A cut never leaves half an e-mail address or token behind, whose other half
 * would no longer be recognized by scrubText: the cut-off run of word characters goes with it.
 */
export function cutForLog(text: string, max = MAX_LOGGED_TEXT): string {
  if (text.length <= max) return text;
  let end = max;
  while (end > 0 && WORD_CHARACTER.test(text[end - 1]) && WORD_CHARACTER.test(text[end])) end--;
  return `${text.slice(0, end)}…[${text.length - end} characters cut]`;
}

/**
 * A text as it may be logged: email addresses, bearer credentials, the
 * development token and the values PostgreSQL quotes in its messages are
 * replaced by [REDACTED].
 */
export function scrubText(text: string): string {
  return text
    .replace(PG_KEY_VALUE, `$1=(${REDACTED})`)
    .replace(PG_QUOTED_AFTER_COLON, `: "${REDACTED}"`)
    .replace(PG_VALUE_WORD, `$1 "${REDACTED}"`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(DEV_TOKEN, REDACTED)
    .replace(EMAIL, REDACTED);
}

/** A text from anywhere as a log line holds it: cut to MAX_LOGGED_TEXT, then scrubbed. */
export function textForLog(text: string): string {
  return scrubText(cutForLog(text));
}

/** An SQL statement as it may be logged: its string literals are replaced (its values travel as parameters, which are never logged). */
export function scrubSql(sql: string): string {
  return scrubText(cutForLog(sql).replace(SQL_STRING, `'${REDACTED}'`));
}

/** The objects errorForLog made: already safe, the walk passes them as they are. */
const REDUCED = new WeakSet<object>();

/** Metadata of database errors that names things, never values. */
const SAFE_ERROR_FIELDS = ['code', 'errno', 'status', 'statusCode', 'type', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'severity', 'file', 'line'];

/**
 * An error as it may be logged: its class, its message and stack with
 * quoted values scrubbed, and only the fields of a database error that name
 * things (SQLSTATE code, constraint, table, column). Query parameters, the
 * driver error, `where`, `detail` and `hint` are left out; the query text is
 * kept with its string literals replaced.
 */
export function errorForLog(error: unknown, depth = 0): Record<string, unknown> | string {
  if (error && typeof error === 'object' && REDUCED.has(error)) return error as Record<string, unknown>;
  if (!(error instanceof Error)) {
    if (error && typeof error === 'object') return redactDeep(error, depth) as Record<string, unknown>;
    return textForLog(String(error));
  }
  const source = error as unknown as Record<string, unknown>;
  const driver = (source['driverError'] && typeof source['driverError'] === 'object' ? source['driverError'] : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name, message: textForLog(error.message ?? '') };
  for (const field of SAFE_ERROR_FIELDS) {
    const value = source[field] ?? driver[field];
    if (value !== undefined && value !== null && (typeof value === 'string' || typeof value === 'number')) out[field] = typeof value === 'string' ? textForLog(value) : value;
  }
  if (typeof source['query'] === 'string') out['query'] = scrubSql(source['query']);
  if (typeof error.stack === 'string') {
    // A message may hold line breaks and lines that look like frames: those are cut and scrubbed like any text.
    const frames = error.stack.split('\n').filter((l) => /^\s+at /.test(l));
    out['stack'] = [`${error.name}: ${out['message']}`, ...frames.slice(0, MAX_STACK_FRAMES).map(textForLog)].join('\n');
  }
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && depth < 3) out['cause'] = errorForLog(cause, depth + 1);
  // pino-http runs pino's standard error serializer first, which takes `type` from the constructor's name.
  const typeName = String(out['type']);
  const constructor = function () {
    return undefined;
  };
  Object.defineProperty(constructor, 'name', { value: typeName });
  Object.defineProperty(out, 'constructor', { value: constructor, enumerable: false });
  REDUCED.add(out);
  return out;
}

const MAX_DEPTH = 8;
/** Frames of a logged stack: V8 records 10 unless told otherwise. */
const MAX_STACK_FRAMES = 20;
/** The most of an object's key a log line keeps. */
const MAX_LOGGED_KEY = 128;

/**
 * A copy of a logged value with every sensitive key's value replaced, errors reduced and texts cut and scrubbed;
 * arrays and objects keep their first MAX_LOGGED_ITEMS entries.
 */
export function redactDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return textForLog(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error || REDUCED.has(value)) return errorForLog(value, depth);
  if (depth >= MAX_DEPTH) return '[Object]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_LOGGED_ITEMS).map((v) => redactDeep(v, depth + 1));
    return value.length > MAX_LOGGED_ITEMS ? [...kept, `…[${value.length - MAX_LOGGED_ITEMS} items cut]`] : kept;
  }
  if (value instanceof Date) return value;
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length}]`;
  // HTTP messages and streams (pino-http's `res`) go to their own serializers, which keep only safe fields.
  if (value instanceof EventEmitter) return value;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const k of keys.slice(0, MAX_LOGGED_ITEMS)) {
    const v = (value as Record<string, unknown>)[k];
    // A key can be data too (an object keyed by address): it is cut and scrubbed like a value.
    out[scrubText(cutForLog(k, MAX_LOGGED_KEY))] = SENSITIVE_KEYS.has(k.toLowerCase()) && v !== undefined ? REDACTED : redactDeep(v, depth + 1);
  }
  if (keys.length > MAX_LOGGED_ITEMS) out['…'] = `${keys.length - MAX_LOGGED_ITEMS} keys cut`;
  return out;
}

/** Query parameters whose values name no one (paging, formats, enumerations): kept in logs. */
const SAFE_QUERY_PARAMETERS = new Set(['limit', 'format', 'status', 'sort', 'order']);

/**
 * `url` without the values of its query string, but those of SAFE_QUERY_PARAMETERS (filters may hold searched-for
 * personal data). The path and the query are each cut to MAX_LOGGED_TEXT before anything else is done with them,
 * and so is the list of parameter names.
 */
export function urlForLog(url: string | undefined): string | undefined {
  if (!url) return url;
  const q = url.indexOf('?');
  if (q < 0) return textForLog(url);
  const query = url.slice(q + 1);
  const names = query
    .slice(0, MAX_LOGGED_TEXT)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return SAFE_QUERY_PARAMETERS.has(name) && /^[\w.,-]{0,64}$/.test(pair.slice(name.length + 1)) ? pair : `${name}=${REDACTED}`;
    });
  const cut = query.length > MAX_LOGGED_TEXT ? `…[${query.length - MAX_LOGGED_TEXT} characters cut]` : '';
  return `${textForLog(url.slice(0, q))}?${textForLog(names.join('&'))}${cut}`;
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** Reuses a caller's request id when it looks like one, otherwise makes one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

/**
 * The id of an incoming request, chosen once (`requestIdOf`): kept on the request, where pino-http and the problem
 * filter read it, and answered in `x-request-id`. The host's request context chooses it first; pino-http only when
 * no context middleware ran (a test's bare Nest app).
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const holder = req as IncomingMessage & { id?: unknown };
  if (typeof holder.id === 'string') return holder.id;
  const id = requestIdOf(req);
  holder.id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * The pino settings of every service. `destination` (tests, tools) receives
 * the lines instead of stdout.
 */
export function loggerParams(service: string, level: string, destination?: DestinationStream): Params {
  const options: Options = {
    level,
    name: service,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    genReqId: assignRequestId,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
    formatters: { log: (object: Record<string, unknown>) => redactDeep(object) as Record<string, unknown> },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: urlForLog(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // The walk of formatters.log has already reduced errors; these catch what bypasses it.
      err: (err: unknown) => (err instanceof Error ? errorForLog(err) : err),
      error: (err: unknown) => (err instanceof Error ? errorForLog(err) : err),
      msg: (msg: unknown) => (typeof msg === 'string' ? textForLog(msg) : msg),
    },
  };
  return { pinoHttp: destination ? [options, destination] : options };
}

import { Writable } from 'node:stream';
import pino from 'pino';
import type { Options } from 'pino-http';
import { QueryFailedError } from 'typeorm';
import { domainEventCatalog } from '@dsar/contracts';
import { expectLinearGrowth } from '@dsar/platform/test-measure';
import { cutForLog, errorForLog, loggerParams, MAX_LOGGED_ITEMS, MAX_LOGGED_TEXT, personalDataFields, REDACTED, redactDeep, scrubSql, scrubText, textForLog, urlForLog } from './logging';

/**
 * docs/security.md#what-is-never-logged: whatever a service hands the logger,
 * these values never reach a log line.
 */
const EMAIL = 'marker.jane@example.org';
const NAME = 'Markername Doe';
const CONTACT = '+49 30 1234 MARKERCONTACT';
const RAW_TEXT = 'MARKER-INTAKE please send my data';
const TOKEN = 'tok_MARKERTOKEN_0123456789abcdef';
const MARKERS = [EMAIL, NAME, CONTACT, RAW_TEXT, TOKEN, 'MARKERCONTACT', 'MARKER-INTAKE', 'MARKERTOKEN', 'marker.jane'];

/** A logger built exactly as the services build theirs, writing into `lines`. */
function capture(): { log: pino.Logger; text: () => string; lines: () => Array<Record<string, any>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const [options] = loggerParams('test', 'trace', stream).pinoHttp as [Options, unknown];
  const log = pino(options as pino.LoggerOptions, stream);
  return {
    log,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
  };
}

function expectNoMarker(text: string): void {
  for (const m of MARKERS) expect(text).not.toContain(m);
}

/** What TypeORM raises when PostgreSQL refuses an INSERT of the request's personal data. */
function uniqueViolation(): QueryFailedError {
  const driverError = Object.assign(new Error('duplicate key value violates unique constraint "requests_email_key"'), {
    code: '23505',
    detail: `Key (email)=(${EMAIL}) already exists.`,
    constraint: 'requests_email_key',
    table: 'requests',
    schema: 'lifecycle_clock',
    where: `SQL statement "INSERT INTO requests VALUES ('${NAME}')"`,
    routine: '_bt_check_unique',
  });
  return new QueryFailedError(`INSERT INTO "requests"("email", "note") VALUES ($1, '${RAW_TEXT}')`, [EMAIL, NAME, CONTACT, RAW_TEXT], driverError);
}

describe('log hygiene of the pino configuration', () => {
  it('logs a database error with its code, constraint and table, never its parameters, detail, where or literals', () => {
    const { log, text, lines } = capture();
    log.error({ err: uniqueViolation(), requestId: 'r-1' }, 'request failed');
    log.error(uniqueViolation());
    log.error({ error: uniqueViolation() }, 'nested');
    log.warn({ context: { failure: uniqueViolation() } }, 'deeper');
    expectNoMarker(text());
    const [first] = lines();
    expect(first.err).toMatchObject({ type: 'QueryFailedError', code: '23505', constraint: 'requests_email_key', table: 'requests' });
    expect(first.err.query).toContain('INSERT INTO "requests"');
    expect(first.err.stack).toContain('at ');
    expect(first.err).not.toHaveProperty('parameters');
    expect(first.err).not.toHaveProperty('driverError');
    expect(first.err).not.toHaveProperty('where');
    expect(first.err).not.toHaveProperty('detail');
    expect(first.requestId).toBe('r-1');
  });

  it('scrubs the values PostgreSQL quotes in its messages, also when the message is the log line', () => {
    const { log, text } = capture();
    log.error(new Error(`invalid input syntax for type uuid: "${EMAIL}"`));
    log.error({ err: new Error(`value "${NAME}" is out of range for type integer`) });
    log.warn({ error: `Key (contact)=(${CONTACT}) already exists.` }, 'event handler failed; retrying');
    log.info(`deadline scan failed: invalid input value for enum status: "${RAW_TEXT}"`);
    expectNoMarker(text());
  });

  it('never logs request bodies, credentials, identity headers or personal fields, at any depth', () => {
    const { log, text } = capture();
    log.info({
      body: { requestor: { name: NAME, email: EMAIL } },
      request: {
        headers: {
          authorization: `Bearer ${TOKEN}`,
          cookie: `session=${TOKEN}`,
          'x-dsar-principal': `key:${TOKEN}`,
          'x-dsar-tenant-id': 'MARKERTOKEN-tenant',
          'x-dsar-identity-signature': `v1=${TOKEN}`,
          'x-api-key': TOKEN,
        },
        rawBody: Buffer.from(RAW_TEXT),
      },
      intakeSource: { rawText: RAW_TEXT, contact: CONTACT },
      list: [{ email: EMAIL }, { name: NAME }],
      message: `a clarification: ${RAW_TEXT}`,
      token: TOKEN,
    });
    log.info(`calling with Bearer ${TOKEN} for ${EMAIL}`);
    expectNoMarker(text());
    expect(text()).toContain(REDACTED);
  });

  it('never logs an event payload or a field the event catalog marks as personal data', () => {
    const fields = personalDataFields();
    expect(fields.length).toBeGreaterThan(0);
    const { log, text } = capture();
    for (const definition of domainEventCatalog().types()) {
      for (const field of definition.personalData ?? []) {
        log.info({ event: { type: definition.type, data: { [field]: RAW_TEXT } } }, 'event');
        log.info({ eventType: definition.type, [field]: RAW_TEXT }, 'field');
        log.info({ outbox: { payload: { [field]: RAW_TEXT } } }, 'payload');
      }
    }
    expectNoMarker(text());
  });

  it('keeps the method, path and query parameter names of a request, not the query values', () => {
    expect(urlForLog(`/api/v1/requests?q=${encodeURIComponent(EMAIL)}&status=received`)).toBe(`/api/v1/requests?q=${REDACTED}&status=received`);
    expect(urlForLog('/api/v1/requests/1')).toBe('/api/v1/requests/1');
    expect(urlForLog(`/api/v1/requests?status=${EMAIL}`)).toBe(`/api/v1/requests?status=${REDACTED}`);
  });

  it('helpers: scrubText, scrubSql and errorForLog of non-errors', () => {
    expect(scrubText(`Key (email)=(${EMAIL}) already exists.`)).toBe(`Key (email)=(${REDACTED}) already exists.`);
    expect(scrubText('duplicate key value violates unique constraint "requests_pkey"')).toBe('duplicate key value violates unique constraint "requests_pkey"');
    expect(scrubSql(`SELECT 1 WHERE name = '${NAME}' AND x = $1`)).toBe(`SELECT 1 WHERE name = '${REDACTED}' AND x = $1`);
    expect(JSON.stringify(errorForLog({ parameters: [EMAIL], code: 'X' }))).not.toContain(EMAIL);
    expect(errorForLog(`thrown string with ${EMAIL}`)).toBe(`thrown string with ${REDACTED}`);
  });
});

/** Texts built to make a backtracking pattern rescan its input from every position. */
const HOSTILE_TEXTS: Record<string, (length: number) => string> = {
  'a run of e-mail characters': (n) => 'a'.repeat(n),
  'a run of dotted words': (n) => 'a.'.repeat(n / 2),
  'at signs': (n) => '@'.repeat(n),
  'percent-encoded characters': (n) => '%41'.repeat(n / 3),
  'half addresses': (n) => 'a@a.'.repeat(n / 4),
  'an address whose domain never ends': (n) => `a@${'a.'.repeat(n / 2)}`,
  'unclosed key lists': (n) => 'Key ('.repeat(n / 5),
  'unclosed key values': (n) => 'Key (a)=(('.repeat(n / 10),
  'unclosed quotes after colons': (n) => `: "${'\\":'.repeat(n / 3)}`,
  'quoted values': (n) => 'value "'.repeat(n / 7),
  'SQL quotes': (n) => "x'".repeat(n / 2),
  'bearer words': (n) => 'Bearer '.repeat(n / 7),
  'a bearer word and white space': (n) => `Bearer${' '.repeat(n)}`,
  'development key prefixes': (n) => '-dsar_'.repeat(n / 6),
};

describe('the cost of scrubbing what a client sends', () => {
  // A pattern that backtracks takes seconds on 64 KB (quadratic: 16 times as long for 4 times the text); a linear one
  // about a millisecond.
  it.each(Object.entries(HOSTILE_TEXTS))('grows linearly with the text: %s', (_name, make) => {
    expectLinearGrowth(make, (text) => scrubText(text) + scrubSql(text), 16_384);
  });

  it('cuts a path, a message and every string field before scrubbing it, and says so', () => {
    const { log, lines } = capture();
    const hostile = 'a.'.repeat(50_000);
    log.info({ path: `/api/v1/${hostile}`, list: Array.from({ length: 1_000 }, () => hostile), [hostile]: 1 }, hostile);
    const [line] = lines();
    expect(JSON.stringify(line).length).toBeLessThan(2 * (MAX_LOGGED_ITEMS + 4) * (MAX_LOGGED_TEXT + 64));
    expect(line.msg).toMatch(/…\[\d+ characters cut\]$/);
    expect(line.msg.length).toBeLessThanOrEqual(MAX_LOGGED_TEXT + 32);
    expect(line.path).toBe('/api/v1/…[100000 characters cut]');
    expect(line.list).toHaveLength(MAX_LOGGED_ITEMS + 1);
    expect(line.list.at(-1)).toBe('…[900 items cut]');
    expect(urlForLog(`/api/v1/requests/${'a'.repeat(20_000)}?${'q=1&'.repeat(5_000)}`)!.length).toBeLessThan(3 * MAX_LOGGED_TEXT);
  });

  it('never leaves half of an address or a quoted value where the cut falls', () => {
    for (let shift = 0; shift < 40; shift++) {
      const text = `${'x'.repeat(MAX_LOGGED_TEXT - 20 + shift)} ${EMAIL} and: "${RAW_TEXT}" ${TOKEN}`;
      const logged = textForLog(text);
      for (const part of ['marker', 'jane', 'example', 'MARKER', 'tok_']) expect({ shift, leaked: logged.includes(part) }).toEqual({ shift, leaked: false });
    }
    expect(cutForLog('short')).toBe('short');
    expect(textForLog(`invalid input syntax for type uuid: "${'z'.repeat(MAX_LOGGED_TEXT)}`)).toBe(`invalid input syntax for type uuid: "${REDACTED}"`);
  });

  it("scrubs a stack's lines and the keys of logged objects like any text", () => {
    const error = new Error(`failed\n    at ${EMAIL}`);
    expect(JSON.stringify(errorForLog(error))).not.toContain(EMAIL);
    expect(JSON.stringify(redactDeep({ [EMAIL]: 1 }))).not.toContain(EMAIL);
  });
});

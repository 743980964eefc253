import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { JsonObject } from '../body';
import { ENDPOINTS } from '../endpoints';
import { usage } from '../errors';
import { type Context, EXAMPLE_IDS, examples, type FieldFlag, intArg, type Kit, listArg } from '../kit';
import { renderRows, type View } from '../output';

const QUEUE_COLUMNS = ['id', 'status', 'requestType', 'triage', 'jurisdiction', 'channel', 'receivedAt', 'dueAt', 'overdue', 'duplicateOf'];
const QUEUE_VIEW: View = { list: 'items', columns: { items: QUEUE_COLUMNS } };
/** The queue's largest page: `--all` reads in pages of this size. */
const MAX_PAGE = 200;

/** The intake payload from flags (POST /requests and /requests/capture). */
const INTAKE_FLAGS: readonly FieldFlag[] = [
  { flags: '--jurisdiction <code>', description: 'the jurisdiction whose law applies, e.g. DE, FR, US-CA (`dsar policies list` shows them)', field: 'jurisdiction', required: true },
  { flags: '--channel <channel>', description: 'the intake channel, e.g. email, web_form, chat, phone, postal_mail', field: 'intakeSource.channel', required: true },
  { flags: '--text <rawText>', description: "the request in the requester's own words", field: 'intakeSource.rawText', required: true },
  { flags: '--received-at <time>', description: 'when the channel received it (ISO 8601, the legal clock counts from it); default now', field: 'intakeSource.receivedAt' },
  { flags: '--contact <contact>', description: 'how to reach the requester on that channel', field: 'intakeSource.contact' },
  { flags: '--type <requestType>', description: 'access, deletion, rectification, portability, restriction, objection, opt_out; inferred from the text when left out', field: 'requestType' },
  { flags: '--requestor-type <type>', description: 'subject (default), authorized_agent, parent_or_guardian, legal_representative, other', field: 'requestor.type' },
  { flags: '--requestor-name <name>', description: "the requestor's name", field: 'requestor.name' },
  { flags: '--requestor-email <email>', description: "the requestor's email address", field: 'requestor.email' },
  { flags: '--requestor-relation <relation>', description: 'how the requestor relates to the data subject', field: 'requestor.relation' },
  { flags: '--clock-mode <mode>', description: "receipt or active (where the pack allows it); default the pack's", field: 'clockMode' },
  { flags: '--recorded-at <time>', description: "when the service recorded the request (the body's top-level receivedAt); default now", field: 'receivedAt' },
];

/** Defaults of the intake flags: the channel received it now; a requestor named without a type is the subject. */
function completeIntake(body: JsonObject): void {
  const source = body.intakeSource as JsonObject | undefined;
  if (source && source.receivedAt === undefined) source.receivedAt = new Date().toISOString();
  const requestor = body.requestor as JsonObject | undefined;
  if (requestor && requestor.type === undefined) requestor.type = 'subject';
}

/** The contracts' REQUEST_TYPES, INTAKE_CHANNELS and the jurisdictions intake takes (queue-filters.spec.ts keeps them equal); the CLI imports no runtime code of the contracts. */
export const QUEUE_REQUEST_TYPES = ['access', 'deletion', 'rectification', 'portability', 'restriction', 'objection', 'opt_out'] as const;
export const QUEUE_CHANNELS = ['web_form', 'email', 'chat', 'phone', 'postal_mail', 'in_person', 'api', 'other'] as const;
// prettier-ignore
export const QUEUE_JURISDICTIONS = [
  'AT', 'AU', 'BE', 'BG', 'BR', 'CA', 'CA-QC', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'EU', 'FI', 'FR', 'GB', 'GB-ENG', 'GB-NIR', 'GB-SCT', 'GB-WLS', 'GR', 'HR', 'HU',
  'IE', 'IN', 'IT', 'JP', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SG', 'SI', 'SK', 'US-CA', 'US-CO', 'US-CT', 'US-OR', 'US-TX', 'US-UT', 'US-VA', 'ZA',
] as const;

/**
 * A comma-separated list of some of `values` (also given several times), each checked before anything is sent. The
 * values are the flag's completion choices; commander's own `choices` would refuse a list.
 */
export function listOf(values: readonly string[], normalize: (item: string) => string = (item) => item) {
  return (value: string, previous: unknown): string[] => {
    const items = listArg(value, undefined).map(normalize);
    const unknown = items.filter((i) => !values.includes(i));
    if (items.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`${unknown.length > 0 ? `${unknown.join(', ')}: ` : ''}must be one or more (comma-separated) of ${values.join(', ')}`);
    return [...(Array.isArray(previous) ? (previous as string[]) : []), ...items];
  };
}

/** An instant for a receipt filter: as given, or a date alone (`2026-03-01`) as its start in UTC. The server checks the rest. */
export function instantArg(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value.trim()) ? `${value.trim()}T00:00:00Z` : value.trim();
}

/** The contracts' REQUEST_STATUSES (cli.spec.ts keeps them equal): what `requests list --status` completes. */
export const QUEUE_STATUSES = ['received', 'in_progress', 'clarification_pending', 'verification_pending', 'fulfilled', 'refused', 'closed'] as const;

const QUEUE_FILTERS: readonly FieldFlag[] = [
  {
    flags: '--status <list>',
    description: `only these statuses (comma-separated): ${QUEUE_STATUSES.join(', ')}`,
    field: 'status',
    parse: listArg,
    choices: QUEUE_STATUSES,
  },
  { flags: '--at-risk-days <n>', description: 'only open requests due within n days (overdue ones included; 0: only overdue)', field: 'atRiskDays', parse: intArg(0) },
  {
    flags: '--type <list>',
    description: `only these request types (comma-separated): ${QUEUE_REQUEST_TYPES.join(', ')}`,
    field: 'requestType',
    parse: listOf(QUEUE_REQUEST_TYPES),
    choices: QUEUE_REQUEST_TYPES,
  },
  {
    flags: '--jurisdiction <list>',
    description: 'only these jurisdictions (comma-separated codes, any case), e.g. DE,US-CA (`dsar policies list` shows them)',
    field: 'jurisdiction',
    parse: listOf(QUEUE_JURISDICTIONS, (code) => code.toUpperCase()),
    choices: QUEUE_JURISDICTIONS,
  },
  { flags: '--channel <list>', description: `only these intake channels (comma-separated): ${QUEUE_CHANNELS.join(', ')}`, field: 'channel', parse: listOf(QUEUE_CHANNELS), choices: QUEUE_CHANNELS },
  { flags: '--received-from <time>', description: 'only requests received at or after this instant (ISO 8601; a date alone is its start in UTC)', field: 'receivedFrom', parse: instantArg },
  { flags: '--received-to <time>', description: 'only requests received before this instant (not included; a date alone is its start in UTC)', field: 'receivedTo', parse: instantArg },
  { flags: '--reference <ref>', description: 'only the request with this short reference, e.g. DSAR-1A2B3C4D (as operator messages show it)', field: 'reference' },
  {
    flags: '--waiting-on-systems <bool>',
    description: 'true: only requests with a required data-system task still open; false: only those without',
    field: 'waitingOnSystems',
    choices: ['true', 'false'],
  },
  // A switch rather than `<bool>`: the triage queue is what an operator asks for (`--no-triage` for the requests with a type).
  { flags: '--triage', description: 'only requests in triage: no request type yet, for an operator to name with `dsar requests correct`', field: 'triage' },
  { flags: '--no-triage', description: 'only requests with a request type', field: 'triage' },
  // A switch like --triage: the requests intake marked as a duplicate, to confirm or separate with `dsar requests duplicate`.
  { flags: '--duplicate', description: 'only requests marked as a duplicate of another (waiting for `dsar requests duplicate`, or confirmed)', field: 'duplicate' },
  { flags: '--no-duplicate', description: 'only requests not marked as a duplicate (never marked, or separated)', field: 'duplicate' },
  { flags: '--sort-by <field>', description: 'receivedAt (default), dueAt, status or updatedAt', field: 'sortBy' },
  { flags: '--sort-order <order>', description: 'asc or desc (default)', field: 'sortOrder' },
];

/** The contracts' IDENTITY_KINDS (cli.spec.ts keeps them equal), each with the flag of `requests find` that searches it. */
export const IDENTITY_FLAGS = [
  { kind: 'email', flags: '--email <address>', description: "the person's email address, in any case" },
  { kind: 'phone', flags: '--phone <number>', description: "the person's phone number: international (+49 30 1234567), or national in the country of a single --jurisdiction" },
  { kind: 'account', flags: '--account <id>', description: "the person's account id as given in account_id evidence, case included" },
] as const;

/**
 * The identity `requests find` searches: the one of --email, --phone or --account given, as the query's `identity`
 * and `identityKind`. The value goes as typed; the server normalises it (docs/identity.md).
 */
export function identityQuery(opts: Record<string, unknown>): { identity: string; identityKind: string } {
  const given = IDENTITY_FLAGS.filter((f) => opts[f.kind] !== undefined);
  const name = (f: (typeof IDENTITY_FLAGS)[number]) => f.flags.split(' ')[0];
  if (given.length !== 1) throw usage(`give exactly one of --email, --phone or --account${given.length > 1 ? ` (not ${given.map(name).join(' and ')})` : ''}`);
  const identity = String(opts[given[0].kind]);
  if (identity.trim() === '') throw usage(`${name(given[0])} is empty`);
  return { identity, identityKind: given[0].kind };
}

type Query = Record<string, string | number | undefined>;
interface QueuePage extends JsonObject {
  items: JsonObject[];
  total: number;
  /** False when `total` is an estimate (a large at-risk result); absent from older servers, whose totals are exact. */
  totalExact?: boolean;
  limit: number;
  offset: number;
}

/** Reads the queue page by page from `offset` until `total` is reached, or a page comes back short (`total` may be an estimate). */
async function allPages(ctx: Context, query: Query): Promise<JsonObject> {
  const items: JsonObject[] = [];
  let page: QueuePage;
  let offset = Number(query.offset ?? 0);
  do {
    page = (await ctx.api.call({ endpoint: ENDPOINTS.listRequests, query: { ...query, limit: query.limit ?? MAX_PAGE, offset } })).body as QueuePage;
    items.push(...page.items);
    offset += page.items.length;
  } while (page.items.length === page.limit && (page.totalExact === false || offset < page.total));
  const { limit: _limit, offset: _offset, items: _items, ...echo } = page;
  return { ...echo, items };
}

/** A filter flag of `requests list`: its parser, and its values for the shell's completion (without commander's check of one value, which `parse` does for a list). */
function queueOption(f: FieldFlag): Option {
  const option = new Option(f.flags, f.description);
  if (f.parse) option.argParser(f.parse as (v: string, p: unknown) => unknown);
  if (f.choices) option.argChoices = [...f.choices];
  return option;
}

/** A command that reads the queue (`requests list`, `requests find`): its own options first, then one page or (--all) every page, with the queue's filters. */
function queueCommand(parent: Command, name: string, description: string, own: readonly Option[] = []): Command {
  const cmd = parent.command(name).description(description);
  for (const option of own) cmd.addOption(option);
  cmd
    .option('--limit <n>', 'page size, 1 to 200 (default 25; with --all, 200)', intArg(1, MAX_PAGE))
    .option('--offset <n>', 'requests to skip', intArg(0))
    .option('--all', 'follow the pages to the end');
  for (const f of QUEUE_FILTERS) cmd.addOption(queueOption(f));
  return cmd;
}

async function readQueue(ctx: Context, query: Query, all: boolean): Promise<{ data: unknown; view: View }> {
  const data = all ? await allPages(ctx, query) : (await ctx.api.call({ endpoint: ENDPOINTS.listRequests, query })).body;
  return { data, view: QUEUE_VIEW };
}

function queueQuery(opts: Record<string, unknown>): Query {
  const list = (value: unknown) => (value as string[] | undefined)?.join(',');
  return {
    status: list(opts.status),
    atRiskDays: opts.atRiskDays as number | undefined,
    requestType: list(opts.type),
    jurisdiction: list(opts.jurisdiction),
    channel: list(opts.channel),
    receivedFrom: opts.receivedFrom as string | undefined,
    receivedTo: opts.receivedTo as string | undefined,
    reference: opts.reference as string | undefined,
    waitingOnSystems: opts.waitingOnSystems as string | undefined,
    triage: typeof opts.triage === 'boolean' ? String(opts.triage) : undefined,
    duplicate: typeof opts.duplicate === 'boolean' ? String(opts.duplicate) : undefined,
    sortBy: opts.sortBy as string | undefined,
    sortOrder: opts.sortOrder as string | undefined,
    limit: opts.limit as number | undefined,
    offset: opts.offset as number | undefined,
  };
}

/** `in 3d 4h`, `overdue 1d 2h`, from now to a due time. */
export function dueIn(dueAt: string, now: number): string {
  const ms = Date.parse(dueAt) - now;
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const span = d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
  return ms < 0 ? `overdue ${span}` : `in ${span}`;
}

async function watch(ctx: Context, opts: Record<string, unknown>): Promise<void> {
  const days = opts.atRiskDays as number;
  const intervalMs = (opts.interval as number) * 1000;
  const count = opts.count as number | undefined;
  const redraw = ctx.out.format === 'table' && Boolean(ctx.io.stdout.isTTY);
  for (let round = 1; ; round++) {
    const page = await allPages(ctx, { atRiskDays: days, sortBy: 'dueAt', sortOrder: 'asc' });
    const now = Date.now();
    const items = page.items as JsonObject[];
    const data = { atRiskDays: days, refreshedAt: new Date(now).toISOString(), total: items.length, overdue: items.filter((i) => i.overdue === true).length, items };
    if (ctx.out.format === 'json') ctx.out.successLine(ctx.command, data);
    else if (ctx.out.format === 'yaml') ctx.out.success(ctx.command, data);
    else {
      const rows = items.map((i) => ({ id: i.id, status: i.status, type: i.requestType ?? '(triage)', jurisdiction: i.jurisdiction, dueAt: i.dueAt, due: dueIn(String(i.dueAt), now) }));
      const heading = `At risk (due within ${days} days) and overdue: ${data.total} open, ${data.overdue} overdue. ${data.refreshedAt}${redraw ? `, every ${intervalMs / 1000} s; Ctrl-C stops` : ''}`;
      ctx.io.stdout.write(`${redraw ? '\x1b[2J\x1b[H' : ''}${heading}\n\n${renderRows(rows)}\n${redraw ? '' : '\n'}`);
    }
    if (count !== undefined && round >= count) return;
    await sleep(intervalMs);
  }
}

export function requestsCommands(program: Command, kit: Kit): void {
  const requests = program.command('requests').description('submit, capture, list, find, watch and read requests; reveal a requestor; decide a duplicate');

  kit.api(requests, {
    name: 'create',
    summary: 'submit a data subject request (POST /requests)',
    endpoint: ENDPOINTS.submitRequest,
    body: INTAKE_FLAGS,
    complete: completeIntake,
    examples: [
      'dsar requests create --jurisdiction DE --channel email --text "Please send me a copy of my data." --contact jane@example.org',
      'dsar requests create --data @request.json',
      'cat request.json | dsar requests create --data - --idempotency-key "$(uuidgen)" --retry 3',
    ],
  });

  kit.api(requests, {
    name: 'capture',
    summary: 'capture a request received elsewhere; the answer carries its due time (POST /requests/capture)',
    endpoint: ENDPOINTS.captureRequest,
    body: INTAKE_FLAGS,
    complete: completeIntake,
    examples: ['dsar requests capture --jurisdiction US-CA --type deletion --channel web_form --text "Delete my account"'],
  });

  const list = queueCommand(requests, 'list', 'the request queue, one page or (--all) every page (GET /requests)');
  examples(list, [
    'dsar requests list',
    'dsar requests list --status received,in_progress --sort-by dueAt --sort-order asc --all',
    'dsar requests list --at-risk-days 7 --output json',
    // Received this month: the receipt range takes a date alone as its start in UTC.
    'dsar requests list --type deletion --jurisdiction DE,FR --channel email --received-from "$(date -u +%Y-%m-01)"',
    'dsar requests list --reference DSAR-44CEC96B',
    'dsar requests list --waiting-on-systems true --sort-by dueAt --sort-order asc',
    'dsar requests list --triage --sort-by dueAt --sort-order asc',
    'dsar requests list --duplicate --status received,in_progress',
  ]);
  kit.act(list, [ENDPOINTS.listRequests], (ctx, _args, opts) => readQueue(ctx, queueQuery(opts), Boolean(opts.all)));

  const find = queueCommand(
    requests,
    'find',
    "a person's requests, by the email address, phone number or account id they carry, matched exactly after normalisation through the blind index (GET /requests?identity=…); the filters of `requests list` apply too",
    IDENTITY_FLAGS.map((f) => new Option(f.flags, `${f.description} (exactly one of --email, --phone and --account)`)),
  );
  examples(find, [
    'dsar requests find --email jane@example.org',
    'dsar requests find --phone "+49 30 1234567" --status received,in_progress --all',
    'dsar requests find --phone "030 1234567" --jurisdiction DE',
    'dsar requests find --account cust-20931 --duplicate',
  ]);
  kit.act(find, [ENDPOINTS.listRequests], (ctx, _args, opts) => readQueue(ctx, { ...queueQuery(opts), ...identityQuery(opts) }, Boolean(opts.all)));

  const watchCmd = requests
    .command('watch')
    .description('at-risk and overdue requests, refreshed (a live table on a terminal; JSON Lines otherwise)')
    .option('--at-risk-days <n>', 'open requests due within n days, and the overdue ones', intArg(0), 7)
    .option('--interval <seconds>', 'seconds between refreshes', intArg(1, 3600), 10)
    .option('--count <n>', 'stop after n refreshes (default: until Ctrl-C)', intArg(1));
  examples(watchCmd, ['dsar requests watch', 'dsar requests watch --at-risk-days 2 --interval 30', 'dsar requests watch --count 1 --output json']);
  kit.act(watchCmd, [ENDPOINTS.listRequests], async (ctx, _args, opts) => {
    await watch(ctx, opts);
    return undefined;
  });

  kit.api(requests, {
    name: 'get <idOrReference>',
    summary: 'a request in detail, by its id or its reference DSAR-XXXXXXXX, with its triage and the rights it asks for (GET /requests/:idOrReference)',
    endpoint: ENDPOINTS.getRequest,
    query: [
      {
        flags: '--masked',
        description: "the requestor's identities masked (j***@example.org), as the console shows them; `requests reveal` shows them, recorded",
        field: 'requestor',
        value: 'masked',
      },
    ],
    examples: [`dsar requests get ${EXAMPLE_IDS.request}`, `dsar requests get DSAR-${EXAMPLE_IDS.request.slice(0, 8).toUpperCase()}`, `dsar requests get ${EXAMPLE_IDS.request} --masked`],
  });
  kit.api(requests, {
    name: 'reveal <id>',
    summary:
      "the requestor's identities in clear (name, email, phone, intake contact, account ids), with a reason that is recorded with the reveal on the timeline and the audit chain (POST /requests/:id/requestor/reveal)",
    endpoint: ENDPOINTS.revealRequestor,
    body: [{ flags: '--reason <text>', description: 'why you need them in clear (required, 1–500 characters; a salted hash on the audit chain)', field: 'reason', required: true }],
    examples: [`dsar requests reveal ${EXAMPLE_IDS.request} --reason "Calling the requester back about the clarification."`],
  });
  kit.api(requests, {
    name: 'timeline <id>',
    summary: 'every domain event of a request, oldest first (GET /requests/:id/timeline)',
    endpoint: ENDPOINTS.getRequestTimeline,
    view: { columns: { events: ['createdAt', 'eventType', 'id'] } },
    examples: [`dsar requests timeline ${EXAMPLE_IDS.request}`],
  });
  kit.api(requests, {
    name: 'correct <id>',
    summary:
      'correct the request type or jurisdiction intake misread, or name the type of a request in triage, with a reason; the deadline is recomputed from the same receipt (POST /requests/:id/corrections)',
    endpoint: ENDPOINTS.correctRequest,
    body: [
      { flags: '--type <type>', description: `the request type it should have: ${QUEUE_REQUEST_TYPES.join(', ')}`, field: 'requestType', choices: QUEUE_REQUEST_TYPES },
      { flags: '--jurisdiction <code>', description: 'the jurisdiction whose law applies, e.g. DE or US-CA (GET /policies lists them)', field: 'jurisdiction' },
      { flags: '--reason <text>', description: 'why it is corrected (required; kept on the clock explanation and the audit chain)', field: 'reason', required: true },
    ],
    examples: [
      `dsar requests correct ${EXAMPLE_IDS.request} --type access --reason "The email asks for a copy, not a deletion."`,
      `dsar requests correct ${EXAMPLE_IDS.request} --jurisdiction FR --reason "The requester lives in France."`,
      `dsar requests correct ${EXAMPLE_IDS.request} --type opt_out --reason "Triage: the letter asks us to stop selling their data."`,
    ],
  });
  kit.api(requests, {
    name: 'duplicate <id>',
    summary:
      'decide a request intake marked as a duplicate (`requests list --duplicate`): --confirm refuses it as a duplicate and tells the person, --separate keeps it as a request of its own (POST /requests/:id/duplicate-resolution)',
    endpoint: ENDPOINTS.resolveDuplicate,
    body: [
      {
        flags: '--confirm',
        description: 'the same request as the one it repeats: refuse it with reason duplicate, the notice naming the earlier request (this or --separate)',
        field: 'resolution',
        value: 'confirmed',
        required: true,
      },
      { flags: '--separate', description: 'a request of its own: the mark is lifted, nothing else changes (this or --confirm)', field: 'resolution', value: 'separated', required: true },
      { flags: '--reason <text>', description: 'why (required; kept on the request, a salted hash on the audit chain)', field: 'reason', required: true },
      { flags: '--message <text>', description: 'with --confirm: the notice as the person is told it; default one naming the earlier request and the right to complain', field: 'message' },
    ],
    examples: [
      `dsar requests duplicate ${EXAMPLE_IDS.request} --confirm --reason "Sent twice by the same person on the same day."`,
      `dsar requests duplicate ${EXAMPLE_IDS.request} --separate --reason "A second access request, for the former account."`,
    ],
  });
  kit.api(requests, {
    name: 'clock <id>',
    summary: "how the request's deadline was computed (GET /requests/:id/clock/explain)",
    endpoint: ENDPOINTS.explainRequestClock,
    examples: [`dsar requests clock ${EXAMPLE_IDS.request}`],
  });
}

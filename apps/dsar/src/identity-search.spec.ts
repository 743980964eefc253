import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { IDENTITY_KINDS } from '@dsar/contracts';
import { run } from './cli';
import { IDENTITY_FLAGS } from './commands/requests';
import type { Io } from './kit';

/**
 * Issue [identity] in the CLI, run in-process against a local stub of the API: `requests find` (a person's requests by
 * an identity, which the CLI never prints), the `--duplicate` filter of the queue, `requests duplicate` (an operator's
 * decision on a request intake marked as a duplicate) and the duplicate mark in `requests get`.
 */

const PRIMARY = '6f3b2c1d-8e4a-4b7c-9d2e-1a0f5c6b7d8e';
const MARKED = 'b81c0e5a-2d4f-4a6b-8c9d-3e7f1a2b4c6d';
/** A request whose mark an operator has already decided: the stub answers its resolution with the 409 of the API. */
const DECIDED = 'c0d1e2f3-a4b5-4c6d-8e7f-901234567890';
const NOT_MARKED_DETAIL = 'Request c0d1e2f3-a4b5-4c6d-8e7f-901234567890 is not waiting for a duplicate decision: it was separated on 2026-12-03.';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

describe('identity search and duplicates in the CLI', () => {
  let server: http.Server;
  let base: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://stub');
        const path = url.pathname.replace(/^\/api\/v1/, '');
        seen.push({ method: req.method ?? '', path, query: url.searchParams, body: text ? JSON.parse(text) : undefined });
        const answer = (status: number, body: unknown, type = 'application/json') => {
          res.writeHead(status, { 'content-type': type });
          res.end(JSON.stringify(body));
        };
        if (req.method === 'GET' && path === '/requests') {
          // Two requests of one person: the earlier one, and a later one intake marked as its duplicate.
          const item = (id: string, duplicateOf: string | null, receivedAt: string) => ({
            id,
            status: 'received',
            requestType: 'access',
            triage: false,
            duplicateOf,
            jurisdiction: 'NL',
            channel: 'email',
            receivedAt,
            dueAt: '2027-01-10T09:00:00.000Z',
            updatedAt: receivedAt,
            overdue: false,
          });
          answer(200, {
            items: [item(MARKED, PRIMARY, '2026-12-02T15:20:00.000Z'), item(PRIMARY, null, '2026-12-01T08:05:00.000Z')],
            limit: 25,
            offset: 0,
            sortBy: 'receivedAt',
            sortOrder: 'desc',
            identityKind: url.searchParams.get('identityKind') ?? undefined,
            total: 2,
            totalExact: true,
          });
        } else if (req.method === 'GET' && path === `/requests/${MARKED}`) {
          answer(200, {
            id: MARKED,
            status: 'received',
            requestType: 'access',
            jurisdiction: 'NL',
            duplicate: { of: PRIMARY, state: 'marked', markedAt: '2026-12-02T15:20:01.000Z', matchedKinds: ['email', 'phone'] },
            identityActivity: { requests: 3, windowDays: 30 },
          });
        } else if (req.method === 'POST' && path === `/requests/${DECIDED}/duplicate-resolution`) {
          answer(
            409,
            {
              type: 'https://dsar.dev/problems/duplicate-not-marked',
              title: 'Duplicate not marked',
              status: 409,
              detail: NOT_MARKED_DETAIL,
              code: 'SVC-BE-1413',
              requestId: 'req-duplicate-409',
              duplicate: { of: PRIMARY, state: 'separated', markedAt: '2026-12-02T15:20:01.000Z', matchedKinds: ['email'] },
            },
            'application/problem+json',
          );
        } else if (req.method === 'POST' && /^\/requests\/[^/]+\/duplicate-resolution$/.test(path)) {
          answer(202, { id: path.split('/')[2], status: 'received', dueAt: '2027-01-10T09:00:00.000Z' });
        } else answer(404, { code: 'SVC-BE-1002', status: 404, title: 'Not found', detail: `no stub for ${req.method} ${path}` }, 'application/problem+json');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  async function dsar(...argv: string[]): Promise<Ran> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await run([...argv, '--base-url', base, '--token', 't'], { stdout, stderr } as unknown as Io);
    let json: any;
    try {
      json = JSON.parse(out);
    } catch {
      json = undefined;
    }
    return { code, stdout: out, stderr: err, json };
  }

  /** The calls a run made. */
  async function calls(...argv: string[]): Promise<{ ran: Ran; sent: Seen[] }> {
    const before = seen.length;
    const ran = await dsar(...argv);
    return { ran, sent: seen.slice(before) };
  }

  it('has a flag of `requests find` for every kind of identity the API searches', () => {
    expect(IDENTITY_FLAGS.map((f) => f.kind)).toEqual([...IDENTITY_KINDS]);
  });

  it('`requests find` sends the identity as typed with its kind, combined with the filters of `requests list`', async () => {
    const { ran, sent } = await calls('requests', 'find', '--email', 'Ada@Example.org ', '--status', 'received,in_progress', '--duplicate', '--jurisdiction', 'nl', '-o', 'json');
    expect(ran.code).toBe(0);
    expect(sent).toHaveLength(1);
    expect({ method: sent[0].method, path: sent[0].path, query: Object.fromEntries(sent[0].query) }).toEqual({
      method: 'GET',
      path: '/requests',
      query: { identity: 'Ada@Example.org ', identityKind: 'email', status: 'received,in_progress', duplicate: 'true', jurisdiction: 'NL' },
    });
    expect(ran.json).toMatchObject({ ok: true, data: { identityKind: 'email', total: 2 }, meta: { command: 'requests find' } });

    for (const [flag, value, kind] of [
      ['--phone', '06 12345678', 'phone'],
      ['--account', 'Cust-0042', 'account'],
    ]) {
      const other = await calls('requests', 'find', flag, value, '--no-duplicate', '--all');
      expect({ flag, code: other.ran.code, query: Object.fromEntries(other.sent[0].query) }).toEqual({
        flag,
        code: 0,
        query: { identity: value, identityKind: kind, duplicate: 'false', limit: '200', offset: '0' },
      });
    }
  }, 30_000);

  it('`requests find` takes exactly one identity, and sends nothing otherwise', async () => {
    for (const [args, message] of [
      [[], 'give exactly one of --email, --phone or --account'],
      [['--email', 'ada@example.org', '--account', 'cust-0042'], 'give exactly one of --email, --phone or --account (not --email and --account)'],
      [['--phone', '  '], '--phone is empty'],
    ] as const) {
      const { ran, sent } = await calls('requests', 'find', ...args, '-o', 'json');
      expect({ args, code: ran.code, error: ran.json?.error, sent: sent.length }).toEqual({ args, code: 1, error: { code: 'CLI-USAGE', message }, sent: 0 });
    }
  }, 30_000);

  it('prints the identity nowhere: not in the verbose log of the call, not in the output', async () => {
    const { ran, sent } = await calls('requests', 'find', '--email', 'Ada@Example.org', '--verbose', '-o', 'table');
    expect(sent[0].query.get('identity')).toBe('Ada@Example.org');
    expect(ran.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/requests\?identity=\[REDACTED\]&identityKind=email\n/);
    expect(`${ran.stdout}${ran.stderr}`.toLowerCase()).not.toContain('ada@example.org');
    // The table of `requests list`, with the request each one duplicates.
    const [header, first, second] = ran.stdout.split('\n');
    expect(header).toMatch(/^id +status +requestType +triage +jurisdiction +channel +receivedAt +dueAt +overdue +duplicateOf$/);
    expect(first).toMatch(new RegExp(`^${MARKED} +received .* false +${PRIMARY}$`));
    expect(second).toMatch(new RegExp(`^${PRIMARY} +received .* false +-$`));
  }, 30_000);

  it('`requests list` asks for the marked requests with --duplicate, the others with --no-duplicate, all without either', async () => {
    expect((await calls('requests', 'list', '--duplicate')).sent[0].query.get('duplicate')).toBe('true');
    expect((await calls('requests', 'list', '--no-duplicate', '--triage')).sent[0].query.get('duplicate')).toBe('false');
    const all = (await calls('requests', 'list')).sent[0].query;
    expect({ duplicate: all.has('duplicate'), identity: all.has('identity') }).toEqual({ duplicate: false, identity: false });
  }, 30_000);

  it('`requests duplicate` posts the decision: --separate or --confirm, with the reason and for a confirmation the notice', async () => {
    const separated = await calls('requests', 'duplicate', MARKED, '--separate', '--reason', 'A second request, about the former account.');
    expect(separated.ran.code).toBe(0);
    expect(separated.sent).toEqual([
      { method: 'POST', path: `/requests/${MARKED}/duplicate-resolution`, query: expect.anything(), body: { resolution: 'separated', reason: 'A second request, about the former account.' } },
    ]);
    const confirmed = await calls('requests', 'duplicate', MARKED, '--confirm', '--reason', 'Sent twice within the hour.', '--message', 'We are already answering your request of 1 December.');
    expect(confirmed.ran.json).toMatchObject({ ok: true, data: { id: MARKED }, meta: { command: 'requests duplicate' } });
    expect(confirmed.sent[0].body).toEqual({ resolution: 'confirmed', reason: 'Sent twice within the hour.', message: 'We are already answering your request of 1 December.' });
    // The body may come from --data too; a switch overrides its resolution.
    const fromData = await calls('requests', 'duplicate', MARKED, '--data', '{"resolution":"confirmed","reason":"From a file."}', '--separate');
    expect(fromData.sent[0].body).toEqual({ resolution: 'separated', reason: 'From a file.' });
  }, 30_000);

  it('`requests duplicate` needs one of --confirm and --separate, and a reason, before anything is sent', async () => {
    for (const [args, message] of [
      [['--reason', 'Same person.'], '--confirm or --separate is required (or give resolution in --data)'],
      [['--confirm'], '--reason is required (or give reason in --data)'],
      [['--confirm', '--separate', '--reason', 'Same person.'], "option '--confirm' cannot be used with option '--separate'"],
    ] as const) {
      const { ran, sent } = await calls('requests', 'duplicate', MARKED, ...args, '-o', 'json');
      expect({ args, code: ran.code, error: ran.json?.error, sent: sent.length }).toEqual({ args, code: 1, error: { code: 'CLI-USAGE', message }, sent: 0 });
    }
  }, 30_000);

  it('`requests duplicate` on a request not waiting for a decision shows the 409 problem as every refusal (exit 2)', async () => {
    const json = await dsar('requests', 'duplicate', DECIDED, '--separate', '--reason', 'Same person.', '-o', 'json');
    expect({ code: json.code, json: json.json }).toEqual({
      code: 2,
      json: { ok: false, error: { code: 'SVC-BE-1413', message: NOT_MARKED_DETAIL, requestId: 'req-duplicate-409' }, meta: { command: 'requests duplicate' } },
    });
    const table = await dsar('requests', 'duplicate', DECIDED, '--confirm', '--reason', 'Same person.', '-o', 'table');
    expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 2, stderr: `dsar requests duplicate: SVC-BE-1413: ${NOT_MARKED_DETAIL} (request id req-duplicate-409)\n` });
  }, 30_000);

  it('`requests get` shows the duplicate mark and how many requests carry the same identities', async () => {
    const { ran } = await calls('requests', 'get', MARKED, '-o', 'table');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(new RegExp(`^duplicate\\.of +${PRIMARY}$`, 'm'));
    expect(ran.stdout).toMatch(/^duplicate\.state +marked$/m);
    expect(ran.stdout).toMatch(/^duplicate\.matchedKinds +email, phone$/m);
    expect(ran.stdout).toMatch(/^identityActivity\.requests +3$/m);
    expect(ran.stdout).toMatch(/^identityActivity\.windowDays +30$/m);
  }, 30_000);
});

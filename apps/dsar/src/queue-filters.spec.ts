import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { INTAKE_CHANNELS, REQUEST_TYPES, supportedJurisdictions } from '@dsar/contracts';
import { instantArg, listOf, QUEUE_CHANNELS, QUEUE_JURISDICTIONS, QUEUE_REQUEST_TYPES, requestsCommands } from './commands/requests';
import { run } from './cli';
import { bashCompletion } from './completion';
import { type Io, Kit } from './kit';

describe('the queue filters of `dsar requests list`', () => {
  it('offer the values the API takes (the contracts hold them; the CLI keeps copies)', () => {
    expect(QUEUE_REQUEST_TYPES).toEqual(REQUEST_TYPES);
    expect(QUEUE_CHANNELS).toEqual(INTAKE_CHANNELS);
    expect(QUEUE_JURISDICTIONS).toEqual(supportedJurisdictions());
  });

  it('take one value or a comma-separated list, also given several times, and refuse an unknown one before sending', () => {
    const types = listOf(QUEUE_REQUEST_TYPES);
    expect(types('deletion, access', undefined)).toEqual(['deletion', 'access']);
    expect(types('opt_out', ['deletion'])).toEqual(['deletion', 'opt_out']);
    expect(() => types('refund,access', undefined)).toThrow(/refund: must be one or more \(comma-separated\) of access, deletion/);
    expect(() => types(',', undefined)).toThrow(/must be one or more/);
    expect(listOf(QUEUE_JURISDICTIONS, (c) => c.toUpperCase())('de,us-ca', undefined)).toEqual(['DE', 'US-CA']);
  });

  it('read a date alone as its start in UTC, and pass an instant on for the server to check', () => {
    expect(instantArg('2026-03-01')).toBe('2026-03-01T00:00:00Z');
    expect(instantArg(' 2026-03-01T09:30:00+01:00 ')).toBe('2026-03-01T09:30:00+01:00');
    expect(instantArg('yesterday')).toBe('yesterday');
  });

  it('are completed by bash with their values', async () => {
    const io = { stdout: new PassThrough(), stderr: new PassThrough() } as unknown as Io;
    const program = new Command('dsar');
    requestsCommands(program, new Kit(io, 'test'));
    const complete = async (...words: string[]) => {
      const script = `${bashCompletion(program)}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _dsar; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const { stdout } = await promisify(execFile)('bash', ['-c', script]);
      return stdout.split('\n').filter(Boolean).sort();
    };
    expect(await complete('dsar', 'requests', 'list', '--type', '')).toEqual([...QUEUE_REQUEST_TYPES].sort());
    expect(await complete('dsar', 'requests', 'list', '--channel', 'p')).toEqual(['phone', 'postal_mail']);
    expect(await complete('dsar', 'requests', 'list', '--jurisdiction', 'US-')).toEqual(['US-CA', 'US-CO', 'US-CT', 'US-OR', 'US-TX', 'US-UT', 'US-VA']);
    expect(await complete('dsar', 'requests', 'list', '--rec')).toEqual(['--received-from', '--received-to']);
    expect(await complete('dsar', 'requests', 'list', '--ref')).toEqual(['--reference']);
    expect(await complete('dsar', 'requests', 'list', '--waiting-on-systems', '')).toEqual(['false', 'true']);
  }, 60_000); // spawns bash five times: more than the default 5 s on a busy machine
});

describe('the triage queue of `dsar requests list`', () => {
  let server: http.Server;
  let base: string;
  const asked: URLSearchParams[] = [];

  beforeAll(async () => {
    // The queue as the API answers it: one request in triage (no type yet).
    server = http.createServer((req, res) => {
      asked.push(new URL(req.url ?? '/', 'http://stub').searchParams);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (/\/requests\/[^/?]+/.test(req.url ?? '')) {
        // One request's detail: in triage, with the rights the letter asks for.
        res.end(
          JSON.stringify({
            id: '44cec96b-6062-4b16-9782-40f47fc74dc0',
            status: 'received',
            requestType: null,
            requestedRights: [
              { type: 'opt_out', phrase: 'stop passing my details on', basis: 'phrase' },
              { type: 'deletion', phrase: 'remove me from your lists', basis: 'phrase' },
            ],
            typeConfidence: 0.42,
            detectedLanguage: 'en',
            triage: { reason: 'low_confidence', suggestedType: 'opt_out', confidence: 0.42 },
            jurisdiction: 'US-CA',
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          items: [
            {
              id: '44cec96b-6062-4b16-9782-40f47fc74dc0',
              status: 'received',
              requestType: null,
              triage: true,
              jurisdiction: 'US-CA',
              channel: 'email',
              receivedAt: '2026-11-30T09:00:00Z',
              dueAt: '2027-01-13T07:59:59.999Z',
              updatedAt: '2026-11-30T09:00:00Z',
              overdue: false,
            },
          ],
          limit: 25,
          offset: 0,
          sortBy: 'receivedAt',
          sortOrder: 'desc',
          triage: true,
          total: 1,
          totalExact: true,
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  async function list(...flags: string[]): Promise<{ code: number; stdout: string; query: URLSearchParams }> {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await run(['requests', 'list', ...flags, '--base-url', base, '--token', 't'], { stdout, stderr: new PassThrough() } as unknown as Io);
    return { code, stdout: out, query: asked[asked.length - 1] };
  }

  it('asks for the requests in triage with --triage, for those with a type with --no-triage, and for all without either', async () => {
    const triaged = await list('--triage', '-o', 'table');
    expect(triaged.code).toBe(0);
    expect(triaged.query.get('triage')).toBe('true');
    // The table has a triage column beside the type, which a request in triage does not have yet.
    expect(triaged.stdout.split('\n')[0]).toMatch(/requestType +triage +jurisdiction/);
    expect((await list('--no-triage')).query.get('triage')).toBe('false');
    expect((await list()).query.has('triage')).toBe(false);
  }, 30_000);

  it('`requests get` shows the triage and every right the letter asks for', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await run(['requests', 'get', 'DSAR-44CEC96B', '--base-url', base, '--token', 't', '-o', 'table'], { stdout, stderr: new PassThrough() } as unknown as Io);
    expect(code).toBe(0);
    expect(out).toMatch(/^requestType +-$/m);
    expect(out).toMatch(/^triage\.reason +low_confidence$/m);
    expect(out).toMatch(/^triage\.suggestedType +opt_out$/m);
    expect(out).toMatch(/^requestedRights \(2\):\ntype +phrase +basis\nopt_out +stop passing my details on +phrase\ndeletion +remove me from your lists +phrase$/m);
  }, 30_000);
});

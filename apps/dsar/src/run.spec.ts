import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { type ChainEntry, chainEntry, GENESIS_HASH, storedEntry } from '@dsar/platform/audit-chain';
import { csvText } from '@dsar/platform/http';
import { REQUEST_STATUSES } from '@dsar/contracts';
import { chainFindings, checkChain, openChainFile } from './audit-check';
import { buildProgram, COMMAND_MODULES, loadCommands, run } from './cli';
import { QUEUE_STATUSES } from './commands/requests';
import { csvRecords, unescapeCell } from './csv';
import { CLI_ERRORS, type CliErrorCode, EXIT_CODES, exitText } from './errors';
import { type Io, Kit } from './kit';

/**
 * `dsar` run in-process against a local stub of the API (its answers chosen by each test), and the pieces of issue
 * [first-day] item 14 and 23 that need no real server: CSV exports verified, an error said once, the JSON error's
 * request id, the help's exit codes from the one table, commands loaded only when used.
 */

const root = join(__dirname, '../../..');

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

async function dsar(argv: string[]): Promise<Ran> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await run(argv, { stdout, stderr } as unknown as Io);
  let json: any;
  try {
    json = JSON.parse(out);
  } catch {
    json = undefined;
  }
  return { code, stdout: out, stderr: err, json };
}

/** A stub API on loopback answering every call with `answer`; its base URL. */
async function stub(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return { base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const ID = '44cec96b-6062-4b16-9782-40f47fc74dc0';
const REASON_NEEDED = 'us-ca-ccpa requires the reasons for the delay to be given with the extension.';

describe('an API refusal', () => {
  let api: Awaited<ReturnType<typeof stub>>;
  beforeAll(async () => {
    // The extension refused as lifecycle-clock refuses it: the same sentence as the detail and as the field's problem.
    api = await stub((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/problem+json', 'x-request-id': 'req-from-header' });
      res.end(
        JSON.stringify({
          type: 'https://dsar.dev/problems/policy-rule-violated',
          title: 'Policy rule violated',
          status: 422,
          detail: REASON_NEEDED,
          code: 'SVC-BE-1509',
          requestId: 'req-from-problem',
          errors: [
            { field: 'reason', message: REASON_NEEDED },
            { field: 'months', message: 'must be at most 2' },
          ],
        }),
      );
    });
  });
  afterAll(() => api.close());

  it('says its error once, with the field problems the detail does not say', async () => {
    const ran = await dsar(['extend', ID, '--base-url', api.base, '--token', 't', '-o', 'json']);
    expect(ran.code).toBe(2);
    expect(ran.json.error.message).toBe(`${REASON_NEEDED} (months: must be at most 2)`);
    const table = await dsar(['extend', ID, '--base-url', api.base, '--token', 't', '-o', 'table']);
    expect(table.stderr.split(REASON_NEEDED)).toHaveLength(2);
  }, 30_000);

  it("carries the server's request id in the JSON and YAML envelopes, as the table's line does", async () => {
    const json = await dsar(['extend', ID, '--base-url', api.base, '--token', 't', '-o', 'json']);
    expect(json.json).toEqual({ ok: false, error: { code: 'SVC-BE-1509', message: expect.any(String), requestId: 'req-from-problem' }, meta: { command: 'extend' } });
    const yaml = await dsar(['extend', ID, '--base-url', api.base, '--token', 't', '-o', 'yaml']);
    expect(yaml.stdout).toContain('  requestId: req-from-problem\n');
    const table = await dsar(['extend', ID, '--base-url', api.base, '--token', 't', '-o', 'table']);
    expect(table.stderr).toMatch(/\(request id req-from-problem\)\n$/);
  }, 30_000);

  it('has no request id when no server answered', async () => {
    const ran = await dsar(['requests', 'get', ID, '--base-url', 'http://127.0.0.1:9/api/v1', '--token', 't', '-o', 'json']);
    expect({ code: ran.code, error: Object.keys(ran.json.error).sort() }).toEqual({ code: 3, error: ['code', 'message'] });
  }, 30_000);
});

describe('the exit codes', () => {
  it('--help lists every exit code and the exit of every CLI error from the table the CLI exits by', async () => {
    const help = (await dsar(['--help'])).stdout;
    for (const [code, meaning] of Object.entries(EXIT_CODES)) expect(help).toContain(`\n  ${code}  ${meaning}\n`);
    for (const code of Object.keys(CLI_ERRORS) as CliErrorCode[]) expect(help).toMatch(new RegExp(`\\n {4}${code} +exit ${exitText(code)}\\n`));
    expect(help).toMatch(/\n {4}CLI-HTTP +exit 2 or 3\n/);
  }, 30_000);

  it('docs/cli.md gives each CLI error the exit codes of the table', () => {
    const doc = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    for (const code of Object.keys(CLI_ERRORS) as CliErrorCode[]) expect(doc).toContain(`| \`${code}\` | ${exitText(code)} |`);
  });

  it.each([
    [404, 2],
    [502, 3],
  ])(
    'an error answer without a problem (%i) is CLI-HTTP, exit %i, as the help says',
    async (status, exit) => {
      const api = await stub((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<html>proxy</html>');
      });
      try {
        const ran = await dsar(['requests', 'get', ID, '--base-url', api.base, '--token', 't', '-o', 'json']);
        expect({ code: ran.code, error: ran.json.error.code }).toEqual({ code: exit, error: 'CLI-HTTP' });
        expect(CLI_ERRORS['CLI-HTTP'].exit).toContain(exit);
      } finally {
        await api.close();
      }
    },
    30_000,
  );
});

describe('commands loaded when used', () => {
  it('each module adds exactly the top-level commands it is listed with, in the order of the help', async () => {
    const names: string[] = [];
    for (const module of COMMAND_MODULES) {
      const program = buildProgram(new Kit({ stdout: new PassThrough(), stderr: new PassThrough() } as unknown as Io, 'test'), [{ module, register: await module.load() }]);
      const own = program.commands.map((c) => c.name()).filter((n) => n !== 'completion');
      expect({ module: module.commands, registers: own }).toEqual({ module: module.commands, registers: [...module.commands] });
      names.push(...own);
    }
    const whole = buildProgram(new Kit({ stdout: new PassThrough(), stderr: new PassThrough() } as unknown as Io, 'test'), await loadCommands());
    expect(whole.commands.map((c) => c.name())).toEqual([...names, 'completion']);
  }, 30_000);

  it("loads the named command's module only, none for --version, and all for the help, completion or an unknown name", async () => {
    const modules = async (argv: string[]) => (await loadCommands(argv)).map((m) => m.module.commands[0]);
    expect(await modules(['requests', 'list'])).toEqual(['requests']);
    expect(await modules(['--output', 'json', '--retry', '2', 'extend', ID])).toEqual(['acknowledge']);
    expect(await modules(['-o', 'yaml', 'policies', 'list'])).toEqual(['whoami']);
    expect(await modules(['--version'])).toEqual([]);
    expect(await modules(['--help'])).toHaveLength(COMMAND_MODULES.length);
    expect(await modules([])).toHaveLength(COMMAND_MODULES.length);
    expect(await modules(['completion', 'bash'])).toHaveLength(COMMAND_MODULES.length);
    expect(await modules(['requestz'])).toHaveLength(COMMAND_MODULES.length);
    expect((await dsar(['requestz'])).code).toBe(1);
  }, 30_000);

  it('completes the request statuses of the contracts for requests list --status', () => {
    expect([...QUEUE_STATUSES]).toEqual([...REQUEST_STATUSES]);
  });
});

describe('the bin from a fresh start', () => {
  const cache = mkdtempSync(join(tmpdir(), 'dsar-cli-cache-'));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));
  const bin = (args: string[]) =>
    promisify(execFile)(process.execPath, [join(root, 'apps/dsar/bin/dsar.cjs'), ...args], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', DSAR_CLI_CACHE_DIR: cache } });

  it('compiles what it loads into an empty cache, then runs from the cache with the same output', async () => {
    const first = await bin(['--help']);
    expect(first.stdout).toContain('Exit codes:');
    const compiled = readdirSync(cache).filter((f) => f.endsWith('.js'));
    // main, cli, completion, errors, kit, output, … and the nine command groups the help loads.
    expect(compiled.length).toBeGreaterThanOrEqual(15);
    expect(await bin(['--help'])).toEqual(first);
    expect(readdirSync(cache).filter((f) => f.endsWith('.js'))).toEqual(compiled);
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect((await bin(['--version'])).stdout.trim()).toBe(version.version);
  }, 60_000);
});

describe('CSV exports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dsar-csv-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Columns and cells exactly as the audit-ledger's CSV export writes them (its chain-export.ts, through csvText). */
  const COLUMNS = ['sequence', 'eventId', 'eventType', 'occurredAt', 'recordedAt', 'actor', 'source', 'tenantId', 'requestId', 'payload', 'prevHash', 'hash'] as const;
  function exportCsv(entries: readonly ChainEntry[], columns: readonly string[] = COLUMNS): string {
    const stored = entries.map(storedEntry) as unknown as Array<Record<string, unknown>>;
    return csvText([columns, ...stored.map((e) => columns.map((c) => String(c === 'payload' ? e.payloadJson : e[c])))]);
  }

  function chain(length: number): ChainEntry[] {
    const out: ChainEntry[] = [];
    for (let i = 0; i < length; i++) {
      out.push(
        chainEntry(out.at(-1) ?? { sequence: 0, hash: GENESIS_HASH }, {
          tenantId: 'acme',
          requestId: '7f0c2a56-95a1-4d3e-9d7b-3f1f1b2a9c10',
          eventId: `00000000-0000-4000-8000-00000000000${i}`,
          eventType: 'dsar.request.created.v1',
          source: '/dsar/lifecycle-clock',
          // Cells a spreadsheet could run, escaped with a leading ' by the writer.
          actor: ['=cmd|calc', '-ops@acme', "'quoted", '@admin'][i % 4],
          occurredAt: '2026-05-04T10:00:00.000Z',
          recordedAt: '2026-05-04T10:00:01.000Z',
          payload: { step: i, note: 'a "quoted", comma\r\nand a line break', unicode: 'Grüße ✓' },
        }),
      );
    }
    return out;
  }

  async function verifyFile(name: string, text: string): Promise<string | undefined> {
    const path = join(dir, name);
    writeFileSync(path, text);
    const file = await openChainFile(path);
    const report = await checkChain(file.entries, { sequence: 0, hash: GENESIS_HASH });
    return chainFindings(report, undefined) ?? `verified ${report.entries} entries, head ${report.head?.sequence}`;
  }

  it('reads RFC 4180 as the service writes it: quotes, doubled quotes, line breaks in a field, CRLF, escaped cells', async () => {
    const text = csvText([
      ['a', 'b,c', 'say "hi"', 'two\r\nlines', '=1+1', "'x", ''],
      ['1', '', '-', '@', ' ', '+', 'last'],
    ]);
    const records = [];
    for await (const r of csvRecords([text.slice(0, 7), text.slice(7, 20), text.slice(20)])) records.push(r);
    expect(records.map((r) => r.fields.map(unescapeCell))).toEqual([
      ['a', 'b,c', 'say "hi"', 'two\r\nlines', '=1+1', "'x", ''],
      ['1', '', '-', '@', ' ', '+', 'last'],
    ]);
    const bad = [];
    for await (const r of csvRecords(['a,b"c\n"ok",d\n"x"y,z\n"never'])) bad.push(r.malformed);
    expect(bad).toEqual(['a quote inside an unquoted field', undefined, 'text after the closing quote of a field', 'a quoted field that never ends']);
  });

  it('verifies the CSV export of a chain offline, and names an edited entry', async () => {
    const entries = chain(5);
    expect(await verifyFile('audit.csv', exportCsv(entries))).toBe('verified 5 entries, head 5');
    const edited = entries.map((e) => (e.sequence === 3 ? { ...e, actor: '-forger' } : e));
    expect(await verifyFile('edited.csv', exportCsv(edited))).toMatch(/^1 finding: sequence 3 \(event [\w-]+\): content mismatch/);
    const removed = exportCsv(entries.filter((e) => e.sequence !== 2));
    expect(await verifyFile('gap.csv', removed)).toMatch(/sequence 3 \(event [\w-]+\): sequence mismatch/);
    // A row cut short is a finding, not a crash.
    const lines = exportCsv(entries).split('\r\n');
    expect(await verifyFile('cut.csv', [...lines.slice(0, 3), lines[3].slice(0, 40), ...lines.slice(4)].join('\r\n'))).toMatch(/entry 3 is not an audit chain entry/);
  }, 30_000);

  it('says a CSV file without the columns verifying needs is not supported (exit 1), whatever it is named', async () => {
    const entries = chain(2);
    const path = join(dir, 'partial.csv');
    writeFileSync(
      path,
      exportCsv(
        entries,
        COLUMNS.filter((c) => c !== 'payload'),
      ),
    );
    await expect(openChainFile(path)).rejects.toMatchObject({ code: 'CLI-USAGE', exitCode: 1, message: expect.stringContaining('missing payload') });
    const ran = await dsar(['audit', 'verify', '--file', path, '-o', 'json']);
    expect({ code: ran.code, error: ran.json.error.code }).toEqual({ code: 1, error: 'CLI-USAGE' });
    writeFileSync(join(dir, 'other.csv'), 'name,size\r\nx,1\r\n');
    expect((await dsar(['audit', 'verify', '--file', join(dir, 'other.csv'), '-o', 'json'])).code).toBe(1);
  }, 30_000);
});

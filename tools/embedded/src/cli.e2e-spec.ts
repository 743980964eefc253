import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { type PolicyPack, policyPackVersion } from '@dsar/contracts';
import { waitFor } from '@dsar/platform/testing';
import { CheckpointPublisher, newSigningKeyPem } from '@dsar/services/audit-ledger';
import { ApiClient, intake } from './e2e/api-client';
import { type CliRun, DSAR_BIN as BIN, runCli } from './e2e/cli-process';
import { KEYS } from './e2e/gateway-intake.scenarios';
import { type TestSystem, withEmbeddedSystem } from './e2e/systems';

/**
 * Issue [cli]: the `dsar` command, run as a child process (its bin, as `npx
 * dsar` runs it) against an embedded system: every command group, the JSON
 * envelope on success and failure, every exit code, token precedence, the
 * idempotency key of a retried create, a streamed upload and download larger
 * than the CLI's heap, local chain and checkpoint verification, the help.
 */

const root = resolve(__dirname, '../../..');
const VERSION = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const MiB = 1024 * 1024;
/** The upload and download run with a heap smaller than the file. */
const HEAP_MIB = 64;
const BIG_MIB = 96;

interface Run extends CliRun {
  /** The child's peak resident memory (VmHWM), when measured. */
  peakRss?: number;
}

interface RunOptions {
  /** DSAR_TOKEN; null leaves it unset. Default: tenant A's admin. */
  token?: string | null;
  env?: Record<string, string>;
  input?: string | Buffer;
  /** NODE_OPTIONS of the child (the test runner's own are not passed on). */
  nodeOptions?: string;
  measure?: boolean;
}

const dirs: string[] = [];
function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Peak resident memory of a live process, polled from /proc until it ends. */
function watchPeak(pid: number | undefined): () => number {
  let peak = 0;
  const read = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // the process has ended
    }
  };
  const timer = setInterval(read, 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

function cliScenarios(getSystem: () => TestSystem): void {
  const base = () => `${getSystem().gatewayUrl}/api/v1`;
  const work = tempDir('cli-work');
  let admin: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  async function dsar(args: string[], options: RunOptions = {}): Promise<Run> {
    const token = options.token === undefined ? KEYS.adminA.token : options.token;
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, DSAR_BASE_URL: base(), NODE_OPTIONS: options.nodeOptions ?? '', ...options.env };
    if (token !== null) env.DSAR_TOKEN = token;
    let peak: (() => number) | undefined;
    const run = await runCli(args, { cwd: work, env, input: options.input, onSpawn: (child) => (peak = options.measure ? watchPeak(child.pid) : undefined) });
    return { ...run, peakRss: peak?.() };
  }

  /** The data of a successful run (exit 0, `{ok: true}`), or a failure that shows what the CLI said. */
  async function ok(args: string[], options?: RunOptions): Promise<any> {
    const run = await dsar(args, options);
    if (run.code !== 0 || run.json?.ok !== true) throw new Error(`dsar ${args.join(' ')} exited ${run.code}\n${run.stdout}\n${run.stderr}`);
    return run.json.data;
  }

  /** A failed run: its exit code and the error envelope. */
  async function fails(args: string[], options?: RunOptions): Promise<{ code: number | null; error: { code: string; message: string }; run: Run }> {
    const run = await dsar(args, options);
    if (run.code === 0) throw new Error(`dsar ${args.join(' ')} succeeded: ${run.stdout}`);
    return { code: run.code, error: run.json?.error, run };
  }

  const intakeFlags = (text = 'Please send me a copy of all personal data you hold about me.') => [
    '--jurisdiction',
    'DE',
    '--channel',
    'email',
    '--text',
    text,
    '--contact',
    'jane@example.org',
    '--requestor-name',
    'Jane Doe',
    '--requestor-email',
    'jane@example.org',
  ];
  const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

  describe('help', () => {
    it('documents the commands, output, exit codes and environment; every command has help with examples', async () => {
      const help = await dsar(['--help']);
      expect(help.code).toBe(0);
      for (const group of [
        'requests',
        'acknowledge',
        'clarify',
        'extend',
        'refuse',
        'close',
        'requestor',
        'authority',
        'clock',
        'verification',
        'manifest',
        'fulfil',
        'callback',
        'delivery',
        'appeals',
        'notifications',
        'audit',
        'retention',
        'policies',
        'completion',
      ]) {
        expect(help.stdout).toMatch(new RegExp(`\\n  ${group} `));
      }
      expect(help.stdout).toContain('Exit codes:\n  0  success\n  1  usage error');
      expect(help.stdout).toMatch(/\n {2}2 {2}the API refused the call \(a 4xx problem/);
      expect(help.stdout).toMatch(/\n {2}3 {2}a server error \(5xx\) or the server could not be reached/);
      expect(help.stdout).toMatch(/\n {2}4 {2}audit verify or audit checkpoints verify/);
      expect(help.stdout).toContain('{"ok": false, "error": {"code": "SVC-BE-1003", "message": "…", "requestId": "…"}, "meta": {"command": "requests get"}}');
      // A 4xx without a problem body exits 2, a 5xx 3: the help says both.
      expect(help.stdout).toMatch(/\n {4}CLI-HTTP +exit 2 or 3\n/);
      for (const name of ['DSAR_BASE_URL', 'DSAR_TOKEN', 'CLI-NO-TOKEN', 'CLI-NETWORK', 'CLI-USAGE']) expect(help.stdout).toContain(name);

      const sub = await dsar(['manifest', 'upload', '--help']);
      expect(sub.code).toBe(0);
      expect(sub.stdout).toContain('Usage: dsar manifest upload [options] <id>');
      expect(sub.stdout).toContain('--file <path>');
      expect(sub.stdout).toContain('Global Options:');
      expect(sub.stdout).toMatch(/Examples:\n {2}\$ dsar manifest upload /);
      expect((await dsar(['--version'])).stdout.trim()).toBe(VERSION);
    });
  });

  describe('the JSON envelope and the exit codes', () => {
    let id: string;

    it('0: prints {ok: true, data, meta: {command}} and nothing else', async () => {
      const run = await dsar(['requests', 'create', ...intakeFlags(), '--output', 'json']);
      expect(run.code).toBe(0);
      expect(Object.keys(run.json).sort()).toEqual(['data', 'meta', 'ok']);
      expect(run.json).toEqual({ ok: true, data: { id: expect.any(String), receivedAt: expect.any(String), status: 'received' }, meta: { command: 'requests create' } });
      id = run.json.data.id;
      const detail = await admin.get(`/requests/${id}`);
      expect(detail.body).toMatchObject({ jurisdiction: 'DE', requestType: 'access', requestor: { type: 'subject', name: 'Jane Doe', email: 'jane@example.org' } });
      // The same as YAML, and as a table for people.
      const yaml = await dsar(['requests', 'get', id, '-o', 'yaml']);
      expect(parseYaml(yaml.stdout)).toMatchObject({ ok: true, data: { id, status: 'received' }, meta: { command: 'requests get' } });
      const table = await dsar(['requests', 'get', id, '--output', 'table']);
      expect(table.stdout).toMatch(new RegExp(`^id +${id}\\n`));
      expect(table.stdout).toMatch(/\nrequestor\.name +Jane Doe\n/);
    });

    it("2: an API refusal (4xx) carries the service's code and message", async () => {
      const missing = await fails(['requests', 'get', '00000000-0000-4000-8000-000000000000']);
      expect(missing.code).toBe(2);
      // The JSON envelope carries the server's request id, as the table's line does.
      expect(missing.run.json).toEqual({ ok: false, error: { code: 'SVC-BE-1003', message: expect.any(String), requestId: expect.stringMatching(/^[\w-]+$/) }, meta: { command: 'requests get' } });
      const invalid = await fails(['requests', 'capture', '--jurisdiction', 'DE', '--channel', 'carrier-pigeon', '--text', 'Send me my data']);
      expect(invalid.code).toBe(2);
      expect(invalid.error.code).toBe('SVC-BE-1102');
      expect(invalid.error.message).toContain('intakeSource.channel');
      const forbidden = await fails(['audit', 'export', id], { token: KEYS.intakeA.token });
      expect({ code: forbidden.code, error: forbidden.error.code }).toEqual({ code: 2, error: 'SVC-BE-1302' });
      // A route the gateway does not have answers its 404 problem.
      const noRoute = await fails(['requests', 'list', '--base-url', `${getSystem().gatewayUrl}/api/v0`]);
      expect({ code: noRoute.code, error: noRoute.error.code }).toEqual({ code: 2, error: 'SVC-BE-1002' });
      // For people, the error goes to standard error, with the request id to quote.
      const table = await dsar(['requests', 'get', '00000000-0000-4000-8000-000000000000', '-o', 'table']);
      expect({ code: table.code, stdout: table.stdout }).toEqual({ code: 2, stdout: '' });
      expect(table.stderr).toMatch(/^dsar requests get: SVC-BE-1003: .+ \(request id [\w-]+\)\n$/);
    });

    it('2: a refusal whose detail names the field says it once (an extension without the reasons a pack requires)', async () => {
      const ccpa = await ok(['requests', 'create', '--jurisdiction', 'US-CA', '--channel', 'email', '--type', 'deletion', '--text', 'Please delete my data.']);
      const refused = await fails(['extend', ccpa.id]);
      expect({ code: refused.code, error: refused.error.code }).toEqual({ code: 2, error: 'SVC-BE-1509' });
      const detail = 'us-ca-ccpa requires the reasons for the delay to be given with the extension.';
      expect(refused.run.json.error).toEqual({ code: 'SVC-BE-1509', message: detail, requestId: expect.any(String) });
      const table = await dsar(['extend', ccpa.id, '-o', 'table']);
      expect(table.stderr.split(detail)).toHaveLength(2);
    }, 60_000);

    it('1: a usage error, and a missing token, send nothing', async () => {
      const noArg = await fails(['requests', 'get']);
      expect(noArg.run.json).toEqual({ ok: false, error: { code: 'CLI-USAGE', message: "missing required argument 'idOrReference'" }, meta: { command: 'requests get' } });
      expect(noArg.code).toBe(1);
      expect((await fails(['requests', 'lst'])).code).toBe(1);
      const notNumber = await fails(['requests', 'list', '--limit', 'ten']);
      expect({ code: notNumber.code, error: notNumber.error.code }).toEqual({ code: 1, error: 'CLI-USAGE' });
      const required = await fails(['appeals', 'create', id]);
      expect({ code: required.code, error: required.error }).toEqual({ code: 1, error: { code: 'CLI-USAGE', message: '--message is required (or give message in --data)' } });
      const badData = await fails(['requests', 'create', '--data', '{not json']);
      expect({ code: badData.code, error: badData.error.code }).toEqual({ code: 1, error: 'CLI-USAGE' });
      const noFile = await fails(['requests', 'create', '--data', '@nowhere.json']);
      expect({ code: noFile.code, error: noFile.error.code }).toEqual({ code: 1, error: 'CLI-FILE' });

      const noToken = await fails(['requests', 'list'], { token: null });
      expect(noToken.code).toBe(1);
      expect(noToken.error.code).toBe('CLI-NO-TOKEN');
      expect(noToken.error.message).toMatch(/--token .*DSAR_TOKEN/);
    });

    it('3: the server unreachable (after retries), or failing with a 5xx', async () => {
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((r) => closed.close(r));
      const down = await fails(['requests', 'list', '--retry', '1'], { env: { DSAR_BASE_URL: `http://127.0.0.1:${port}/api/v1` } });
      expect(down.code).toBe(3);
      expect(down.error.code).toBe('CLI-NETWORK');
      expect(down.error.message).toContain(`cannot reach the DSAR API at http://127.0.0.1:${port}/api/v1: connection refused (ECONNREFUSED)`);

      // A server that fails: the problem's code passes through; the call was tried 1 + --retry times.
      let calls = 0;
      const failing = http.createServer((_req, res) => {
        calls++;
        res.writeHead(503, { 'content-type': 'application/problem+json' });
        res.end(
          JSON.stringify({
            type: 'https://dsar.dev/problems/service-unavailable',
            title: 'Service unavailable',
            status: 503,
            detail: 'lifecycle-clock is not reachable.',
            code: 'SVC-BE-1001',
            name: 'SERVICE_UNAVAILABLE',
          }),
        );
      });
      await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
      try {
        const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/api/v1`;
        const failed = await fails(['requests', 'list', '--retry', '2', '--verbose', '--base-url', url]);
        expect({ code: failed.code, error: failed.error }).toEqual({ code: 3, error: { code: 'SVC-BE-1001', message: 'lifecycle-clock is not reachable.' } });
        expect(calls).toBe(3);
        expect(failed.run.stderr).toContain('retrying in 200 ms (SVC-BE-1001)');
      } finally {
        await new Promise((r) => failing.close(r));
      }
    });

    it('logs each call with --verbose on standard error, never the token', async () => {
      const run = await dsar(['requests', 'get', id, '--verbose']);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(new RegExp(`^> GET ${base().replace(/[.]/g, '\\.')}/requests/${id}\\n< 200 in \\d+ ms {2}x-request-id=[\\w-]+\\n$`));
      expect(run.stderr + run.stdout).not.toContain(KEYS.adminA.token);
    });
  });

  describe('token precedence', () => {
    it('--token wins over DSAR_TOKEN, before or after the command', async () => {
      const { id } = await ok(['requests', 'create', ...intakeFlags()]);
      // Tenant B's key cannot see tenant A's request.
      expect((await fails(['requests', 'get', id], { token: KEYS.operatorB.token })).error.code).toBe('SVC-BE-1003');
      expect(await ok(['requests', 'get', id, '--token', KEYS.adminA.token], { token: KEYS.operatorB.token })).toMatchObject({ id });
      expect(await ok(['--token', KEYS.adminA.token, 'requests', 'get', id], { token: KEYS.operatorB.token })).toMatchObject({ id });
      expect((await fails(['--token', KEYS.operatorB.token, 'requests', 'get', id])).code).toBe(2);
    });
  });

  describe('idempotency', () => {
    /** A proxy in front of the gateway that drops the connection of the first POST after the gateway has answered it. */
    async function droppingProxy(): Promise<{ url: string; posts: Array<{ key: string | undefined; answer: any }>; close: () => Promise<void> }> {
      const posts: Array<{ key: string | undefined; answer: any }> = [];
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          const headers: Record<string, string> = {};
          for (const name of ['authorization', 'content-type', 'idempotency-key', 'accept']) if (req.headers[name]) headers[name] = String(req.headers[name]);
          const upstream = await fetch(`${getSystem().gatewayUrl}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
          const text = await upstream.text();
          if (req.method === 'POST') posts.push({ key: headers['idempotency-key'], answer: JSON.parse(text) });
          if (req.method === 'POST' && posts.length === 1) {
            req.socket.destroy(); // the answer is lost on the way back
            return;
          }
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json', 'idempotent-replayed': upstream.headers.get('idempotent-replayed') ?? 'false' });
          res.end(text);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, posts, close: () => new Promise((r) => server.close(() => r())) };
    }

    const queueTotal = async () => (await admin.as(KEYS.queueC.token).get('/requests')).body.total as number;

    it('a create whose answer was lost is retried with the same key, and makes one request', async () => {
      expect(await queueTotal()).toBe(0);
      const proxy = await droppingProxy();
      try {
        const run = await dsar(['requests', 'create', ...intakeFlags(), '--retry', '2', '--verbose', '--base-url', proxy.url], { token: KEYS.queueC.token });
        expect(run.code).toBe(0);
        expect(proxy.posts).toHaveLength(2);
        expect(proxy.posts[0].key).toMatch(/^[0-9a-f-]{36}$/);
        expect(proxy.posts[1].key).toBe(proxy.posts[0].key);
        expect(run.json.data).toEqual(proxy.posts[0].answer);
        expect(run.stderr).toContain('idempotent-replayed=true');
      } finally {
        await proxy.close();
      }
      expect(await queueTotal()).toBe(1);
    });

    it('--idempotency-key makes a repeated create answer the first request', async () => {
      const key = `cli-test-${randomBytes(8).toString('hex')}`;
      // The same request: the receipt time is given (its default, now, would differ between two runs).
      const same = [...intakeFlags(), '--received-at', getSystem().clock.daysAgo(1), '--idempotency-key', key];
      const first = await ok(['requests', 'create', ...same], { token: KEYS.queueC.token });
      const again = await dsar(['requests', 'create', ...same, '-v'], { token: KEYS.queueC.token });
      expect(again.json.data).toEqual(first);
      expect(again.stderr).toContain(`idempotency-key=${key}`);
      expect(await queueTotal()).toBe(2);
      const other = await fails(['requests', 'create', ...intakeFlags('Delete all my data.'), '--idempotency-key', key], { token: KEYS.queueC.token });
      expect({ code: other.code, error: other.error.code }).toEqual({ code: 2, error: 'SVC-BE-1106' });
    });
  });

  describe('requests', () => {
    it('create and capture from flags, --data @file and --data - (stdin); get, timeline and clock', async () => {
      const body = intake({ requestType: 'deletion' }, { receivedAt: getSystem().clock.daysAgo(1) });
      writeFileSync(join(work, 'request.json'), JSON.stringify(body));
      const fromFile = await ok(['requests', 'capture', '--data', '@request.json']);
      expect(Object.keys(fromFile).sort()).toEqual(['dueAt', 'id', 'receivedAt', 'status']);
      const fromStdin = await ok(['requests', 'capture', '--data', '-', '--type', 'rectification'], { input: JSON.stringify(body) });
      expect((await admin.get(`/requests/${fromStdin.id}`)).body.requestType).toBe('rectification');
      expect(await ok(['requests', 'get', fromFile.id])).toMatchObject({ id: fromFile.id, requestType: 'deletion', dueAt: fromFile.dueAt });
      expect((await ok(['requests', 'timeline', fromFile.id])).events[0]).toMatchObject({ eventType: 'request_created' });
      expect(await ok(['requests', 'clock', fromFile.id])).toMatchObject({ requestId: fromFile.id, finalDueAt: fromFile.dueAt, policyPack: 'eu-gdpr' });
    });

    it('list filters like the queue, and --all follows every page', async () => {
      const as = { token: KEYS.operatorB.token };
      for (let i = 0; i < 3; i++) await ok(['requests', 'create', ...intakeFlags()], as);
      const page = await ok(['requests', 'list', '--limit', '2', '--status', 'received,in_progress', '--sort-by', 'dueAt', '--sort-order', 'asc'], as);
      expect(page).toMatchObject({ limit: 2, offset: 0, sortBy: 'dueAt', sortOrder: 'asc', status: ['received', 'in_progress'], total: 3 });
      expect(page.items).toHaveLength(2);
      const all = await ok(['requests', 'list', '--all', '--limit', '1', '--verbose'], as);
      expect(all.total).toBe(3);
      expect(new Set(all.items.map((i: { id: string }) => i.id)).size).toBe(3);
      expect(all).not.toHaveProperty('offset');
    });

    it('get takes a reference; list filters by type, jurisdiction, channel, receipt range and reference, and checks them before sending', async () => {
      const as = { token: KEYS.operatorB.token };
      // Received (and recorded) 20 days ago, a time no other request of these scenarios has.
      const capture = async (jurisdiction: string, type: string, channel: string, daysAgo: number) => {
        const at = getSystem().clock.daysAgo(daysAgo);
        const text = 'Please send me a copy of all personal data you hold about me.';
        return ok(['requests', 'capture', '--jurisdiction', jurisdiction, '--type', type, '--channel', channel, '--text', text, '--received-at', at, '--recorded-at', at], as);
      };
      const deletion = await capture('FR', 'deletion', 'web_form', 20.2);
      await capture('DE', 'access', 'email', 20.1);
      const reference = `DSAR-${String(deletion.id).slice(0, 8).toUpperCase()}`;
      expect(await ok(['requests', 'get', reference.toLowerCase()], as)).toEqual(await ok(['requests', 'get', deletion.id], as));
      const range = ['--received-from', getSystem().clock.daysAgo(21), '--received-to', getSystem().clock.daysAgo(20)];
      expect(await ok(['requests', 'list', ...range], as)).toMatchObject({ total: 2, totalExact: true });
      const filtered = await ok(['requests', 'list', ...range, '--type', 'deletion,portability', '--jurisdiction', 'fr', '--channel', 'web_form'], as);
      expect(filtered).toMatchObject({ requestType: ['deletion', 'portability'], jurisdiction: ['FR'], channel: ['web_form'], total: 1, totalExact: true });
      expect(filtered.items.map((i: { id: string }) => i.id)).toEqual([deletion.id]);
      expect(await ok(['requests', 'list', '--reference', reference], as)).toMatchObject({ reference, total: 1, items: [{ id: deletion.id }] });
      // A value the queue does not take is a usage error (exit 1): nothing is sent.
      for (const bad of [
        ['--type', 'refund'],
        ['--jurisdiction', 'DE,XX'],
        ['--channel', 'fax'],
      ]) {
        const run = await dsar(['requests', 'list', ...bad], as);
        expect({ bad, code: run.code }).toEqual({ bad, code: 1 });
      }
      // One the server refuses answers its 400 (exit 2), naming the parameter.
      const refused = await fails(['requests', 'list', '--reference', 'DSAR-123'], as);
      expect(refused.code).toBe(2);
      expect(refused.error.code).toBe('SVC-BE-1102');
    }, 120_000);

    it('lists the triage queue and names the type of a request in it', async () => {
      const as = { token: KEYS.operatorB.token };
      const at = getSystem().clock.daysAgo(30.5);
      const range = ['--received-from', getSystem().clock.daysAgo(31), '--received-to', getSystem().clock.daysAgo(30)];
      // No type, and words no rule reads: captured in triage.
      const question = await ok(
        ['requests', 'capture', '--jurisdiction', 'DE', '--channel', 'email', '--text', 'Hello, I have a question about my order.', '--received-at', at, '--recorded-at', at],
        as,
      );
      await ok(
        ['requests', 'capture', '--jurisdiction', 'DE', '--type', 'access', '--channel', 'email', '--text', 'Hello, I have a question about my order.', '--received-at', at, '--recorded-at', at],
        as,
      );
      expect(await ok(['requests', 'list', ...range, '--triage'], as)).toMatchObject({ triage: true, total: 1, items: [{ id: question.id, requestType: null, triage: true }] });
      expect(await ok(['requests', 'list', ...range, '--no-triage'], as)).toMatchObject({ triage: false, total: 1 });
      expect(await ok(['requests', 'get', question.id], as)).toMatchObject({ requestType: null, triage: { reason: 'no_rule_matched' } });
      await ok(['requests', 'correct', question.id, '--type', 'access', '--reason', 'The customer asks what we hold about them.'], as);
      expect(await ok(['requests', 'list', ...range, '--triage'], as)).toMatchObject({ total: 0 });
      expect(await ok(['requests', 'get', question.id], as)).toMatchObject({ requestType: 'access', triage: null });
      // Closed: the later scenarios count this tenant's open requests at risk.
      for (const { id } of (await ok(['requests', 'list', ...range], as)).items as Array<{ id: string }>) expect(await ok(['close', id], as)).toMatchObject({ status: 'closed' });
    }, 120_000);

    it('watch shows the at-risk and overdue requests, one refresh per line without a terminal', async () => {
      const late = await ok(['requests', 'capture', ...intakeFlags(), '--received-at', getSystem().clock.daysAgo(45)], { token: KEYS.operatorB.token });
      const run = await dsar(['requests', 'watch', '--count', '2', '--interval', '1', '--at-risk-days', '3'], { token: KEYS.operatorB.token });
      expect(run.code).toBe(0);
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ ok: true, meta: { command: 'requests watch' }, data: { atRiskDays: 3, overdue: 1, total: 1 } });
      expect(lines[0].data.items).toEqual([expect.objectContaining({ id: late.id, overdue: true })]);
      const table = await dsar(['requests', 'watch', '--count', '1', '-o', 'table'], { token: KEYS.operatorB.token });
      expect(table.stdout).toMatch(new RegExp(`At risk \\(due within 7 days\\) and overdue: 1 open, 1 overdue\\.[^\\n]*\\n\\n.*\\n${late.id} +received .* overdue \\d+d`));
    });
  });

  describe('identity search and duplicates', () => {
    // Tenant C: no other scenario of this file has requests there, so a person's requests and the marked ones are these.
    const as = { token: KEYS.queueC.token };
    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((i) => i.id).sort();
    // Received (and recorded) that many days ago: the queue's receipt range reads the recorded time.
    const capture = (daysAgo: number, ...flags: string[]) =>
      ok(
        [
          'requests',
          'capture',
          '--jurisdiction',
          'DE',
          '--type',
          'access',
          '--channel',
          'email',
          '--text',
          'I would like a copy of the personal data you keep on me.',
          '--received-at',
          getSystem().clock.daysAgo(daysAgo),
          '--recorded-at',
          getSystem().clock.daysAgo(daysAgo),
          ...flags,
        ],
        as,
      );

    it('find takes an email address in any spelling; the later request of the person is marked, listed with --duplicate', async () => {
      const first = await capture(3, '--requestor-name', 'Ada Byron', '--requestor-email', 'ada@example.org');
      const later = await capture(2, '--contact', 'ADA@example.ORG');
      // Another person's request: neither found nor marked.
      const other = await capture(2.5, '--requestor-email', 'grace@example.org');

      const spelled = await ok(['requests', 'find', '--email', 'Ada@Example.org '], as);
      const plain = await ok(['requests', 'find', '--email', 'ada@example.org'], as);
      expect(ids(spelled)).toEqual([first.id, later.id].sort());
      expect(ids(plain)).toEqual(ids(spelled));
      expect(plain).toMatchObject({ identityKind: 'email', total: 2, totalExact: true });
      const byId = new Map((plain.items as Array<{ id: string; duplicateOf: string | null }>).map((i) => [i.id, i.duplicateOf]));
      expect({ first: byId.get(first.id), later: byId.get(later.id) }).toEqual({ first: null, later: first.id });
      expect(ids(await ok(['requests', 'find', '--email', 'ada@example.org', '--duplicate'], as))).toEqual([later.id]);
      expect(ids(await ok(['requests', 'find', '--email', 'grace@example.org', '--no-duplicate'], as))).toEqual([other.id]);

      const range = ['--received-from', getSystem().clock.daysAgo(3.5), '--received-to', getSystem().clock.daysAgo(1.5)];
      expect(await ok(['requests', 'list', ...range, '--duplicate'], as)).toMatchObject({ duplicate: true, total: 1, items: [{ id: later.id, duplicateOf: first.id }] });
      expect(ids(await ok(['requests', 'list', ...range, '--no-duplicate'], as))).toEqual([first.id, other.id].sort());
      expect(await ok(['requests', 'get', later.id], as)).toMatchObject({
        duplicate: { of: first.id, state: 'marked', matchedKinds: ['email'] },
        identityActivity: { requests: 2, windowDays: 30 },
      });

      // The table shows whom each request duplicates; the address is on the command line only, not in what the CLI prints.
      const table = await dsar(['requests', 'find', '--email', 'Ada@Example.org', '--verbose', '-o', 'table'], as);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(new RegExp(`\\n${later.id} +received +access .* ${first.id}\\n`));
      expect(table.stderr).toContain('identity=[REDACTED]&identityKind=email');
      expect(`${table.stdout}${table.stderr}`.toLowerCase()).not.toContain('ada@example.org');
      // A value that is no email address is the server's 422, naming the parameter and not repeating the value.
      const invalid = await fails(['requests', 'find', '--email', 'ada-at-example.org'], as);
      expect({ code: invalid.code, error: invalid.error.code }).toEqual({ code: 2, error: 'SVC-BE-1414' });
      expect(invalid.error.message).toContain('identity');
      expect(invalid.run.stdout + invalid.run.stderr).not.toContain('ada-at-example.org');
      expect((await dsar(['requests', 'find', '--status', 'received'], as)).code).toBe(1);
    }, 120_000);

    it('duplicate --separate keeps a marked request as its own, --confirm refuses it as a duplicate; a decided one answers 409', async () => {
      const first = await capture(5, '--requestor-email', 'lin.wei@example.net');
      const separate = await capture(4.5, '--contact', 'Lin.Wei@Example.net');
      const confirm = await capture(4, '--requestor-email', 'LIN.WEI@example.net');
      const marked = await ok(['requests', 'find', '--email', 'lin.wei@example.net', '--duplicate'], as);
      expect(ids(marked)).toEqual([separate.id, confirm.id].sort());
      expect(marked.items.map((i: { duplicateOf: string }) => i.duplicateOf)).toEqual([first.id, first.id]);

      expect(await ok(['requests', 'duplicate', separate.id, '--separate', '--reason', 'Two accounts: this request is about the business one.'], as)).toMatchObject({
        id: separate.id,
        status: 'received',
      });
      expect(await ok(['requests', 'get', separate.id], as)).toMatchObject({ status: 'received', duplicate: { of: first.id, state: 'separated' } });
      expect(await ok(['requests', 'duplicate', confirm.id, '--confirm', '--reason', 'The same request, sent again a day later.'], as)).toMatchObject({
        id: confirm.id,
        status: 'refused',
      });
      expect(await ok(['requests', 'get', confirm.id], as)).toMatchObject({ status: 'refused', statusReason: 'duplicate', duplicate: { of: first.id, state: 'confirmed' } });
      // Confirmed is still a duplicate in the queue; separated is not.
      expect(ids(await ok(['requests', 'find', '--email', 'lin.wei@example.net', '--duplicate'], as))).toEqual([confirm.id]);
      expect(ids(await ok(['requests', 'find', '--email', 'lin.wei@example.net', '--no-duplicate'], as))).toEqual([first.id, separate.id].sort());

      // A request not waiting for a decision: the problem as every refusal shows it, exit 2.
      const again = await fails(['requests', 'duplicate', separate.id, '--confirm', '--reason', 'Changed my mind.'], as);
      expect(again.run.json).toEqual({ ok: false, error: { code: 'SVC-BE-1413', message: expect.any(String), requestId: expect.any(String) }, meta: { command: 'requests duplicate' } });
      expect(again.code).toBe(2);
      const never = await fails(['requests', 'duplicate', first.id, '--separate', '--reason', 'Not a duplicate.', '-o', 'table'], as);
      expect({ code: never.code, stderr: never.run.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/^dsar requests duplicate: SVC-BE-1413: .+ \(request id [\w-]+\)\n$/) });
      expect((await dsar(['requests', 'duplicate', first.id, '--confirm', '--separate', '--reason', 'Both.'], as)).code).toBe(1);
    }, 120_000);
  });

  describe('the workflow of a request', () => {
    it('acknowledge, clarify, extend, clock, requestor, authority, refuse, appeals, close', async () => {
      const { id } = await ok(['requests', 'create', ...intakeFlags()]);
      expect(await ok(['acknowledge', id, '--message', 'We have your request.'])).toMatchObject({ id, status: 'in_progress' });
      expect(await ok(['clarify', 'request', id, '--message', 'Which account do you mean?'])).toMatchObject({ status: 'clarification_pending' });
      expect(await ok(['clarify', 'receive', id, '--message', 'The one with jane@example.org'])).toMatchObject({ status: 'in_progress' });
      const extended = await ok(['extend', id, '--months', '1', '--justification', 'complexity', '--reason', 'Your request covers many systems.']);
      expect(Date.parse(extended.dueAt)).toBeGreaterThan(Date.parse(extended.previousDueAt));
      // Verification suspends a DE clock; a fee pause would leave it running (the pack's rule is `ignore`).
      expect(await ok(['clock', 'pause', id, '--reason', 'verification', '--note', 'Proof of identity asked by letter'])).toMatchObject({ clockState: 'paused' });
      expect(await ok(['clock', 'resume', id])).toMatchObject({ clockState: 'running' });
      expect((await ok(['clock', 'explain', id])).extensions).toHaveLength(1);
      expect(await ok(['requestor', 'set', id, '--type', 'authorized_agent', '--name', 'Sam Lee', '--relation', 'attorney'])).toMatchObject({ id });
      await ok(['authority', 'submit', id, '--status', 'submitted', '--evidence', 'power_of_attorney=dms://poa/17']);
      await ok(['authority', 'approve', id, '--note', 'Signed POA checked']);
      const detail = await admin.get(`/requests/${id}`);
      expect(detail.body).toMatchObject({
        requestor: { type: 'authorized_agent', name: 'Sam Lee' },
        authority: { status: 'verified', evidenceArtifacts: [{ type: 'power_of_attorney', reference: 'dms://poa/17' }] },
      });
      expect(await ok(['refuse', id, '--reason', 'duplicate', '--rationale', 'Same as an earlier request'])).toMatchObject({ status: 'refused' });
      const appeal = await ok(['appeals', 'create', id, '--message', 'It is not a duplicate.', '--grounds', 'Different account']);
      expect(appeal).toMatchObject({ requestId: id, status: 'appeal_submitted' });
      expect(await ok(['appeals', 'list', id])).toEqual([expect.objectContaining({ id: appeal.appealId, status: 'appeal_submitted' })]);
      expect(await ok(['appeals', 'decide', id, appeal.appealId, '--decision', 'deny', '--explanation', 'It is the same account.'])).toMatchObject({ decision: 'deny', status: 'appeal_decided' });
      expect(await ok(['close', id])).toMatchObject({ status: 'closed' });
      const rejected = await ok(['requests', 'create', ...intakeFlags()]);
      await ok(['authority', 'submit', rejected.id, '--data', JSON.stringify({ status: 'submitted', evidenceArtifacts: [{ type: 'letter' }] })]);
      await ok(['authority', 'reject', rejected.id, '--reason', 'Unsigned']);
      expect((await admin.get(`/requests/${rejected.id}`)).body.authority.status).toBe('rejected');
    });
  });

  describe('verification', () => {
    it('request, upload evidence, record it, read the case, download the file, approve', async () => {
      const { id } = await ok(['requests', 'create', ...intakeFlags()]);
      expect(await ok(['verification', 'request', id, '--level', 'reasonable', '--method', 'document'])).toMatchObject({ status: 'verification_pending' });
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n% passport scan\n'), randomBytes(40_000)]);
      writeFileSync(join(work, 'passport.pdf'), pdf);
      const uploaded = await ok(['verification', 'upload', id, '--file', 'passport.pdf']);
      expect(uploaded).toMatchObject({ requestId: id, status: 'pending', artifactKey: expect.stringMatching(/^ev_/) });
      // Standard input streams too (without a length, so it cannot be retried).
      const piped = await ok(['verification', 'upload', id, '--file', '-', '--filename', 'scan.pdf', '--content-type', 'application/pdf', '--level', 'enhanced'], { input: pdf });
      expect(piped).toMatchObject({ requestId: id, artifactKey: expect.stringMatching(/^ev_/) });
      await ok(['verification', 'evidence', id, '--level', 'reasonable', '--methods-allowed', 'document', '--evidence', uploaded.artifactKey, '--evidence', 'crm=CASE-118']);
      const vcase = await ok(['verification', 'case', id]);
      expect(vcase).toMatchObject({ status: 'pending', method: 'document' });
      // Two uploads, two records: recording the first upload with its CRM reference completes its record (one record per piece of evidence).
      expect(vcase.evidence).toHaveLength(2);
      expect(JSON.stringify(vcase.evidence)).toContain('scan.pdf');
      expect(JSON.stringify(vcase.evidence)).toContain('CASE-118');
      const saved = await ok(['verification', 'download', id, uploaded.artifactKey, '--out', 'evidence.pdf']);
      expect(saved).toMatchObject({ bytes: pdf.length, sha256: sha256(pdf), status: 200 });
      expect(sha256(readFileSync(join(work, 'evidence.pdf')))).toBe(sha256(pdf));
      expect(await ok(['verification', 'approve', id, '--note', 'Passport matches'])).toMatchObject({ status: 'in_progress' });
      const other = await ok(['requests', 'create', ...intakeFlags()]);
      await ok(['verification', 'request', other.id]);
      expect(await ok(['verification', 'reject', other.id, '--reason', 'no_response'])).toMatchObject({ status: 'refused' });
    });
  });

  describe('fulfilment, delivery and notifications', () => {
    it(`streams a ${BIG_MIB} MiB artifact up and down with a ${HEAP_MIB} MiB heap, then replaces, approves, fulfils and delivers it`, async () => {
      const operator = { token: KEYS.operatorA.token };
      const { id } = await ok(['requests', 'create', ...intakeFlags()], operator);
      await ok(['acknowledge', id], operator);

      // A file larger than the CLI's heap, written block by block.
      const big = join(work, 'export.bin');
      const hash = createHash('sha256');
      const file = await open(big, 'w');
      for (let i = 0; i < BIG_MIB; i++) {
        const block = randomBytes(MiB);
        hash.update(block);
        await file.write(block);
      }
      await file.close();
      const bigSha = hash.digest('hex');
      const lowHeap = `--max-old-space-size=${HEAP_MIB}`;

      const idle = await dsar(['requests', 'get', id], { ...operator, nodeOptions: lowHeap, measure: true });
      const up = await dsar(['manifest', 'upload', id, '--file', big, '--type', 'account_data', '--title', 'Account export', '--content-type', 'application/zip'], {
        ...operator,
        nodeOptions: lowHeap,
        measure: true,
      });
      expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: '' });
      const { artifactId } = up.json.data;
      const manifest = await ok(['manifest', 'get', id], operator);
      expect(manifest.artifacts[0]).toMatchObject({ artifactId, size: BIG_MIB * MiB, sha256: bigSha, filename: 'export.bin', title: 'Account export', type: 'account_data' });
      const down = await dsar(['manifest', 'download', id, artifactId, '--out', 'export.out'], { ...operator, nodeOptions: lowHeap, measure: true });
      expect(down.code).toBe(0);
      expect(down.json.data).toMatchObject({ bytes: BIG_MIB * MiB, sha256: bigSha, status: 200 });
      expect(sha256(readFileSync(join(work, 'export.out')))).toBe(bigSha);
      rmSync(join(work, 'export.out'));
      // Streamed: neither transfer holds the file; the process grows by far less than the file's size.
      expect(up.peakRss! - idle.peakRss!).toBeLessThan((BIG_MIB / 2) * MiB);
      expect(down.peakRss! - idle.peakRss!).toBeLessThan((BIG_MIB / 2) * MiB);

      const part = await ok(['manifest', 'download', id, artifactId, '--out', 'part.bin', '--range', '0-1023'], operator);
      expect(part).toMatchObject({ bytes: 1024, status: 206, contentRange: `bytes 0-1023/${BIG_MIB * MiB}` });

      // A redacted replacement; the original stays downloadable by version until fulfilment.
      const redacted = Buffer.from('{"name": "[redacted]"}\n');
      writeFileSync(join(work, 'redacted.json'), redacted);
      expect(await ok(['manifest', 'replace', id, artifactId, '--file', 'redacted.json', '--reason', 'Names of others redacted'], operator)).toMatchObject({ artifactId, replaced: true });
      // The artifact keeps its display name; the redaction is recorded with its reason.
      expect((await ok(['manifest', 'get', id], operator)).artifacts[0]).toMatchObject({
        filename: 'export.bin',
        versionFilename: 'redacted.json',
        redactionsApplied: [expect.objectContaining({ version: 2, reason: 'Names of others redacted' })],
      });
      expect(await ok(['manifest', 'download', id, artifactId, '--version', '1', '--out', 'v1.bin'], operator)).toMatchObject({ bytes: BIG_MIB * MiB, sha256: bigSha });
      rmSync(join(work, 'v1.bin'));
      rmSync(big);
      expect(await ok(['callback', id, '--artifact', `${artifactId}:contact_details,orders`, '--supplementary-info-inline', 'Sources: CRM'], operator)).toMatchObject({ status: 'recorded' });
      // Four eyes: the operator changed the artifacts, the admin reviews them.
      expect((await fails(['manifest', 'validate', id, '--action', 'approved'], operator)).error.code).toBe('SVC-BE-1213');
      expect(await ok(['manifest', 'validate', id, '--action', 'approved', '--comment', 'Checked'])).toMatchObject({ status: 'approved' });
      expect(await ok(['fulfil', id])).toMatchObject({ id, status: 'fulfilled' });

      expect(await ok(['delivery', 'prepare', id, '--channel', 'portal', '--security-level', 'token'])).toMatchObject({
        artifactId,
        artifacts: [expect.objectContaining({ artifactId, filename: 'export.bin', version: 2 })],
        deliveryPrepare: { channel: 'portal' },
      });
      expect(await ok(['delivery', 'verify-address', id, '--email', 'jane@example.org'])).toMatchObject({ verified: true });
      const { token } = await ok(['delivery', 'challenge', id]);
      expect((await fails(['delivery', 'download', id, artifactId, '--delivery-token', 'x'.repeat(43)])).error.code).toBe('SVC-BE-1214');
      expect(await ok(['delivery', 'complete', id, '--delivery-token', token])).toMatchObject({ status: 'completed' });
      expect(await ok(['delivery', 'download', id, artifactId, '--delivery-token', token])).toMatchObject({ requestId: id, artifactId });
      const delivered = await ok(['delivery', 'download', id, artifactId, '--delivery-token', token, '--out', 'delivered.json']);
      expect(delivered).toMatchObject({ bytes: redacted.length, sha256: sha256(redacted) });
      expect(readFileSync(join(work, 'delivered.json'))).toEqual(redacted);
      const logs = await ok(['delivery', 'logs', id]);
      expect(logs.logs.map((g: { eventType: string }) => g.eventType)).toContain('delivery_artifact_delivered');

      const fulfilledNotice = await waitFor(
        'the request_fulfilled notification',
        async () => (await admin.get(`/requests/${id}/notifications`)).body.events?.find((e: { eventType: string }) => e.eventType === 'request_fulfilled'),
        { timeoutMs: 20_000 },
      );
      expect((await ok(['notifications', 'list', id])).events).toContainEqual(expect.objectContaining({ eventId: fulfilledNotice.eventId }));
      expect(await ok(['notifications', 'replay', id, fulfilledNotice.eventId])).toMatchObject({ eventId: fulfilledNotice.eventId, status: 'replayed' });
    });
  });

  describe('audit', () => {
    let id: string;
    beforeAll(async () => {
      id = (await ok(['requests', 'create', ...intakeFlags()])).id;
      await ok(['acknowledge', id]);
      await waitFor('the acknowledgement in the chain', async () => ((await admin.get(`/requests/${id}/audit/export`)).body.headSequence as number) >= 2);
    });

    it('exports a chain and verifies it offline, by the server, and as the server streams it; finds a forged entry', async () => {
      const exported = await ok(['audit', 'export', id, '--out', 'audit.jsonl']);
      const lines = readFileSync(join(work, 'audit.jsonl'), 'utf8').trim().split('\n');
      expect(exported).toMatchObject({ file: 'audit.jsonl', sha256: sha256(readFileSync(join(work, 'audit.jsonl'))), contentType: expect.stringContaining('application/x-ndjson') });
      const head = JSON.parse(lines.at(-1)!);

      // Offline: no token, no server.
      const local = await ok(['audit', 'verify', '--file', 'audit.jsonl', '--expect-root', head.hash], { token: null, env: { DSAR_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
      expect(local).toEqual({ verified: true, source: 'audit.jsonl', requestId: id, entries: lines.length, head: { sequence: head.sequence, hash: head.hash } });
      expect(await ok(['audit', 'verify', id, '--file', 'audit.jsonl', '--server'])).toMatchObject({ verified: true, server: { status: 'verified', checkedEntries: head.sequence } });
      expect(await ok(['audit', 'verify', id])).toMatchObject({ verified: true, source: "the server's export", server: { status: 'verified' } });
      expect(await ok(['audit', 'verify', id, '--hash', head.hash, '--sequence', String(head.sequence)])).toMatchObject({ verified: true, status: 'verified' });

      // The JSON export verifies the same way.
      writeFileSync(join(work, 'audit.json'), (await dsar(['audit', 'export', id])).stdout);
      // (Notifications may have added entries since.)
      expect((await ok(['audit', 'verify', '--file', 'audit.json'], { token: null })).entries).toBeGreaterThanOrEqual(lines.length);

      // One edited entry is named; a hash the server does not hold is refused.
      const forged = lines.map((l, i) => (i === 0 ? JSON.stringify({ ...JSON.parse(l), actor: 'forger' }) : l));
      writeFileSync(join(work, 'forged.jsonl'), `${forged.join('\n')}\n`);
      const broken = await fails(['audit', 'verify', '--file', 'forged.jsonl'], { token: null });
      expect(broken.code).toBe(4);
      expect(broken.error.code).toBe('CLI-CHAIN-INVALID');
      expect(broken.error.message).toContain(`1 finding: sequence 1 (event ${JSON.parse(lines[0]).eventId}): content mismatch`);
      const wrong = await fails(['audit', 'verify', id, '--hash', `sha256:${'ab'.repeat(32)}`, '--sequence', '1']);
      expect({ code: wrong.code, error: wrong.error.code }).toEqual({ code: 4, error: 'CLI-CHAIN-INVALID' });
      expect(wrong.error.message).toContain('hash_mismatch');
    });

    it("verifies the CSV export (the CLI's own --format csv) offline and by the server; an edited one exits 4, a CSV without its columns 1", async () => {
      const exported = await ok(['audit', 'export', id, '--format', 'csv', '--out', 'audit.csv']);
      expect(exported).toMatchObject({ file: 'audit.csv', contentType: expect.stringContaining('text/csv') });
      const text = readFileSync(join(work, 'audit.csv'), 'utf8');
      const rows = text.trimEnd().split('\r\n');
      expect(rows[0]).toBe('sequence,eventId,eventType,occurredAt,recordedAt,actor,source,tenantId,requestId,payload,prevHash,hash');
      const head = /,(sha256:[0-9a-f]{64})$/.exec(rows.at(-1)!)![1];
      const local = await ok(['audit', 'verify', '--file', 'audit.csv', '--expect-root', head], { token: null, env: { DSAR_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
      expect(local).toEqual({ verified: true, source: 'audit.csv', requestId: id, entries: rows.length - 1, head: { sequence: rows.length - 1, hash: head } });
      expect(await ok(['audit', 'verify', id, '--file', 'audit.csv', '--server'])).toMatchObject({ verified: true, server: { status: 'verified', checkedEntries: rows.length - 1 } });

      writeFileSync(join(work, 'forged.csv'), text.replace('dsar.request.created.v1', 'dsar.request.created.v2'));
      const forged = await fails(['audit', 'verify', '--file', 'forged.csv'], { token: null });
      expect({ code: forged.code, error: forged.error.code }).toEqual({ code: 4, error: 'CLI-CHAIN-INVALID' });
      expect(forged.error.message).toContain('1 finding: sequence 1 (event ');
      writeFileSync(join(work, 'partial.csv'), rows.map((r) => r.split(',').slice(0, 5).join(',')).join('\r\n'));
      const partial = await fails(['audit', 'verify', '--file', 'partial.csv'], { token: null });
      expect({ code: partial.code, error: partial.error.code }).toEqual({ code: 1, error: 'CLI-USAGE' });
      expect(partial.error.message).toContain('cannot be verified');
    }, 60_000);

    it('lists, saves and verifies a signed checkpoint against the trusted key, and ties a chain to it', async () => {
      const publisher = getSystem().services.get('audit-ledger')!.app.get(CheckpointPublisher);
      await publisher.run();
      const listed = await ok(['audit', 'checkpoints', 'list', '--limit', '5']);
      const containing = [];
      for (const c of listed) {
        const detail = await admin.get(`/audit/checkpoints/${c.checkpointId}`);
        if (detail.body.leaves.some((l: { requestId: string }) => l.requestId === id)) containing.push(c.checkpointId as string);
      }
      expect(containing.length).toBeGreaterThan(0);
      const checkpointId = containing[0];
      expect(await ok(['audit', 'checkpoints', 'get', checkpointId, '--out', 'checkpoint.json'])).toMatchObject({ checkpointId, tenantId: 'tenant-a' });
      await ok(['audit', 'export', id, '--out', 'chain.jsonl']);

      const verified = await ok(['audit', 'checkpoints', 'verify', '--file', 'checkpoint.json', '--trusted-key-id', publisher.keyId!, '--chain', 'chain.jsonl'], { token: null });
      expect(verified).toMatchObject({ verified: true, checkpointId, trustedKey: true, signatureValid: true, rootMatchesLeaves: true, chain: { requestId: id } });
      expect(await ok(['audit', 'checkpoints', 'verify', checkpointId], { env: { DSAR_AUDIT_KEY_ID: publisher.keyId! } })).toMatchObject({ verified: true });

      const untrusted = await fails(['audit', 'checkpoints', 'verify', '--file', 'checkpoint.json', '--trusted-key-id', `sha256:${'0'.repeat(64)}`], { token: null });
      expect({ code: untrusted.code, error: untrusted.error.code }).toEqual({ code: 4, error: 'CLI-CHECKPOINT-INVALID' });
      const saved = JSON.parse(readFileSync(join(work, 'checkpoint.json'), 'utf8'));
      writeFileSync(join(work, 'tampered.json'), JSON.stringify({ ...saved, leafCount: saved.leafCount + 1 }));
      const tampered = await fails(['audit', 'checkpoints', 'verify', '--file', 'tampered.json', '--trusted-key-id', publisher.keyId!], { token: null });
      expect(tampered.error.message).toContain('the signature does not cover its statement under its key');
      // Without a key the CLI asks the server for its key, which needs a token; with one, the server's key is trusted.
      const keyless = await fails(['audit', 'checkpoints', 'verify', '--file', 'checkpoint.json'], { token: null });
      expect({ code: keyless.code, error: keyless.error.code }).toEqual({ code: 1, error: 'CLI-NO-TOKEN' });
      expect(await ok(['audit', 'checkpoints', 'verify', '--file', 'checkpoint.json'])).toMatchObject({ verified: true, checkpointId, trustedKeyFrom: 'server' });
    });
  });

  describe('policies and completion', () => {
    it('sets a retention policy, reads it back, reports what a sweep would purge, and passes a refusal on', async () => {
      const tenant = KEYS.adminA.tenantId;
      const set = await ok(['retention', 'set', tenant, '--class', 'delivery_log', '--max-days', '180', '--purge']);
      expect(set).toEqual(expect.objectContaining({ tenantId: tenant, class: 'delivery_log', minDays: 30, maxDays: 180, purgeEnabled: true, legalHoldEnabled: false }));
      const held = await ok(['retention', 'set', tenant, '--class', 'delivery_log', '--legal-hold']);
      expect(held).toEqual(expect.objectContaining({ maxDays: 180, purgeEnabled: true, legalHoldEnabled: true }));
      const all = await ok(['retention', 'get', tenant]);
      expect(all.find((p: { class: string }) => p.class === 'delivery_log')).toEqual(held);
      expect(all).toHaveLength(6);
      const report = await ok(['retention', 'report', tenant]);
      expect(report.classes.find((c: { class: string }) => c.class === 'delivery_log')).toEqual(expect.objectContaining({ blockedBy: expect.any(String), records: 0 }));
      const refused = await fails(['retention', 'set', tenant, '--class', 'delivery_log', '--min-days', '200']);
      expect({ code: refused.code, error: refused.error.code }).toEqual({ code: 2, error: 'SVC-BE-1701' });
      const other = await fails(['retention', 'get', 'tenant-b']);
      expect({ code: other.code, error: other.error.code }).toEqual({ code: 2, error: 'SVC-BE-1003' });
    });

    it('lists and reads policy packs (a command may have its own --version)', async () => {
      const packs = await ok(['policies', 'list', '--jurisdiction', 'FR']);
      expect(packs.map((p: { packId: string }) => p.packId)).toContain('eu-gdpr');
      expect(await ok(['policies', 'get', 'eu-gdpr', '--version', packs.find((p: { packId: string }) => p.packId === 'eu-gdpr').version])).toMatchObject({ packId: 'eu-gdpr' });
    });

    it('administers policy packs: registers a custom pack, activates it, upgrades it under four eyes, deactivates it', async () => {
      // A GB pack of tenant A's own (a name no other test uses); tenant A's new GB requests pin it until the deactivation
      // at the end, and no other test of this file files GB requests.
      const tenant = KEYS.adminA.tenantId;
      const pack = (version: string, days: number): PolicyPack => {
        const p = structuredClone(policyPackVersion('uk-gdpr', '1.0.0')!);
        p.packId = 'cli-uk';
        p.version = version;
        p.name = 'CLI test service standard (UK)';
        p.rules.default.period = { amount: days, unit: 'calendar_days', countReceiptDay: false, roll: 'none' };
        return p;
      };

      // --pack @file: name and version come from the pack.
      writeFileSync(join(work, 'cli-uk-1.0.0.json'), JSON.stringify(pack('1.0.0', 20)));
      const registered = await ok([
        'policies',
        'custom',
        'register',
        '--jurisdiction',
        'GB',
        '--pack',
        '@cli-uk-1.0.0.json',
        '--release-type',
        'major',
        '--changelog',
        '20-day response target.',
        '--compatibility-notes',
        'None.',
      ]);
      expect(registered).toEqual({ jurisdiction: 'GB', name: 'cli-uk', status: 'registered', version: '1.0.0' });
      // Four eyes: a version takes effect once an admin other than its registrant approved it.
      const unapproved = await fails(['policies', 'custom', 'activate', '--jurisdiction', 'GB', '--tenant', tenant, '--version', '1.0.0', '--output', 'json']);
      expect({ code: unapproved.code, error: unapproved.error.code }).toEqual({ code: 2, error: 'SVC-BE-1521' });
      const approve = ['policies', 'custom', 'approve', '--jurisdiction', 'GB', '--name', 'cli-uk', '--version', '1.0.0'];
      const ownApproval = await fails([...approve, '--output', 'json']);
      expect({ code: ownApproval.code, error: ownApproval.error.code }).toEqual({ code: 2, error: 'SVC-BE-1522' });
      expect(await ok([...approve, '--token', KEYS.approverA.token])).toMatchObject({ jurisdiction: 'GB', name: 'cli-uk', version: '1.0.0', status: 'approved' });
      expect(await ok(['policies', 'custom', 'activate', '--jurisdiction', 'GB', '--tenant', tenant, '--version', '1.0.0'])).toEqual({
        jurisdiction: 'GB',
        name: 'cli-uk',
        status: 'activated',
        tenantId: tenant,
        version: '1.0.0',
        workspaceId: null,
      });
      const custom = async () => (await ok(['policies', 'list', '--jurisdiction', 'GB'])).filter((p: { source: string }) => p.source === 'custom');
      expect(await custom()).toEqual([expect.objectContaining({ packId: 'cli-uk', version: '1.0.0', activatedFor: { jurisdiction: 'GB', workspaceId: null } })]);

      // --data @file: the whole registration.
      const registration = {
        jurisdiction: 'GB',
        name: 'cli-uk',
        version: '1.1.0',
        pack: pack('1.1.0', 15),
        metadata: { changelog: '15-day response target.', compatibilityNotes: 'None.', releaseType: 'minor' },
      };
      writeFileSync(join(work, 'cli-uk-1.1.0.json'), JSON.stringify(registration));
      expect(await ok(['policies', 'custom', 'register', '--data', '@cli-uk-1.1.0.json'])).toEqual({ jurisdiction: 'GB', name: 'cli-uk', status: 'registered', version: '1.1.0' });
      expect(await ok(['policies', 'custom', 'approve', '--jurisdiction', 'GB', '--name', 'cli-uk', '--version', '1.1.0', '--token', KEYS.approverA.token])).toMatchObject({ status: 'approved' });

      const proposed = await ok(['policies', 'upgrades', 'propose']);
      expect(proposed).toEqual({ proposalId: expect.any(String), status: 'pending_approval' });
      const id: string = proposed.proposalId;
      expect(await ok(['policies', 'upgrades', 'get', id])).toMatchObject({
        proposalId: id,
        tenantId: tenant,
        status: 'pending_approval',
        repinOpenRequests: false,
        changes: [{ source: 'custom', packId: 'cli-uk', jurisdiction: 'GB', workspaceId: null, from: '1.0.0', to: '1.1.0', changelog: expect.stringContaining('15-day response target.') }],
      });
      expect((await ok(['policies', 'upgrades', 'list', '--status', 'pending_approval'])).map((p: { proposalId: string }) => p.proposalId)).toContain(id);
      const badStatus = await fails(['policies', 'upgrades', 'list', '--status', 'done']);
      expect({ code: badStatus.code, error: badStatus.error.code }).toEqual({ code: 1, error: 'CLI-USAGE' });

      // Four eyes: the proposer may not approve; the second admin does, by --token.
      const own = await fails(['policies', 'upgrades', 'approve', id, '--output', 'json']);
      expect(own.code).toBe(2);
      expect(own.run.json).toEqual({ ok: false, error: { code: 'SVC-BE-1513', message: expect.any(String), requestId: expect.any(String) }, meta: { command: 'policies upgrades approve' } });
      expect(await ok(['policies', 'upgrades', 'approve', id, '--token', KEYS.approverA.token])).toEqual({ proposalId: id, status: 'approved' });
      expect(await ok(['policies', 'upgrades', 'apply', id])).toEqual({ proposalId: id, status: 'applied' });
      const applied = await ok(['policies', 'upgrades', 'get', id]);
      expect(applied).toMatchObject({ status: 'applied', approvedBy: expect.any(String), appliedBy: expect.any(String) });
      expect(applied.approvedBy).not.toBe(applied.proposedBy);
      expect(await custom()).toEqual([expect.objectContaining({ packId: 'cli-uk', version: '1.1.0' })]);

      expect(await ok(['policies', 'custom', 'deactivate', '--tenant', tenant, '--jurisdiction', 'GB'])).toEqual({ status: 'deactivated', tenantId: tenant, workspaceId: null, jurisdictions: ['GB'] });
      expect(await custom()).toEqual([]);
    });

    it('prints completion scripts for bash and zsh, and refuses another shell', async () => {
      const bash = await dsar(['completion', 'bash']);
      expect(bash.code).toBe(0);
      expect(bash.stdout).toContain('complete -o default -F _dsar dsar');
      expect((await dsar(['completion', 'zsh'])).stdout).toMatch(/^#compdef dsar\n/);
      expect((await fails(['completion', 'fish'])).code).toBe(1);
    });
  });

  it('runs from a fresh start: compiles its sources into an empty cache, runs from it after, and loads no service code', async () => {
    const cache = tempDir('cli-cache');
    const compiled = () => readdirSync(cache).filter((f) => f.endsWith('.js'));
    // Which modules a run loaded, written by a preload as the process ends.
    const probe = join(tempDir('cli-probe'), 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, Object.keys(require.cache).join('\\n')));\n");
    const loaded = async (args: string[]): Promise<string[]> => {
      const out = join(cache, `../probe-${args.join('-')}.txt`);
      const run = await dsar(args, { env: { DSAR_CLI_CACHE_DIR: cache, PROBE_OUT: out }, nodeOptions: `--require ${probe}` });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: '' });
      return readFileSync(out, 'utf8').split('\n');
    };

    const first = await loaded(['requests', 'list', '--limit', '1']);
    const afterFirst = compiled();
    expect(afterFirst.length).toBeGreaterThan(5);
    // The same command again reads what the first run compiled (swc's compiler is not loaded, only its version read), and adds nothing.
    const again = await loaded(['requests', 'list', '--limit', '1']);
    const swc = (modules: string[]) => modules.filter((m) => /@swc\/core[\w-]*\/.*\.(c?js|node)$/.test(m));
    expect(swc(first).length).toBeGreaterThan(0);
    expect(swc(again)).toEqual([]);
    expect(compiled()).toEqual(afterFirst);
    // A plain call loads the CLI's own modules and a few small packages: no service, NestJS, TypeORM, Kafka or database code,
    // and only the module of its command.
    for (const modules of [first, again]) {
      expect(modules.filter((m) => /node_modules\/(@nestjs|typeorm|kafkajs|pg|@electric-sql|zod|rxjs)\/|libs\/(services|contracts)\//.test(m))).toEqual([]);
      expect(modules.filter((m) => /apps\/dsar\/src\/commands\//.test(m)).map((m) => m.replace(/^.*\//, ''))).toEqual(['requests.ts']);
    }
    const version = await loaded(['--version']);
    expect(version.filter((m) => /apps\/dsar\/src\/commands\//.test(m))).toEqual([]);

    // A cached file that is not its source's compile (the source changed) is compiled again, not run.
    for (const f of compiled()) writeFileSync(join(cache, f), "// dsar-cli stale\nthrow new Error('stale');\n");
    const help = await dsar(['--help'], { env: { DSAR_CLI_CACHE_DIR: cache } });
    expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Exit codes:');
    // A cache that cannot be written costs the compile, nothing else.
    const readOnly = await dsar(['requests', 'list', '--limit', '1'], { env: { DSAR_CLI_CACHE_DIR: '/dev/null/dsar-cli' } });
    expect({ code: readOnly.code, ok: readOnly.json?.ok }).toEqual({ code: 0, ok: true });
  }, 120_000);

  it("is the package's bin: `npx dsar` runs it", async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(resolve(root, pkg.bin.dsar)).toBe(BIN);
    const { stdout } = await promisify(execFile)('npx', ['--no-install', 'dsar', '--version'], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(stdout.trim()).toBe(VERSION);
  });
}

describe('the dsar CLI against an embedded system', () => {
  const storageDir = tempDir('cli-storage');
  // Artifact files go to disk, not to the test process's memory.
  withEmbeddedSystem('cli', cliScenarios, { STORAGE_DIR: storageDir, AUDIT_SIGNING_KEY: newSigningKeyPem(), AUDIT_CHECKPOINT_INTERVAL_MS: 86_400_000 });
});

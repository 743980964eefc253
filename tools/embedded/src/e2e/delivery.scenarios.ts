import { createHash } from 'node:crypto';
import { DeliveryLog } from '@dsar/services/fulfilment-delivery';
import { waitFor } from '@dsar/platform/testing';
import { INTERNAL_API_PREFIX } from '@dsar/contracts';
import type { TestSystem } from './systems';
import { signedInternalHeaders } from './internal-identity';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { clockAllowedActions } from './lifecycle-probe';

type TimelineEvent = { id: string; eventType: string; payload: Record<string, unknown> };
type LogGroup = { eventId: string; eventType: string; attempts: Array<{ attempt: number; at: string; outcome: string; actor: string; detail: string | null; repeats: number; lastAt: string }> };

/** The system's clock when the scenarios start (frozen: each step moves it on purpose). */
export const DELIVERY_START = '2026-06-01T09:00:00.000Z';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TOKEN_HEADER = 'x-delivery-token';
const BYTES = 'application/octet-stream';

/** An artifact's bytes: a PDF-like file of `size` bytes with a marker. */
function artifactBytes(size: number, marker: string): Buffer {
  const head = Buffer.from(`%PDF-1.7\n% ${marker}\n`);
  return Buffer.concat([head, Buffer.alloc(Math.max(size - head.length, 0), `${marker} `)]).subarray(0, size);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Issue [fulfilment] item 8, delivery, end to end through the gateway: prepare,
 * the address check, the step-up gate (missing, wrong, foreign, replaced,
 * uncompleted, expired tokens; the lockout and the new challenge that lifts
 * it; concurrent tries), downloads of the metadata and of the bytes (ranged),
 * the delivery log and its purge. The system's clock is frozen at
 * DELIVERY_START and moved by the scenarios. Requests are fulfilled through
 * the public API: a workspace operator captures, acknowledges and uploads, the
 * tenant admin approves (four eyes) and fulfils.
 */
export function deliveryScenarios(getSystem: () => TestSystem): void {
  let admin: ApiClient;
  let operator: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    operator = admin.as(KEYS.workspaceA.token);
  });

  const now = () => getSystem().clock.now();

  /** A problem answer; for a raw fetch Response, pass its parsed body. */
  function expectProblem(res: ApiResponse | Response, status: number, code: string, body?: Record<string, any>): void {
    const got = res instanceof Response ? body : res.body;
    expect({ status: res.status, code: got?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  /** A request captured by the workspace operator and acknowledged (in_progress). */
  async function openRequest(overrides: Record<string, unknown> = {}, source: Record<string, unknown> = {}): Promise<string> {
    const created = await operator.post('/requests/capture', intake({ jurisdiction: 'DE', ...overrides }, { receivedAt: new Date(now().getTime() - HOUR).toISOString(), ...source }));
    expect(created.status).toBe(202);
    expect((await operator.post(`/requests/${created.body.id}/acknowledgements`, {})).status).toBe(202);
    return created.body.id as string;
  }

  async function uploadArtifact(id: string, bytes: Buffer, filename: string): Promise<string> {
    const res = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/manifest/artifact/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.workspaceA.token}`, 'content-type': BYTES, 'x-artifact-filename': encodeURIComponent(filename), 'x-artifact-content-type': 'application/pdf' },
      body: bytes,
    });
    const body = (await res.json()) as Record<string, any>;
    expect({ status: res.status, body }).toEqual({ status: 202, body: expect.objectContaining({ artifactId: expect.any(String) }) });
    return body.artifactId as string;
  }

  /** A fulfilled access request with one artifact per file (uploaded by the operator, approved and fulfilled by the admin). */
  async function fulfilledRequest(
    files: Array<{ bytes: Buffer; filename: string }>,
    overrides: Record<string, unknown> = {},
    source: Record<string, unknown> = {},
  ): Promise<{ id: string; artifactIds: string[] }> {
    const id = await openRequest(overrides, source);
    const artifactIds: string[] = [];
    for (const f of files) artifactIds.push(await uploadArtifact(id, f.bytes, f.filename));
    const approved = await admin.post(`/requests/${id}/manifest/validate`, { action: 'approved' });
    expect(approved.status).toBe(202);
    const fulfilled = await admin.post(`/requests/${id}/fulfilment`, {});
    expect({ status: fulfilled.status, body: fulfilled.body }).toEqual({ status: 202, body: expect.objectContaining({ status: 'fulfilled' }) });
    return { id, artifactIds };
  }

  const prepare = (id: string, as = admin) => as.post(`/requests/${id}/delivery/prepare`, { channel: 'portal', securityLevel: 'token' });
  const challenge = (id: string, as = admin) => as.call('POST', `/api/v1/requests/${id}/delivery/step-up/challenge`);
  const complete = (id: string, token: string, as = admin) => as.post(`/requests/${id}/delivery/step-up/complete`, { token });
  const logs = async (id: string): Promise<LogGroup[]> => {
    const res = await admin.get(`/requests/${id}/delivery/logs`);
    expect(res.status).toBe(200);
    expect(res.body.requestId).toBe(id);
    return res.body.logs as LogGroup[];
  };
  const outcomes = (groups: LogGroup[], type: string) => groups.find((g) => g.eventType === `delivery_${type}`)?.attempts.map((a) => a.outcome) ?? [];

  /** The metadata (JSON) of a download, with the token when given. */
  function metadata(id: string, artifactId: string, token?: string, as: ApiClient = admin): Promise<ApiResponse> {
    return as.get(`/requests/${id}/artifacts/${artifactId}/download`, { headers: token === undefined ? {} : { [TOKEN_HEADER]: token } });
  }

  /** The bytes of a download (Accept: application/octet-stream), with the token and more headers. */
  function bytesOf(id: string, artifactId: string, token: string, headers: Record<string, string> = {}, as = KEYS.adminA.token): Promise<Response> {
    return fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/artifacts/${artifactId}/download`, { headers: { authorization: `Bearer ${as}`, accept: BYTES, [TOKEN_HEADER]: token, ...headers } });
  }

  async function issue(id: string): Promise<string> {
    const res = await challenge(id);
    expect(res.status).toBe(202);
    return res.body.token as string;
  }

  async function timelineTypes(id: string): Promise<string[]> {
    const events = (await admin.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
    return events.map((e) => e.eventType).filter((t) => t.startsWith('delivery_'));
  }

  const fileA = artifactBytes(200_000, 'ACCOUNT-EXPORT-A');
  const fileB = artifactBytes(5_000, 'TICKETS-B');

  beforeAll(() => getSystem().clock.set(DELIVERY_START));

  describe('prepare', () => {
    it('only a fulfilled request (409 SVC-BE-1401 before), with an artifact (409 SVC-BE-1211 without)', async () => {
      const open = await openRequest();
      expectProblem(await prepare(open), 409, 'SVC-BE-1401');
      // It names what lifecycle-clock's own 409 names for the same request.
      expect((await prepare(open)).body.allowedActions).toEqual(await clockAllowedActions(admin, open));
      // A deletion is fulfilled without a manifest: nothing to deliver.
      const deletion = await openRequest({ requestType: 'deletion' });
      expect((await admin.post(`/requests/${deletion}/fulfilment`, {})).status).toBe(202);
      expectProblem(await prepare(deletion), 409, 'SVC-BE-1211');
      expectProblem(await challenge(deletion), 409, 'SVC-BE-1211');
      expect(await logs(deletion)).toEqual([]);
    });

    it('checks the token before the status: a download from a request not yet fulfilled without a valid token is a 401', async () => {
      const open = await openRequest();
      const artifactId = '00000000-0000-4000-8000-000000000000';
      expectProblem(await metadata(open, artifactId), 401, 'SVC-BE-1214');
      expectProblem(await metadata(open, artifactId, 'x'.repeat(43)), 401, 'SVC-BE-1214');
    });

    it('records the channel and level, answers every artifact (and names the first), and emits dsar.delivery.prepared.v1', async () => {
      const { id, artifactIds } = await fulfilledRequest([
        { bytes: fileA, filename: 'account.pdf' },
        { bytes: fileB, filename: 'tickets.pdf' },
      ]);
      expectProblem(await challenge(id), 409, 'SVC-BE-1211');
      const res = await prepare(id);
      expect(res.status).toBe(202);
      // The manifest's first artifact (by creation time, then id: with this frozen clock, either upload).
      const manifest = await admin.get(`/requests/${id}/manifest`);
      expect(artifactIds).toContain(manifest.body.artifacts[0].artifactId);
      const listed = (manifest.body.artifacts as Array<Record<string, unknown>>).map((a) => ({
        artifactId: a.artifactId,
        filename: a.filename,
        title: a.title,
        type: a.type,
        contentType: a.contentType,
        size: a.size,
        sha256: a.sha256,
        version: a.version,
      }));
      expect(res.body).toEqual({
        requestId: id,
        artifactId: manifest.body.artifacts[0].artifactId,
        // Every artifact the delivery hands out, in the manifest's order, not only the first.
        artifacts: listed,
        deliveryPrepare: { channel: 'portal', securityLevel: 'token', preparedAt: now().toISOString(), preparedBy: expect.stringMatching(/^key:/) },
        surface: 'delivery_prepare',
      });
      expect(listed.map((a) => a.filename).sort()).toEqual(['account.pdf', 'tickets.pdf']);
      const again = await admin.post(`/requests/${id}/delivery/prepare`, { channel: 'email', securityLevel: 'standard' });
      expect(again.body.deliveryPrepare).toMatchObject({ channel: 'email', securityLevel: 'standard' });
      expect(outcomes(await logs(id), 'prepared')).toEqual(['prepared', 'prepared']);
      await waitFor('the prepared events on the timeline', async () => JSON.stringify(await timelineTypes(id)) === JSON.stringify(['delivery_prepared', 'delivery_prepared']));
    });

    it('delivers an artifact replaced for redaction under its display name, the name it was uploaded with', async () => {
      const id = await openRequest();
      const artifactId = await uploadArtifact(id, fileA, 'Konto – Export.pdf');
      const redacted = artifactBytes(150_000, 'REDACTED-A');
      const replaced = await fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/manifest/artifact/${artifactId}/replace`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${KEYS.workspaceA.token}`,
          'content-type': BYTES,
          'x-artifact-filename': 'tmp-redacted-v2.pdf',
          'x-artifact-content-type': 'application/pdf',
          'x-artifact-redaction-reason': encodeURIComponent('Third-party names'),
        },
        body: redacted,
      });
      expect({ status: replaced.status, body: await replaced.json() }).toEqual({ status: 202, body: expect.objectContaining({ artifactId, replaced: true }) });
      expect((await admin.post(`/requests/${id}/manifest/validate`, { action: 'approved' })).status).toBe(202);
      expect((await admin.post(`/requests/${id}/fulfilment`, {})).status).toBe(202);
      const expected = {
        artifactId,
        filename: 'Konto – Export.pdf',
        title: 'Konto – Export.pdf',
        type: 'other',
        contentType: 'application/pdf',
        size: redacted.length,
        sha256: sha256(redacted),
        version: 2,
      };
      expect((await prepare(id)).body).toMatchObject({ artifactId, artifacts: [expected] });
      const token = await issue(id);
      expect((await complete(id, token)).status).toBe(202);
      expect((await metadata(id, artifactId, token)).body.artifact).toMatchObject(expected);
      const bytes = await bytesOf(id, artifactId, token);
      expect(bytes.status).toBe(200);
      expect(bytes.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Konto – Export.pdf')}`);
      expect(Buffer.from(await bytes.arrayBuffer()).equals(redacted)).toBe(true);
    });

    it('refuses a bad body (400)', async () => {
      const open = await openRequest();
      for (const body of [{}, { channel: 'fax', securityLevel: 'token' }, { channel: 'portal', securityLevel: 'high' }, { channel: 'portal', securityLevel: 'token', extra: 1 }]) {
        expectProblem(await admin.post(`/requests/${open}/delivery/prepare`, body), 400, 'SVC-BE-1102');
      }
    });
  });

  describe('the address check', () => {
    it('without an address: whether one is known, masked', async () => {
      const id = await openRequest();
      const res = await admin.call('POST', `/api/v1/requests/${id}/delivery/address/verify`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ requestId: id, email: 'j***@example.org', addressKnown: true, verified: true });
    });

    it('matches trimmed and case-insensitively; folds no plus tag or dot', async () => {
      const id = await openRequest({ requestor: { type: 'subject', email: 'Rene.Doe@Example.org' } });
      const verify = (email: string) => admin.post(`/requests/${id}/delivery/address/verify`, { email });
      expect((await verify('rene.doe@example.org')).body).toEqual({ requestId: id, email: 'rene.doe@example.org', addressKnown: true, verified: true });
      expect((await verify('RENE.DOE@EXAMPLE.ORG')).body).toEqual({ requestId: id, email: 'rene.doe@example.org', addressKnown: true, verified: true });
      // The docs promise trimming: surrounding white space (a pasted address) is no 400, and the answer is trimmed.
      expect(await verify('  Rene.Doe@example.org \t')).toMatchObject({ status: 200, body: { requestId: id, email: 'rene.doe@example.org', addressKnown: true, verified: true } });
      expect((await verify(' renedoe@example.org ')).body).toEqual({ requestId: id, email: 'renedoe@example.org', addressKnown: true, verified: false });
      expect((await verify('rene.doe+dsar@example.org')).body.verified).toBe(false);
      expect((await verify('renedoe@example.org')).body.verified).toBe(false);
      expectProblem(await verify('not an address'), 400, 'SVC-BE-1102');
    });

    it('falls back to an email intake contact; a phone number is no address', async () => {
      const byContact = await openRequest({ requestor: { type: 'subject' } }, { contact: 'jane@example.org' });
      expect((await admin.post(`/requests/${byContact}/delivery/address/verify`, { email: 'JANE@example.org' })).body.verified).toBe(true);
      const none = await openRequest({ requestor: { type: 'subject' } }, { channel: 'phone', contact: '+49 30 1234567' });
      expect((await admin.post(`/requests/${none}/delivery/address/verify`, {})).body).toEqual({ requestId: none, email: null, addressKnown: false, verified: false });
      expect((await admin.post(`/requests/${none}/delivery/address/verify`, { email: 'jane@example.org' })).body.verified).toBe(false);
    });
  });

  describe('the step-up gate and the downloads', () => {
    let id: string;
    let artifactIds: string[];
    let other: { id: string; artifactIds: string[] };
    let token: string;
    let otherToken: string;

    beforeAll(async () => {
      getSystem().clock.set(DELIVERY_START);
      ({ id, artifactIds } = await fulfilledRequest([
        { bytes: fileA, filename: 'Auskunft Jürgen Müller.pdf' },
        { bytes: fileB, filename: 'tickets.pdf' },
      ]));
      other = await fulfilledRequest([{ bytes: fileB, filename: 'other.pdf' }]);
      expect((await prepare(id)).status).toBe(202);
      expect((await prepare(other.id)).status).toBe(202);
    });

    it('issues a 256-bit token valid for exactly 24 hours', async () => {
      const res = await challenge(id);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ requestId: id, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresAt: new Date(now().getTime() + DAY).toISOString() });
      token = res.body.token;
      otherToken = await issue(other.id);
      expect((await complete(other.id, otherToken)).status).toBe(202);
    });

    it('serves nothing without a completed token of this request: none, wrong, foreign, not completed (401)', async () => {
      expectProblem(await metadata(id, artifactIds[0]), 401, 'SVC-BE-1214');
      expectProblem(await metadata(id, artifactIds[0], 'x'.repeat(43)), 401, 'SVC-BE-1214');
      expectProblem(await metadata(id, artifactIds[0], otherToken), 401, 'SVC-BE-1214');
      expectProblem(await metadata(id, artifactIds[0], token), 401, 'SVC-BE-1214');
      const bytes = await bytesOf(id, artifactIds[0], token);
      expectProblem(bytes, 401, 'SVC-BE-1214', (await bytes.json()) as Record<string, any>);
      // The other request's completed token opens only that request.
      expect((await metadata(other.id, other.artifactIds[0], otherToken)).status).toBe(200);
    });

    it('counts wrong tokens: the fifth locks the challenge (403), and then even the right one is refused', async () => {
      for (let i = 1; i <= 4; i++) expectProblem(await complete(id, `wrong-${i}`), 401, 'SVC-BE-1214');
      expectProblem(await complete(id, otherToken), 403, 'SVC-BE-1215');
      expectProblem(await complete(id, token), 403, 'SVC-BE-1215');
      expectProblem(await complete(id, 'wrong-6'), 403, 'SVC-BE-1215');
    });

    it('a new challenge lifts the lock and revokes the old token; the new one completes (again 202)', async () => {
      const old = token;
      token = await issue(id);
      expectProblem(await complete(id, old), 401, 'SVC-BE-1214');
      expect((await complete(id, token)).body).toEqual({ requestId: id, status: 'completed' });
      expect((await complete(id, token)).status).toBe(202);
      expectProblem(await metadata(id, artifactIds[0], old), 401, 'SVC-BE-1214');
    });

    it('downloads the metadata (JSON) with the completed token', async () => {
      const res = await metadata(id, artifactIds[0], token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        requestId: id,
        artifactId: artifactIds[0],
        artifact: {
          artifactId: artifactIds[0],
          filename: 'Auskunft Jürgen Müller.pdf',
          title: expect.any(String),
          type: 'other',
          contentType: 'application/pdf',
          size: fileA.length,
          sha256: sha256(fileA),
          version: 1,
          download: `/api/v1/requests/${id}/artifacts/${artifactIds[0]}/download`,
        },
      });
      // An operator other than the admin downloads with the same token; auditors and intake keys never do (403, before the gate).
      expect((await metadata(id, artifactIds[1], token, admin.as(KEYS.operatorA.token))).status).toBe(200);
      // An id that is not an artifact of this request: 404, after the gate.
      expectProblem(await metadata(id, other.artifactIds[0], token), 404, 'SVC-BE-1003');
    });

    it('downloads the bytes, whole and by range, with their headers', async () => {
      const whole = await bytesOf(id, artifactIds[0], token);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(fileA)).toBe(true);
      expect(Object.fromEntries(whole.headers)).toMatchObject({
        'content-type': BYTES,
        'content-length': String(fileA.length),
        etag: `"${sha256(fileA)}"`,
        'accept-ranges': 'bytes',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      expect(whole.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Auskunft Jürgen Müller.pdf')}`);
      const part = await bytesOf(id, artifactIds[0], token, { range: 'bytes=65530-65545' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 65530-65545/${fileA.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(fileA.subarray(65530, 65546))).toBe(true);
      const tail = await bytesOf(id, artifactIds[1], token, { range: 'bytes=-100' });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer()).equals(fileB.subarray(fileB.length - 100))).toBe(true);
      const unsatisfiable = await bytesOf(id, artifactIds[1], token, { range: `bytes=${fileB.length}-` });
      expect(unsatisfiable.status).toBe(416);
      expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${fileB.length}`);
      await unsatisfiable.arrayBuffer();
      const notModified = await bytesOf(id, artifactIds[1], token, { 'if-none-match': `"${sha256(fileB)}"` });
      expect(notModified.status).toBe(304);
    });

    it('an expired token opens nothing and completes nothing (24 h + 1 ms after issuance)', async () => {
      const issuedAt = now().getTime();
      getSystem().clock.set(new Date(issuedAt + DAY - 1));
      expect((await metadata(id, artifactIds[0], token)).status).toBe(200);
      getSystem().clock.set(new Date(issuedAt + DAY + 1));
      expectProblem(await metadata(id, artifactIds[0], token), 401, 'SVC-BE-1214');
      const bytes = await bytesOf(id, artifactIds[0], token);
      expectProblem(bytes, 401, 'SVC-BE-1214', (await bytes.json()) as Record<string, any>);
      expectProblem(await complete(id, token), 401, 'SVC-BE-1214');
      getSystem().clock.set(DELIVERY_START);
    });

    it('the delivery log shows every try, grouped by event type', async () => {
      const groups = await logs(id);
      expect(groups.map((g) => g.eventType)).toEqual(['delivery_prepared', 'delivery_step_up_issued', 'delivery_step_up_failed', 'delivery_step_up_completed', 'delivery_artifact_delivered']);
      for (const g of groups) {
        expect(g.eventId).toMatch(/^[0-9a-f-]{36}$/);
        expect(g.attempts.map((a) => a.attempt)).toEqual(g.attempts.map((_, i) => i + 1));
        for (const a of g.attempts) expect(a.actor).toMatch(/^key:/);
      }
      expect(outcomes(groups, 'prepared')).toEqual(['prepared']);
      expect(outcomes(groups, 'step_up_issued')).toEqual(['issued', 'issued']);
      expect(outcomes(groups, 'step_up_failed')).toEqual([
        // downloads before completion: no token, a wrong one, another request's, the uncompleted one (metadata, then bytes: one entry)
        'missing_token',
        'wrong_token',
        'wrong_token',
        'not_completed',
        // completion: four wrong tokens, the fifth (another request's) locks, then the right one and a sixth wrong one are locked out (one entry)
        'wrong_token',
        'wrong_token',
        'wrong_token',
        'wrong_token',
        'wrong_token',
        'locked',
        // after the new challenge: the old token at completion (a failure of the new challenge) and at download
        'wrong_token',
        'revoked',
        // expired: metadata and bytes (one entry), completion
        'expired',
        'expired',
      ]);
      const failed = groups.find((g) => g.eventType === 'delivery_step_up_failed')!;
      expect(failed.attempts[0].detail).toBe('download: artifact ' + artifactIds[0] + ': no x-delivery-token');
      expect(failed.attempts[2].detail).toContain('a token of another request');
      expect(failed.attempts[8].detail).toContain('failure 5 of 5, the challenge is now locked');
      expect(failed.attempts[10].detail).toContain('a token of a replaced challenge');
      // The same refusal repeated by the same caller counts in one entry, from its first try to its latest.
      expect(failed.attempts.map((a) => a.repeats)).toEqual([1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 2, 1]);
      expect(failed.attempts[12]).toMatchObject({ outcome: 'expired', detail: expect.stringMatching(/^download: /), lastAt: failed.attempts[12].at });
      expect(outcomes(groups, 'step_up_completed')).toEqual(['ok', 'already_completed']);
      // metadata twice (admin, another operator), the bytes whole and two ranges (the 416 and the 304 serve nothing), metadata a millisecond before expiry
      expect(outcomes(groups, 'artifact_delivered')).toEqual(['metadata', 'metadata', 'bytes', 'bytes', 'bytes', 'metadata']);
      const delivered = groups.find((g) => g.eventType === 'delivery_artifact_delivered')!;
      expect(delivered.attempts[3].detail).toBe(`artifact ${artifactIds[0]} version 1: bytes 65530-65545/${fileA.length}`);
      // The events are on the request's timeline and audit chain: one per log entry, none for a repeat.
      await waitFor('the delivery events on the timeline', async () => (await timelineTypes(id)).length === 1 + 2 + 14 + 1 + 6);
      const events = (await admin.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
      // The log and the timeline name each event alike, by its public name: the CloudEvents type stays on Kafka.
      for (const g of groups) expect(events.find((e) => e.id === g.eventId)?.eventType).toBe(g.eventType);
      expect(events.filter((e) => e.eventType.startsWith('dsar.'))).toEqual([]);
      const lockedEvent = events.filter((e) => e.eventType === 'delivery_step_up_failed')[8];
      expect(lockedEvent.payload).toMatchObject({ during: 'completion', reason: 'wrong_token', failures: 5, locked: true });
      const bytesEvent = events.filter((e) => e.eventType === 'delivery_artifact_delivered')[3];
      expect(bytesEvent.payload).toMatchObject({ artifactId: artifactIds[0], version: 1, bytes: true });
      expect(JSON.stringify(events)).not.toContain(token);
    });
  });

  describe('concurrent tries', () => {
    let id: string;
    beforeAll(async () => {
      getSystem().clock.set(DELIVERY_START);
      ({ id } = await fulfilledRequest([{ bytes: fileB, filename: 'b.pdf' }]));
      expect((await prepare(id)).status).toBe(202);
    });

    it('wrong tokens sent at once all count: exactly five failures, then locked', async () => {
      const right = await issue(id);
      const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => complete(id, `concurrent-wrong-${i}`)));
      expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 403, 403, 403]);
      expectProblem(await complete(id, right), 403, 'SVC-BE-1215');
      const failed = (await logs(id)).find((g) => g.eventType === 'delivery_step_up_failed')!;
      expect(failed.attempts.filter((a) => a.outcome === 'wrong_token')).toHaveLength(5);
    });

    it('two completions at once: both 202, completed once', async () => {
      const right = await issue(id);
      const answers = await Promise.all([complete(id, right), complete(id, right)]);
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      expect(outcomes(await logs(id), 'step_up_completed').sort()).toEqual(['already_completed', 'ok']);
    });
  });

  describe("the person's download page: links, codes and downloads through the public routes", () => {
    const LINK = 'x-delivery-link';
    const SESSION = 'x-portal-session';
    let id: string;
    let artifactIds: string[];
    let other: { id: string; artifactIds: string[] };
    let keys = 0;
    type Issued = { linkId: string; credential: string; code: string; expiresAt: string };

    /** What the notifier asks fulfilment-delivery for (an internal call, signed as the notifier). */
    async function askLink(requestId: string, key: string, principalId = 'system:notifier', language?: string): Promise<{ status: number; body: Record<string, any> }> {
      const url = `${getSystem().services.get('fulfilment-delivery')!.url}${INTERNAL_API_PREFIX}/requests/${requestId}/delivery/link`;
      const principal = { id: principalId, tenantId: KEYS.adminA.tenantId, roles: ['operator'] };
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', url, principal) },
        body: JSON.stringify({ key, ...(language ? { language } : {}) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    }
    async function newLink(requestId = id, language?: string): Promise<Issued> {
      const res = await askLink(requestId, `event-${++keys}`, 'system:notifier', language);
      expect(res.status).toBe(200);
      return res.body as Issued;
    }
    /** A call of the page, as the browser makes it: no token. */
    async function page(method: 'GET' | 'POST', path: string, headers: Record<string, string>, json?: unknown): Promise<{ status: number; body: any; headers: Headers; raw: Response }> {
      const raw = await fetch(`${getSystem().gatewayUrl}/api/v1/portal/deliveries/${path}`, {
        method,
        headers: { ...headers, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: json !== undefined ? JSON.stringify(json) : undefined,
      });
      const type = raw.headers.get('content-type') ?? '';
      const body = type.includes('json') ? await raw.json() : Buffer.from(await raw.arrayBuffer());
      return { status: raw.status, body, headers: raw.headers, raw };
    }
    const view = (l: Issued, credential = l.credential) => page('GET', l.linkId, { [LINK]: credential });
    const enter = (l: Issued, code: unknown, credential = l.credential) => page('POST', `${l.linkId}/code`, { [LINK]: credential }, { code });
    const fetchFile = (l: Issued, session: string | undefined, artifactId: string, extra: Record<string, string> = {}) =>
      page('GET', `${l.linkId}/artifacts/${artifactId}`, { ...(session !== undefined ? { [SESSION]: session } : {}), ...extra });
    const problem = (res: { status: number; body: any; headers: Headers }, status: number, code: string) =>
      expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });

    beforeAll(async () => {
      getSystem().clock.set(DELIVERY_START);
      ({ id, artifactIds } = await fulfilledRequest([
        { bytes: fileA, filename: 'Auskunft Jürgen Müller.pdf' },
        { bytes: fileB, filename: 'tickets.pdf' },
      ]));
      other = await fulfilledRequest([{ bytes: fileB, filename: 'other.pdf' }]);
      expect((await admin.post(`/requests/${id}/delivery/prepare`, { channel: 'email', securityLevel: 'token' })).status).toBe(202);
      expect((await admin.post(`/requests/${other.id}/delivery/prepare`, { channel: 'email', securityLevel: 'token' })).status).toBe(202);
    });

    it('issues one link per notification event: the same key answers the same link and code, a new key a new link that replaces it', async () => {
      const first = await askLink(id, 'event-same', 'system:notifier', 'de');
      expect(first).toEqual({
        status: 200,
        body: {
          requestId: id,
          linkId: expect.any(String),
          credential: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          code: expect.stringMatching(/^[0-9]{8}$/),
          expiresAt: new Date(now().getTime() + DAY).toISOString(),
        },
      });
      expect(await askLink(id, 'event-same')).toEqual(first);
      const link = first.body as Issued;
      const shown = await view(link);
      expect({ status: shown.status, body: shown.body }).toEqual({
        status: 200,
        body: { linkId: link.linkId, reference: `DSAR-${id.slice(0, 8).toUpperCase()}`, language: 'de', expiresAt: link.expiresAt, state: 'code_required', attemptsLeft: 5 },
      });
      const next = await newLink();
      expect(next.linkId).not.toBe(link.linkId);
      problem(await view(link), 410, 'SVC-BE-1218');
      problem(await enter(link, link.code), 410, 'SVC-BE-1218');
      // The replaced link's key still names it (a resend after a crash), and it stays replaced.
      expect((await askLink(id, 'event-same')).body.linkId).toBe(link.linkId);
      expect((await view(next)).body.language).toBe('en');
    });

    it('is asked for by a service of the installation only, for a prepared, fulfilled request of its tenant', async () => {
      expect((await askLink(id, 'event-x', `key:${'0'.repeat(16)}`)).status).toBe(403);
      const open = await openRequest();
      expect((await askLink(open, 'event-open')).body.code).toBe('SVC-BE-1401');
      const unprepared = await fulfilledRequest([{ bytes: fileB, filename: 'c.pdf' }]);
      expect((await askLink(unprepared.id, 'event-unprepared')).body.code).toBe('SVC-BE-1211');
      const url = `${getSystem().services.get('fulfilment-delivery')!.url}${INTERNAL_API_PREFIX}/requests/${id}/delivery/link`;
      const foreign = { id: 'system:notifier', tenantId: KEYS.operatorB.tenantId, roles: ['operator'] };
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', url, foreign) },
        body: '{"key":"k"}',
      });
      expect(res.status).toBe(404);
      expect((await askLink(id, '')).status).toBe(400);
    });

    it('answers the same 404 for an unknown link, a wrong or missing credential and a malformed id, with no token asked for', async () => {
      const link = await newLink();
      const wrong = (await newLink(other.id)).credential;
      for (const res of [
        await view(link, wrong),
        await view(link, ''),
        await page('GET', link.linkId, {}),
        await page('GET', '3f0c7a52-8d4e-4b1f-9a6c-2e5d7b9f1a03', { [LINK]: link.credential }),
        await page('GET', 'not-a-link', { [LINK]: link.credential }),
        await enter(link, link.code, wrong),
      ]) {
        problem(res, 404, 'SVC-BE-1217');
      }
      expect((await view(link)).body.attemptsLeft).toBe(5);
    });

    it('refuses a malformed code with 400 and counts nothing', async () => {
      const link = await newLink();
      for (const code of [undefined, '', '1234567', '123456789', '1234 5678', 'abcdefgh', 12345678, null]) problem(await enter(link, code), 400, 'SVC-BE-1102');
      problem(await page('POST', `${link.linkId}/code`, { [LINK]: link.credential }, { code: link.code, extra: true }), 400, 'SVC-BE-1102');
      const raw = await fetch(`${getSystem().gatewayUrl}/api/v1/portal/deliveries/${link.linkId}/code`, {
        method: 'POST',
        headers: { [LINK]: link.credential, 'content-type': 'application/json' },
        body: '{"code":',
      });
      expect(raw.status).toBe(400);
      expect((await view(link)).body).toMatchObject({ state: 'code_required', attemptsLeft: 5 });
    });

    it('opens once with the right code: a session and the files; the files stream, ranged, only with the session', async () => {
      const link = await newLink();
      problem(await enter(link, link.code === '00000000' ? '00000001' : '00000000'), 401, 'SVC-BE-1214');
      expect((await view(link)).body.attemptsLeft).toBe(4);
      const opened = await enter(link, link.code);
      expect({ status: opened.status, body: opened.body }).toEqual({
        status: 200,
        body: {
          linkId: link.linkId,
          session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          sessionExpiresAt: link.expiresAt,
          artifacts: [
            { artifactId: artifactIds[0], filename: 'Auskunft Jürgen Müller.pdf', title: 'Auskunft Jürgen Müller.pdf', contentType: 'application/pdf', size: fileA.length, sha256: sha256(fileA) },
            { artifactId: artifactIds[1], filename: 'tickets.pdf', title: 'tickets.pdf', contentType: 'application/pdf', size: fileB.length, sha256: sha256(fileB) },
          ].sort((a, b) => opened.body.artifacts.findIndex((x: any) => x.artifactId === a.artifactId) - opened.body.artifacts.findIndex((x: any) => x.artifactId === b.artifactId)),
        },
      });
      const session = opened.body.session as string;
      problem(await enter(link, link.code), 409, 'SVC-BE-1219');
      expect((await view(link)).body.state).toBe('used');

      const whole = await fetchFile(link, session, artifactIds[0]);
      expect(whole.status).toBe(200);
      expect(sha256(whole.body as Buffer)).toBe(sha256(fileA));
      expect(whole.headers.get('content-disposition')).toContain('attachment');
      expect(whole.headers.get('content-type')).toBe(BYTES);
      const part = await fetchFile(link, session, artifactIds[0], { range: 'bytes=0-8' });
      expect({ status: part.status, text: (part.body as Buffer).toString() }).toEqual({ status: 206, text: '%PDF-1.7\n' });

      problem(await fetchFile(link, undefined, artifactIds[0]), 401, 'SVC-BE-1214');
      problem(await fetchFile(link, 'y'.repeat(43), artifactIds[0]), 401, 'SVC-BE-1214');
      problem(await fetchFile(link, session, other.artifactIds[0]), 404, 'SVC-BE-1003');
      // The session opens its own link only.
      const another = await newLink(other.id);
      problem(await fetchFile(another, session, other.artifactIds[0]), 401, 'SVC-BE-1214');
    });

    it('locks after five wrong codes (the fifth is 403), and then refuses the right one too', async () => {
      const link = await newLink(other.id);
      const wrong = link.code === '11111111' ? '22222222' : '11111111';
      for (let i = 1; i <= 4; i++) problem(await enter(link, wrong), 401, 'SVC-BE-1214');
      problem(await enter(link, wrong), 403, 'SVC-BE-1215');
      problem(await enter(link, link.code), 403, 'SVC-BE-1215');
      expect((await view(link)).body).toMatchObject({ state: 'locked', attemptsLeft: 0 });
      // A new link lifts it.
      const fresh = await newLink(other.id);
      expect((await enter(fresh, fresh.code)).status).toBe(200);
    });

    it('counts wrong codes sent at once (exactly five, then locked), and opens once for two right codes at once', async () => {
      const link = await newLink(other.id);
      const wrong = link.code === '33333333' ? '44444444' : '33333333';
      const answers = await Promise.all(Array.from({ length: 8 }, () => enter(link, wrong)));
      expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 403, 403, 403, 403]);
      const failed = (await logs(other.id)).find((g) => g.eventType === 'delivery_step_up_failed')!;
      expect(failed.attempts.filter((a) => a.outcome === 'wrong_token' && a.detail?.includes(link.linkId) !== true).length).toBeGreaterThanOrEqual(5);
      const twice = await newLink(other.id);
      const both = await Promise.all([enter(twice, twice.code), enter(twice, twice.code)]);
      expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    });

    it('expires after 24 hours: the link and its session', async () => {
      // Two requests: a new link of a request replaces its earlier one.
      const link = await newLink(other.id);
      const opened = await newLink();
      const session = (await enter(opened, opened.code)).body.session as string;
      const issuedAt = now().getTime();
      getSystem().clock.set(new Date(issuedAt + DAY - 1));
      expect((await view(link)).status).toBe(200);
      expect((await fetchFile(opened, session, artifactIds[1])).status).toBe(200);
      getSystem().clock.set(new Date(issuedAt + DAY));
      problem(await view(link), 410, 'SVC-BE-1218');
      problem(await enter(link, link.code), 410, 'SVC-BE-1218');
      problem(await fetchFile(opened, session, artifactIds[1]), 410, 'SVC-BE-1218');
      getSystem().clock.set(DELIVERY_START);
    });

    it('records every step in the delivery log, on the timeline and on the audit chain, as the person', async () => {
      const link = await newLink();
      const session = (await enter(link, link.code)).body.session as string;
      expect((await fetchFile(link, session, artifactIds[1])).status).toBe(200);
      const groups = await logs(id);
      const byPerson = groups.flatMap((g) => g.attempts.filter((a) => a.actor === 'subject:download-page').map((a) => `${g.eventType} ${a.outcome}`));
      expect(byPerson).toEqual(expect.arrayContaining(['delivery_step_up_completed ok', 'delivery_artifact_delivered bytes', 'delivery_step_up_failed wrong_token']));
      const issued = groups.find((g) => g.eventType === 'delivery_step_up_issued')!;
      expect(issued.attempts.some((a) => a.actor === 'system:notifier' && a.detail?.startsWith('a link of the download page'))).toBe(true);
      await waitFor('the downloads on the timeline', async () => (await timelineTypes(id)).includes('delivery_artifact_delivered'));
      const chain = (await admin.get(`/requests/${id}/audit/export`)).body;
      expect(chain.events.filter((e: { actor: string }) => e.actor === 'subject:download-page').map((e: { eventType: string }) => e.eventType)).toEqual(
        expect.arrayContaining(['dsar.delivery.step_up_completed.v1', 'dsar.delivery.artifact_delivered.v1']),
      );
      const verified = await admin.post(`/requests/${id}/audit/verify`, { hash: chain.rootHash, sequence: chain.headSequence });
      expect(verified.body).toMatchObject({ verified: true });
    });
  });

  describe('tenancy and roles', () => {
    let id: string;
    let artifactId: string;
    beforeAll(async () => {
      getSystem().clock.set(DELIVERY_START);
      const made = await fulfilledRequest([{ bytes: fileB, filename: 'b.pdf' }]);
      id = made.id;
      artifactId = made.artifactIds[0];
      expect((await prepare(id)).status).toBe(202);
    });

    it('another tenant sees none of it (404)', async () => {
      const b = admin.as(KEYS.operatorB.token);
      expectProblem(await prepare(id, b), 404, 'SVC-BE-1003');
      expectProblem(await b.post(`/requests/${id}/delivery/address/verify`, {}), 404, 'SVC-BE-1003');
      expectProblem(await challenge(id, b), 404, 'SVC-BE-1003');
      expectProblem(await complete(id, 'x', b), 404, 'SVC-BE-1003');
      expectProblem(await metadata(id, artifactId, 'x', b), 404, 'SVC-BE-1003');
      expectProblem(await b.get(`/requests/${id}/delivery/logs`), 404, 'SVC-BE-1003');
      // Nothing of these reached the request's log.
      expect((await logs(id)).map((g) => g.eventType)).toEqual(['delivery_prepared']);
    });

    it('the workflow steps need requests:act (403 for intake and auditor keys)', async () => {
      for (const key of [KEYS.intakeA.token, KEYS.auditorA.token]) {
        const as = admin.as(key);
        expectProblem(await prepare(id, as), 403, 'SVC-BE-1302');
        expectProblem(await as.post(`/requests/${id}/delivery/address/verify`, {}), 403, 'SVC-BE-1302');
        expectProblem(await challenge(id, as), 403, 'SVC-BE-1302');
        expectProblem(await complete(id, 'x', as), 403, 'SVC-BE-1302');
      }
      // Reading the log needs only requests:read.
      expect((await admin.as(KEYS.auditorA.token).get(`/requests/${id}/delivery/logs`)).status).toBe(200);
    });

    it('the download needs artifacts:read as well as the token: auditor and intake keys get 403 even with a completed token', async () => {
      const token = await issue(id);
      expect((await complete(id, token)).status).toBe(202);
      const before = await logs(id);
      for (const key of [KEYS.intakeA.token, KEYS.auditorA.token]) {
        expectProblem(await metadata(id, artifactId, token, admin.as(key)), 403, 'SVC-BE-1302');
        const bytes = await bytesOf(id, artifactId, token, {}, key);
        expectProblem(bytes, 403, 'SVC-BE-1302', (await bytes.json()) as Record<string, any>);
      }
      // Refused before the gate: nothing was served, and nothing reached the log.
      expect(await logs(id)).toEqual(before);
      expect((await bytesOf(id, artifactId, token, {}, KEYS.operatorA.token)).status).toBe(200);
    });
  });

  describe('refusals in a loop', () => {
    let id: string;
    let artifactIds: string[];
    let token: string;
    beforeAll(async () => {
      getSystem().clock.set(DELIVERY_START);
      ({ id, artifactIds } = await fulfilledRequest([
        { bytes: fileB, filename: 'a.pdf' },
        { bytes: fileB, filename: 'b.pdf' },
      ]));
      expect((await prepare(id)).status).toBe(202);
      token = await issue(id);
      expect((await complete(id, token)).status).toBe(202);
    });

    const failedEntries = async () => (await logs(id)).find((g) => g.eventType === 'delivery_step_up_failed')?.attempts ?? [];
    const failedEvents = async () => (await timelineTypes(id)).filter((t) => t === 'delivery_step_up_failed').length;

    it('the same refusal repeated is one entry and one event, counted', async () => {
      const wrong = 'w'.repeat(43);
      for (let i = 0; i < 3; i++) expectProblem(await metadata(id, artifactIds[0], wrong), 401, 'SVC-BE-1214');
      expect(await failedEntries()).toEqual([expect.objectContaining({ outcome: 'wrong_token', repeats: 3, detail: `download: artifact ${artifactIds[0]}: not the challenge's token` })]);
      await waitFor('the refusal on the timeline', async () => (await failedEvents()) === 1);
    });

    it('past DOWNLOAD_REFUSALS_PER_HOUR refusals of a caller: 429 with Retry-After, counted in one entry, whatever is tried', async () => {
      // Seven more refusals, each unlike the one before (other artifact): 10 in all, the default budget.
      for (let i = 0; i < 7; i++) expectProblem(await metadata(id, artifactIds[(i + 1) % 2]), 401, 'SVC-BE-1214');
      for (let i = 0; i < 20; i++) {
        const res = await bytesOf(id, artifactIds[i % 2], i % 3 === 0 ? '' : `guess-${i}`);
        expectProblem(res, 429, 'SVC-BE-1004', (await res.json()) as Record<string, any>);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      }
      const entries = await failedEntries();
      expect(entries.map((e) => [e.outcome, e.repeats])).toEqual([['wrong_token', 3], ...Array.from({ length: 7 }, () => ['missing_token', 1]), ['throttled', 20]]);
      expect(entries[8].detail).toBe('download: more than 10 refused downloads by this caller within an hour; answered 429 until the hour is over');
      await waitFor('one event per entry on the timeline', async () => (await failedEvents()) === 9);
      const events = (await admin.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
      expect(events.filter((e) => e.eventType === 'delivery_step_up_failed').at(-1)?.payload).toMatchObject({ during: 'download', reason: 'throttled' });
    });

    it('the right token is still served, and other callers have budgets of their own', async () => {
      const whole = await bytesOf(id, artifactIds[0], token);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(fileB)).toBe(true);
      expectProblem(await metadata(id, artifactIds[0], 'w'.repeat(43), admin.as(KEYS.operatorA.token)), 401, 'SVC-BE-1214');
      const again = await metadata(id, artifactIds[0], 'w'.repeat(43));
      expectProblem(again, 429, 'SVC-BE-1004');
      expect((await failedEntries()).slice(8).map((e) => [e.outcome, e.repeats])).toEqual([
        ['throttled', 20],
        ['wrong_token', 1],
        ['throttled', 1],
      ]);
    });
  });

  describe('retention', () => {
    it("purges a request's delivery log: entries gone, one dsar.delivery.logs_purged.v1", async () => {
      getSystem().clock.set(DELIVERY_START);
      const { id, artifactIds } = await fulfilledRequest([{ bytes: fileB, filename: 'b.pdf' }]);
      expect((await prepare(id)).status).toBe(202);
      const token = await issue(id);
      expect((await complete(id, token)).status).toBe(202);
      const log = getSystem().services.get('fulfilment-delivery')!.app.get(DeliveryLog);
      expect(await log.purgeRequest(KEYS.adminA.tenantId, id, 'system:retention')).toBe(3);
      expect(await logs(id)).toEqual([]);
      expect(await log.purgeRequest(KEYS.adminA.tenantId, id, 'system:retention')).toBe(0);
      await waitFor('the purge on the timeline', async () => (await timelineTypes(id)).includes('delivery_logs_purged'));
      const purged = ((await admin.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[]).find((e) => e.eventType === 'delivery_logs_purged')!;
      expect(purged.payload).toMatchObject({ entries: 3, actor: 'system:retention' });
      // The delivery itself goes on: the completed token still opens the downloads, and the log starts again.
      expect((await metadata(id, artifactIds[0], token)).status).toBe(200);
      expect(outcomes(await logs(id), 'artifact_delivered')).toEqual(['metadata']);
    });
  });
}

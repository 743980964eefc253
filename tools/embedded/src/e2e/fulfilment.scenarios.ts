import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LifecycleClient } from '@dsar/platform/http';
import { FileStorage, StorageUnavailableError } from '@dsar/platform/storage';
import { waitFor } from '@dsar/platform/testing';
import { Artifacts } from '@dsar/services/fulfilment-delivery';
import type { TestSystem } from './systems';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { servicePrincipal, signedInternalHeaders } from './internal-identity';
import { clockAllowedActions } from './lifecycle-probe';
import { filesUnder, formOf } from './verification.scenarios';

type TimelineEvent = { eventType: string; payload: Record<string, unknown> };

const KiB = 1024;

/** A JSON export of a person's profile, with a marker to look for on disk. */
export function profileBytes(size: number, marker = 'CUSTOMER-IBAN-DE89370400440532013000'): Buffer {
  const head = Buffer.from(`{"marker":"${marker}","rows":[`);
  const body = Buffer.alloc(Math.max(size - head.length, 0), `"${marker}",`);
  return Buffer.concat([head, body]).subarray(0, size);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface FulfilmentScenarioOptions {
  /** Where the system keeps artifact files (STORAGE_DIR), to look at them on disk. */
  storageDir: string;
  /** The system's ARTIFACT_MAX_BYTES. */
  maxBytes: number;
}

/**
 * Issue [fulfilment] end to end through the gateway: the manifest, its
 * artifacts, their review (four eyes) and the fulfilment. The system's clock
 * is frozen and set by each scenario.
 */
export function fulfilmentScenarios(getSystem: () => TestSystem, options: FulfilmentScenarioOptions): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  const url = (path: string) => `${getSystem().gatewayUrl}/api/v1${path}`;
  const storedFiles = () => filesUnder(join(options.storageDir, 'data'));
  const storage = () => getSystem().services.get('fulfilment-delivery')!.app.get(FileStorage);

  /** A request of tenant A, acknowledged (in_progress) unless asked otherwise. */
  async function request(requestType = 'access', acknowledge = true): Promise<string> {
    const created = await api.post('/requests/capture', intake({ jurisdiction: 'DE', requestType }, { receivedAt: '2026-06-01T09:00:00Z' }));
    expect(created.status).toBe(202);
    if (acknowledge) expect((await api.post(`/requests/${created.body.id}/acknowledgements`, {})).status).toBe(202);
    return created.body.id;
  }

  async function send(method: 'POST' | 'PUT', path: string, body: Buffer | ReadableStream<Uint8Array>, headers: Record<string, string>, token: string): Promise<ApiResponse> {
    const res = await fetch(url(path), {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** The usual headers of an upload; override or drop (undefined) any. */
  function headers(overrides: Record<string, string | undefined> = {}): Record<string, string> {
    const all: Record<string, string | undefined> = { 'x-artifact-filename': 'export.json', 'x-artifact-content-type': 'application/json', ...overrides };
    return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  }

  const upload = (id: string, body: Buffer | ReadableStream<Uint8Array>, h: Record<string, string> = headers(), token = KEYS.adminA.token) =>
    send('POST', `/requests/${id}/manifest/artifact/upload`, body, h, token);
  const replace = (id: string, artifactId: string, body: Buffer, h: Record<string, string> = headers(), token = KEYS.adminA.token) =>
    send('PUT', `/requests/${id}/manifest/artifact/${artifactId}/replace`, body, h, token);
  const download = (id: string, artifactId: string, extra: { version?: number; range?: string; token?: string; headers?: Record<string, string> } = {}) =>
    fetch(url(`/requests/${id}/manifest/artifact/download?artifactId=${artifactId}${extra.version !== undefined ? `&version=${extra.version}` : ''}`), {
      headers: { authorization: `Bearer ${extra.token ?? KEYS.adminA.token}`, ...(extra.range ? { range: extra.range } : {}), ...extra.headers },
    });
  const approve = (id: string, token = KEYS.operatorA.token, version?: number) =>
    api.as(token).post(`/requests/${id}/manifest/validate`, { action: 'approved', ...(version !== undefined ? { version } : {}) });
  const fulfil = (id: string, token = KEYS.adminA.token) => api.as(token).post(`/requests/${id}/fulfilment`, undefined);

  async function timelineTypes(id: string): Promise<string[]> {
    const events = (await api.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
    // In the order fulfilment-delivery published them (one topic, keyed by request); lifecycle-clock's events travel apart.
    return events.map((e) => e.eventType).filter((t) => t.startsWith('fulfilment_'));
  }

  async function expectTimeline(id: string, expected: string[]): Promise<void> {
    await waitFor(`${id}'s fulfilment events ${expected.join(', ')}`, async () => JSON.stringify(await timelineTypes(id)) === JSON.stringify(expected));
  }

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  async function problemOf(res: Response): Promise<ApiResponse> {
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  describe('the happy path: upload, review, replace, callback, four eyes, fulfil', () => {
    let id: string;
    let artifactId: string;
    let firstKey: string;
    let secondKey: string;
    const file = profileBytes(300_000);
    const redacted = profileBytes(200_000, 'CUSTOMER-IBAN-DE89XXXXXXXXXXXXXXXXXX');
    const filename = 'Profil Jürgen Müller – Export.json';

    it('a request without a manifest reads as version 0, empty, with no state', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      id = await request();
      const res = await api.get(`/requests/${id}/manifest`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        requestId: id,
        version: 0,
        artifacts: [],
        dataCategories: [],
        redactionsApplied: [],
        thirdPartyExclusions: [],
        validationState: null,
        supplementaryInfoInline: null,
        supplementaryInfoRef: null,
        review: null,
        history: [],
        systems: [],
      });
    });

    it('takes an upload with a Unicode filename: 202, its bytes encrypted on disk', async () => {
      getSystem().clock.set('2026-06-02T10:00:00Z');
      const before = storedFiles().length;
      const res = await upload(
        id,
        file,
        headers({ 'x-artifact-filename': encodeURIComponent(filename), 'x-artifact-title': encodeURIComponent('Profil — Kontodaten'), 'x-artifact-type': 'profile_data' }),
      );
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ artifactId: expect.any(String), artifactKey: expect.stringMatching(/^art_[0-9a-f]{32}$/), requestId: id });
      ({ artifactId, artifactKey: firstKey } = res.body);
      const after = storedFiles();
      expect(after.length).toBe(before + 1);
      const stored = after.find((p) => p.endsWith(firstKey));
      expect(stored).toBeDefined();
      const onDisk = readFileSync(stored!);
      expect(onDisk.includes(Buffer.from('CUSTOMER-IBAN'))).toBe(false);
    });

    it("reads the manifest: the artifact's metadata, version 1, pending review", async () => {
      const res = await api.get(`/requests/${id}/manifest`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ requestId: id, version: 1, validationState: 'pending', review: null });
      expect(res.body.artifacts).toEqual([
        {
          artifactId,
          artifactKey: firstKey,
          filename,
          versionFilename: filename,
          title: 'Profil — Kontodaten',
          type: 'profile_data',
          contentType: 'application/json',
          size: file.length,
          sha256: sha256(file),
          version: 1,
          dataCategories: [],
          createdAt: '2026-06-02T10:00:00.000Z',
          createdBy: expect.stringMatching(/^key:/),
          updatedAt: '2026-06-02T10:00:00.000Z',
          updatedBy: expect.stringMatching(/^key:/),
          previousVersions: [],
          redactionsApplied: [],
          purgedAt: null,
          systemKey: null,
        },
      ]);
      expect(res.body.history).toEqual([{ version: 1, change: 'artifact_uploaded', by: expect.stringMatching(/^key:/), at: '2026-06-02T10:00:00.000Z', validationState: 'pending' }]);
      expect(JSON.stringify(res.body)).not.toContain('CUSTOMER-IBAN');
    });

    it('lets a reviewer download it, whole and by range, with an RFC 6266 name', async () => {
      const whole = await download(id, artifactId);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true);
      expect(whole.headers.get('content-type')).toBe('application/json');
      expect(whole.headers.get('content-length')).toBe(String(file.length));
      expect(whole.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
      expect(whole.headers.get('etag')).toBe(`"${sha256(file)}"`);
      expect(whole.headers.get('cache-control')).toBe('no-store');
      const part = await download(id, artifactId, { range: 'bytes=65530-65545' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 65530-65545/${file.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(65530, 65546))).toBe(true);
    });

    it('replacing keeps the id and the display name, with a new version, key and hash, and records the redaction; the replaced version stays for review', async () => {
      getSystem().clock.set('2026-06-03T10:00:00Z');
      const res = await replace(
        id,
        artifactId,
        redacted,
        headers({ 'x-artifact-filename': encodeURIComponent('Profil (geschwärzt).json'), 'x-artifact-redaction-reason': encodeURIComponent(' IBAN geschwärzt (Art. 15(4) DSGVO) ') }),
      );
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ artifactId, artifactKey: expect.stringMatching(/^art_[0-9a-f]{32}$/), replaced: true, requestId: id });
      secondKey = res.body.artifactKey;
      expect(secondKey).not.toBe(firstKey);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest).toMatchObject({ version: 2, validationState: 'pending' });
      expect(manifest.artifacts).toHaveLength(1);
      expect(manifest.artifacts[0]).toMatchObject({
        artifactId,
        artifactKey: secondKey,
        // The display name stays the upload's: the data subject gets the file under it.
        filename,
        versionFilename: 'Profil (geschwärzt).json',
        title: 'Profil — Kontodaten',
        type: 'profile_data',
        version: 2,
        size: redacted.length,
        sha256: sha256(redacted),
        previousVersions: [
          {
            version: 1,
            artifactKey: firstKey,
            filename,
            sha256: sha256(file),
            size: file.length,
            replacedAt: '2026-06-03T10:00:00.000Z',
            purged: false,
            contentType: 'application/json',
            createdAt: '2026-06-02T10:00:00.000Z',
            createdBy: expect.any(String),
          },
        ],
        redactionsApplied: [{ version: 2, by: expect.stringMatching(/^key:/), at: '2026-06-03T10:00:00.000Z', reason: 'IBAN geschwärzt (Art. 15(4) DSGVO)', previousSha256: sha256(file) }],
      });
      expect(Buffer.from(await (await download(id, artifactId)).arrayBuffer()).equals(redacted)).toBe(true);
      const old = await download(id, artifactId, { version: 1 });
      expect(old.status).toBe(200);
      expect(Buffer.from(await old.arrayBuffer()).equals(file)).toBe(true);
    });

    it('honours If-Range and If-None-Match: a copy of the replaced version gets the whole new file, never a part of it', async () => {
      const held = `"${sha256(file)}"`;
      const current = `"${sha256(redacted)}"`;
      // A client resuming its download of version 1 (replaced meanwhile): the whole current file, not bytes of another one.
      const resumed = await download(id, artifactId, { range: 'bytes=100000-', headers: { 'if-range': held } });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('content-range')).toBeNull();
      expect(resumed.headers.get('etag')).toBe(current);
      expect(Buffer.from(await resumed.arrayBuffer()).equals(redacted)).toBe(true);
      // A weak tag or a date never validates a range either (no Last-Modified is sent).
      for (const validator of [`W/${current}`, 'Wed, 03 Jun 2026 10:00:00 GMT']) {
        const whole = await download(id, artifactId, { range: 'bytes=0-9', headers: { 'if-range': validator } });
        expect(whole.status).toBe(200);
        expect((await whole.arrayBuffer()).byteLength).toBe(redacted.length);
      }
      // If-Range naming the current version: the range, and past the end a 416.
      const part = await download(id, artifactId, { range: 'bytes=100000-100009', headers: { 'if-range': current } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(redacted.subarray(100000, 100010))).toBe(true);
      const past = await download(id, artifactId, { range: `bytes=${redacted.length}-`, headers: { 'if-range': current } });
      expect({ status: past.status, range: past.headers.get('content-range') }).toEqual({ status: 416, range: `bytes */${redacted.length}` });
      await past.arrayBuffer();
      // If-None-Match: 304 without a body for the copy held, the file for a copy of the replaced version.
      const notModified = await download(id, artifactId, { headers: { 'if-none-match': `"0000", ${current}` } });
      expect({ status: notModified.status, etag: notModified.headers.get('etag'), body: (await notModified.arrayBuffer()).byteLength }).toEqual({ status: 304, etag: current, body: 0 });
      expect((await download(id, artifactId, { version: 1, headers: { 'if-none-match': held } })).status).toBe(304);
      const changed = await download(id, artifactId, { headers: { 'if-none-match': held } });
      expect(changed.status).toBe(200);
      expect(Buffer.from(await changed.arrayBuffer()).equals(redacted)).toBe(true);
    });

    it("the callback records the data categories and the manifest's fields; the request is not finalized", async () => {
      getSystem().clock.set('2026-06-04T10:00:00Z');
      const res = await api.post(`/requests/${id}/fulfilment/callback`, {
        manifest: {
          artifacts: [{ artifactId, dataCategories: ['contact_details', 'bank_details', 'contact_details'] }],
          redactionsApplied: ['third-party names in support notes'],
          thirdPartyExclusions: ['messages of other customers'],
          supplementaryInfoInline: 'Purposes: contract performance (Art 6(1)(b)). Retention: 10 years (HGB §257).',
          supplementaryInfoRef: 'https://example.org/privacy#art15',
        },
      });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ requestId: id, status: 'recorded' });
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest).toMatchObject({
        version: 3,
        validationState: 'pending',
        dataCategories: ['contact_details', 'bank_details'],
        redactionsApplied: ['third-party names in support notes'],
        thirdPartyExclusions: ['messages of other customers'],
        supplementaryInfoInline: 'Purposes: contract performance (Art 6(1)(b)). Retention: 10 years (HGB §257).',
        supplementaryInfoRef: 'https://example.org/privacy#art15',
      });
      expect(manifest.artifacts[0].dataCategories).toEqual(['contact_details', 'bank_details']);
      expect(manifest.history.map((h: { change: string; version: number }) => [h.version, h.change])).toEqual([
        [1, 'artifact_uploaded'],
        [2, 'artifact_replaced'],
        [3, 'manifest_recorded'],
      ]);
      expect((await api.get(`/requests/${id}`)).body.status).toBe('in_progress');
    });

    it('four eyes: whoever uploaded, replaced or recorded the manifest may not approve it (403); another operator does', async () => {
      getSystem().clock.set('2026-06-05T10:00:00Z');
      expectProblem(await approve(id, KEYS.adminA.token), 403, 'SVC-BE-1213');
      expect((await api.get(`/requests/${id}/manifest`)).body.validationState).toBe('pending');
      const res = await approve(id);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id, status: 'approved' });
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest).toMatchObject({ version: 3, validationState: 'approved', review: { action: 'approved', at: '2026-06-05T10:00:00.000Z', comment: null, version: 3, outdated: false } });
      expect(manifest.review.by).not.toBe(manifest.history[2].by);
      expect(manifest.history[3]).toEqual({ version: 3, change: 'approved', by: manifest.review.by, at: '2026-06-05T10:00:00.000Z', validationState: 'approved' });
    });

    it('fulfils: the request is fulfilled, the replaced version is purged from disk, the events are on the timeline', async () => {
      getSystem().clock.set('2026-06-08T10:00:00Z');
      expect(storedFiles().some((p) => p.endsWith(firstKey))).toBe(true);
      const res = await fulfil(id);
      expect(res.status).toBe(202);
      const detail = (await api.get(`/requests/${id}`)).body;
      expect(res.body).toEqual({ id, status: 'fulfilled', dueAt: detail.dueAt });
      expect(detail.status).toBe('fulfilled');
      expect(storedFiles().some((p) => p.endsWith(firstKey))).toBe(false);
      expect(storedFiles().some((p) => p.endsWith(secondKey))).toBe(true);
      expectProblem(await problemOf(await download(id, artifactId, { version: 1 })), 404, 'SVC-BE-1207');
      expect((await download(id, artifactId)).status).toBe(200);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.artifacts[0].previousVersions[0]).toMatchObject({ version: 1, purged: true });
      await expectTimeline(id, ['fulfilment_artifact_uploaded', 'fulfilment_artifact_replaced', 'fulfilment_manifest_recorded', 'fulfilment_manifest_reviewed', 'fulfilment_fulfilment_recorded']);
      const events = (await api.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
      expect(events.find((e) => e.eventType === 'fulfilment_fulfilment_recorded')?.payload).toMatchObject({ manifestVersion: 3, artifactCount: 1, purgedVersions: 1 });
      expect(events.find((e) => e.eventType === 'fulfilment_artifact_replaced')?.payload).toMatchObject({ artifactId, version: 2, previousSha256: sha256(file), sha256: sha256(redacted) });
      expect(JSON.stringify(events)).not.toContain('Jürgen');
    });

    it('a fulfilled request takes no more changes (409)', async () => {
      expectProblem(await upload(id, profileBytes(1000)), 409, 'SVC-BE-1401');
      expectProblem(await replace(id, artifactId, profileBytes(1000)), 409, 'SVC-BE-1401');
      expectProblem(await api.post(`/requests/${id}/fulfilment/callback`, { manifest: { artifacts: [] } }), 409, 'SVC-BE-1401');
      expectProblem(await approve(id), 409, 'SVC-BE-1401');
      expectProblem(await fulfil(id), 409, 'SVC-BE-1401');
    });

    it("each 409 (1401) names the allowed actions that lifecycle-clock's own 409 names for the request", async () => {
      const allowed = await clockAllowedActions(api, id);
      const answers = [
        await upload(id, profileBytes(1000)),
        await replace(id, artifactId, profileBytes(1000)),
        await api.post(`/requests/${id}/fulfilment/callback`, { manifest: { artifacts: [] } }),
        await approve(id),
        await fulfil(id),
      ];
      expect(answers.map((a) => ({ status: a.status, code: a.body.code, allowedActions: a.body.allowedActions }))).toEqual(
        answers.map(() => ({ status: 409, code: 'SVC-BE-1401', allowedActions: allowed })),
      );
    });
  });

  describe('a replacement for redaction: the display name, the redaction recorded, an earlier review outdated', () => {
    let id: string;
    let artifactId: string;
    const original = 'Kundenkonto – Export.json';
    const first = profileBytes(4000);
    const manifestOf = async () => (await api.get(`/requests/${id}/manifest`)).body;

    beforeAll(async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      id = await request();
      const up = await upload(id, first, headers({ 'x-artifact-filename': encodeURIComponent(original) }));
      expect(up.status).toBe(202);
      artifactId = up.body.artifactId;
      expect((await approve(id)).status).toBe(202);
    });

    it('an approval made before a replacement shows as outdated beside the pending state; a new approval is current', async () => {
      expect((await manifestOf()).review).toMatchObject({ action: 'approved', version: 1, outdated: false });
      getSystem().clock.set('2026-06-02T09:00:00Z');
      const res = await replace(id, artifactId, profileBytes(3000, 'REDACTED'), headers({ 'x-artifact-filename': 'redacted.json' }));
      expect(res.status).toBe(202);
      const manifest = await manifestOf();
      expect(manifest).toMatchObject({ version: 2, validationState: 'pending', review: { action: 'approved', version: 1, outdated: true } });
      // The display name stays; without a reason the redaction is still recorded: who and when.
      expect(manifest.artifacts[0]).toMatchObject({ artifactId, filename: original, versionFilename: 'redacted.json', version: 2 });
      expect(manifest.artifacts[0].redactionsApplied).toEqual([{ version: 2, by: expect.stringMatching(/^key:/), at: '2026-06-02T09:00:00.000Z', reason: null, previousSha256: sha256(first) }]);
      expect((await approve(id, KEYS.operatorA.token, 2)).status).toBe(202);
      expect(await manifestOf()).toMatchObject({ version: 2, validationState: 'approved', review: { action: 'approved', version: 2, outdated: false } });
    });

    it('a second replacement adds a second redaction, with its reason, and keeps the display name', async () => {
      getSystem().clock.set('2026-06-03T09:00:00Z');
      const reason = 'Namen Dritter geschwärzt';
      expect((await replace(id, artifactId, profileBytes(2500, 'REDACTED-2'), headers({ 'x-artifact-filename': 'v3.json', 'x-artifact-redaction-reason': encodeURIComponent(reason) }))).status).toBe(
        202,
      );
      const manifest = await manifestOf();
      expect(manifest).toMatchObject({ version: 3, validationState: 'pending', review: { version: 2, outdated: true } });
      expect(manifest.artifacts[0]).toMatchObject({ filename: original, versionFilename: 'v3.json', version: 3 });
      expect(manifest.artifacts[0].redactionsApplied.map((r: { version: number; reason: string | null }) => [r.version, r.reason])).toEqual([
        [2, null],
        [3, reason],
      ]);
      // The free text stays in the service: the event on the timeline carries none of it.
      await expectTimeline(id, ['fulfilment_artifact_uploaded', 'fulfilment_manifest_reviewed', 'fulfilment_artifact_replaced', 'fulfilment_manifest_reviewed', 'fulfilment_artifact_replaced']);
      expect(JSON.stringify((await api.get(`/requests/${id}/timeline`)).body)).not.toContain('geschwärzt');
    });

    it('a bad reason is a 400 naming the header, before a byte is stored, and nothing changes', async () => {
      const before = await manifestOf();
      const stored = storedFiles().length;
      for (const reason of ['a%0Ab', '%E0%A4%A', encodeURIComponent('txt\u202Eexe'), 'a'.repeat(501)]) {
        const res = await replace(id, artifactId, profileBytes(2000), headers({ 'x-artifact-redaction-reason': reason }));
        expectProblem(res, 400, 'SVC-BE-1102');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['x-artifact-redaction-reason']);
      }
      expect(storedFiles().length).toBe(stored);
      expect(await manifestOf()).toEqual(before);
    });

    it('another tenant (404) and a role without requests:act (403) replace nothing, with a reason or without', async () => {
      const before = await manifestOf();
      const h = headers({ 'x-artifact-redaction-reason': 'x' });
      expectProblem(await replace(id, artifactId, profileBytes(2000), h, KEYS.operatorB.token), 404, 'SVC-BE-1003');
      expectProblem(await replace(id, artifactId, profileBytes(2000), h, KEYS.adminB.token), 404, 'SVC-BE-1003');
      expectProblem(await replace(id, artifactId, profileBytes(2000), h, KEYS.auditorA.token), 403, 'SVC-BE-1302');
      expectProblem(await replace(id, artifactId, profileBytes(2000), h, KEYS.intakeA.token), 403, 'SVC-BE-1302');
      expect(await manifestOf()).toEqual(before);
    });
  });

  describe('four eyes per tenant', () => {
    it('a tenant that turned four eyes off (FULFILMENT_TENANT_SETTINGS) lets the uploader approve', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const b = api.as(KEYS.operatorB.token);
      const created = await b.post('/requests/capture', intake({ jurisdiction: 'DE', requestType: 'portability' }, { receivedAt: '2026-06-01T09:00:00Z' }));
      const id = created.body.id;
      expect((await b.post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      expect((await upload(id, profileBytes(2000), headers(), KEYS.operatorB.token)).status).toBe(202);
      expect((await b.post(`/requests/${id}/manifest/validate`, { action: 'approved' })).status).toBe(202);
      expect((await b.post(`/requests/${id}/fulfilment`, undefined)).status).toBe(202);
    });
  });

  describe('four eyes over every author, on the version the reviewer read', () => {
    const callback = (id: string, artifactId: string, token: string) =>
      api.as(token).post(`/requests/${id}/fulfilment/callback`, { manifest: { artifacts: [{ artifactId, dataCategories: ['contact_details'] }] } });

    it('an uploader cannot approve its own upload after someone else made a trivial change; nor can that someone', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const up = await upload(id, profileBytes(3000), headers(), KEYS.adminA.token);
      expect(up.status).toBe(202);
      expect((await callback(id, up.body.artifactId, KEYS.operatorA.token)).status).toBe(202);
      const fourEyes = await approve(id, KEYS.adminA.token);
      expectProblem(fourEyes, 403, 'SVC-BE-1213');
      expect(fourEyes.body.manifestVersion).toBe(2);
      expectProblem(await approve(id, KEYS.operatorA.token), 403, 'SVC-BE-1213');
      expect((await api.get(`/requests/${id}/manifest`)).body).toMatchObject({ validationState: 'pending', review: null });
      expectProblem(await fulfil(id), 409, 'SVC-BE-1209');
      // Someone who made none of it reviews; then the uploader may fulfil.
      expect((await approve(id, KEYS.approverA.token, 2)).status).toBe(202);
      expect((await fulfil(id)).status).toBe(202);
    });

    it('the author of a version replaced since may not review either', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const up = await upload(id, profileBytes(3000), headers(), KEYS.approverA.token);
      expect((await replace(id, up.body.artifactId, profileBytes(2000, 'REDACTED'), headers(), KEYS.adminA.token)).status).toBe(202);
      expectProblem(await approve(id, KEYS.approverA.token), 403, 'SVC-BE-1213');
      expectProblem(await api.as(KEYS.approverA.token).post(`/requests/${id}/manifest/validate`, { action: 'rejected' }), 403, 'SVC-BE-1213');
      expect((await approve(id, KEYS.operatorA.token)).status).toBe(202);
    });

    it('a review names the version it read: a manifest that moved on is a 409 (1216), and nothing is recorded', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      expect((await upload(id, profileBytes(3000))).status).toBe(202);
      const seen = (await api.get(`/requests/${id}/manifest`)).body.version;
      expect((await upload(id, profileBytes(4000, 'LATER'))).status).toBe(202);
      const stale = await approve(id, KEYS.operatorA.token, seen);
      expectProblem(stale, 409, 'SVC-BE-1216');
      expect(stale.body.manifestVersion).toBe(2);
      expectProblem(await approve(id, KEYS.operatorA.token, 3), 409, 'SVC-BE-1216');
      expect((await api.get(`/requests/${id}/manifest`)).body).toMatchObject({ version: 2, validationState: 'pending', review: null });
      for (const version of [0, -1, 1.5, '2', null]) {
        expectProblem(await api.as(KEYS.operatorA.token).post(`/requests/${id}/manifest/validate`, { action: 'approved', version }), 400, 'SVC-BE-1102');
      }
      const approved = await approve(id, KEYS.operatorA.token, 2);
      expect(approved.status).toBe(202);
      expect((await api.get(`/requests/${id}/manifest`)).body).toMatchObject({ validationState: 'approved', review: { action: 'approved', version: 2 } });
    });

    it('two reviewers approving different versions at once: only the one that read the current version is recorded', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      expect((await upload(id, profileBytes(3000))).status).toBe(202);
      expect((await upload(id, profileBytes(3500, 'SECOND'))).status).toBe(202);
      const [old, current] = await Promise.all([approve(id, KEYS.operatorA.token, 1), approve(id, KEYS.approverA.token, 2)]);
      expectProblem(old, 409, 'SVC-BE-1216');
      expect(current.status).toBe(202);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest).toMatchObject({ version: 2, validationState: 'approved', review: { version: 2 } });
      expect(manifest.history.filter((h: { change: string }) => h.change === 'approved')).toEqual([expect.objectContaining({ version: 2 })]);
    });

    it('an approval of the version read, racing a change: never an approval of the version no one read', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      expect((await upload(id, profileBytes(3000))).status).toBe(202);
      const [up, review] = await Promise.all([upload(id, profileBytes(5000, 'RACING')), approve(id, KEYS.operatorA.token, 1)]);
      expect(up.status).toBe(202);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      // Whichever came first, the new version waits for its review.
      expect(manifest).toMatchObject({ version: 2, validationState: 'pending' });
      if (review.status === 202) expect(manifest.review).toMatchObject({ action: 'approved', version: 1 });
      else expectProblem(review, 409, 'SVC-BE-1216');
    });
  });

  describe('request types and manifests', () => {
    it('a deletion request needs no manifest: fulfilled without one', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request('deletion');
      const res = await fulfil(id);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id, status: 'fulfilled' });
      await expectTimeline(id, ['fulfilment_fulfilment_recorded']);
    });

    it('an access request without a manifest, or with one not approved, is not fulfilled (409 1209)', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request('access');
      expectProblem(await fulfil(id), 409, 'SVC-BE-1209');
      const up = await upload(id, profileBytes(2000));
      expect(up.status).toBe(202);
      const pending = await fulfil(id);
      expectProblem(pending, 409, 'SVC-BE-1209');
      expect(pending.body).toMatchObject({ manifestVersion: 1, validationState: 'pending' });
      expect((await api.as(KEYS.operatorA.token).post(`/requests/${id}/manifest/validate`, { action: 'rejected', comment: 'the export misses the orders' })).status).toBe(202);
      expect((await api.get(`/requests/${id}/manifest`)).body.review).toMatchObject({ action: 'rejected', comment: 'the export misses the orders', version: 1 });
      expectProblem(await fulfil(id), 409, 'SVC-BE-1209');
      // A change after an approval makes the manifest pending again.
      expect((await approve(id)).status).toBe(202);
      expect((await upload(id, profileBytes(1500))).status).toBe(202);
      expect((await api.get(`/requests/${id}/manifest`)).body).toMatchObject({ version: 2, validationState: 'pending' });
      expectProblem(await fulfil(id), 409, 'SVC-BE-1209');
      expect((await api.get(`/requests/${id}`)).body.status).toBe('in_progress');
    });

    it('with an Idempotency-Key a retried review or fulfilment replays the first answer', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request('access');
      expect((await upload(id, profileBytes(2000))).status).toBe(202);
      const reviewer = api.as(KEYS.operatorA.token);
      const first = await reviewer.post(`/requests/${id}/manifest/validate`, { action: 'approved' }, { headers: { 'idempotency-key': `review-${id}` } });
      const again = await reviewer.post(`/requests/${id}/manifest/validate`, { action: 'approved' }, { headers: { 'idempotency-key': `review-${id}` } });
      expect([first.status, again.status]).toEqual([202, 202]);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await api.get(`/requests/${id}/manifest`)).body.history.map((h: { change: string }) => h.change)).toEqual(['artifact_uploaded', 'approved']);
      const fulfilled = await api.post(`/requests/${id}/fulfilment`, undefined, { headers: { 'idempotency-key': `fulfil-${id}` } });
      const replayed = await api.post(`/requests/${id}/fulfilment`, undefined, { headers: { 'idempotency-key': `fulfil-${id}` } });
      expect([fulfilled.status, replayed.status]).toEqual([202, 202]);
      expect(replayed.body).toEqual(fulfilled.body);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      await expectTimeline(id, ['fulfilment_artifact_uploaded', 'fulfilment_manifest_reviewed', 'fulfilment_fulfilment_recorded']);
    });

    it('a request that is not in progress is not fulfilled (409 1401)', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request('deletion', false);
      const res = await fulfil(id);
      expectProblem(res, 409, 'SVC-BE-1401');
      expect(res.body.currentStatus).toBe('received');
    });
  });

  describe('every refusal answers a problem and changes nothing', () => {
    let id: string;
    let artifactId: string;
    beforeAll(async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      id = await request();
      const up = await upload(id, profileBytes(4000));
      expect(up.status).toBe(202);
      artifactId = up.body.artifactId;
    });

    it('upload headers: missing, of the wrong form, or not safe are 400s naming the header', async () => {
      const before = storedFiles().length;
      for (const [h, field] of [
        [headers({ 'x-artifact-filename': undefined }), 'x-artifact-filename'],
        [headers({ 'x-artifact-content-type': undefined }), 'x-artifact-content-type'],
        [headers({ 'x-artifact-content-type': 'json' }), 'x-artifact-content-type'],
        [headers({ 'x-artifact-type': 'photos' }), 'x-artifact-type'],
        [headers({ 'x-artifact-filename': 'a%00b.json' }), 'x-artifact-filename'],
        [headers({ 'x-artifact-filename': '%E0%A4%A' }), 'x-artifact-filename'],
        [headers({ 'x-artifact-title': '%E0%A4%A' }), 'x-artifact-title'],
      ] as const) {
        const res = await upload(id, profileBytes(1000), h);
        expectProblem(res, 400, 'SVC-BE-1102');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect(storedFiles().length).toBe(before);
      expect((await api.get(`/requests/${id}/manifest`)).body.version).toBe(1);
    });

    it('a directory in the filename is dropped, not stored', async () => {
      const res = await upload(id, profileBytes(1000), headers({ 'x-artifact-filename': '..%2F..%2Fetc%2Fpasswd' }));
      expect(res.status).toBe(202);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.artifacts.find((a: { artifactId: string }) => a.artifactId === res.body.artifactId)).toMatchObject({ filename: 'passwd', title: 'passwd', type: 'other' });
      expect(storedFiles().every((p) => p.startsWith(join(options.storageDir, 'data')))).toBe(true);
    });

    it("an empty body is a 400 with the upload's (or the replacement's) code", async () => {
      expectProblem(await upload(id, Buffer.alloc(0)), 400, 'SVC-BE-1206');
      expectProblem(await replace(id, artifactId, Buffer.alloc(0)), 400, 'SVC-BE-1208');
    });

    it('a file over ARTIFACT_MAX_BYTES is a 413, announced or found while it streams, and nothing is kept', async () => {
      const before = storedFiles().length;
      const big = profileBytes(options.maxBytes + 1);
      expectProblem(await upload(id, big), 413, 'SVC-BE-1103');
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= big.length) return controller.close();
          controller.enqueue(big.subarray(sent, sent + 64 * KiB));
          sent += 64 * KiB;
        },
      });
      expectProblem(await upload(id, stream), 413, 'SVC-BE-1103');
      expectProblem(await replace(id, artifactId, big), 413, 'SVC-BE-1103');
      expect(storedFiles().length).toBe(before);
    });

    it('a file sent with a JSON Content-Type is a 415 (1104), as documented, and nothing is kept', async () => {
      const before = { files: storedFiles().length, version: (await api.get(`/requests/${id}/manifest`)).body.version };
      for (const type of ['application/json', 'application/merge-patch+json; charset=utf-8']) {
        expectProblem(await upload(id, Buffer.from('{"a":1}'), { ...headers(), 'content-type': type }), 415, 'SVC-BE-1104');
        expectProblem(await replace(id, artifactId, Buffer.from('{"a":1}'), { ...headers(), 'content-type': type }), 415, 'SVC-BE-1104');
      }
      expect({ files: storedFiles().length, version: (await api.get(`/requests/${id}/manifest`)).body.version }).toEqual(before);
      // The file's own type is JSON: it says so in x-artifact-content-type, and the body goes as octet-stream.
      expect((await upload(id, Buffer.from('{"a":1}'), headers({ 'x-artifact-content-type': 'application/json' }))).status).toBe(202);
    });

    it('a multipart body (curl -F, a browser form) is a 415 (1104) saying to send the raw bytes, at the gateway and at the service, and nothing is kept', async () => {
      const before = { files: storedFiles().length, version: (await api.get(`/requests/${id}/manifest`)).body.version };
      const form = formOf(Buffer.from('{"a":1}'), 'export.json', 'application/json');
      for (const type of [form.type, 'Multipart/Mixed; boundary=x']) {
        const uploaded = await upload(id, form.body, { ...headers(), 'content-type': type });
        expectProblem(uploaded, 415, 'SVC-BE-1104');
        expect(uploaded.body.detail).toMatch(/raw bytes.*application\/octet-stream.*x-artifact-content-type/);
        expectProblem(await replace(id, artifactId, form.body, { ...headers(), 'content-type': type }), 415, 'SVC-BE-1104');
      }
      // A direct call to the service, past the gateway, meets the same rule.
      const serviceUrl = `${getSystem().services.get('fulfilment-delivery')!.url}/internal/v1/requests/${id}/manifest/artifact/upload`;
      const principal = servicePrincipal(KEYS.adminA.tenantId, 'key:test', ['admin']);
      const direct = await fetch(serviceUrl, {
        method: 'POST',
        headers: { ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', serviceUrl, principal), ...headers(), 'content-type': form.type },
        body: form.body,
      });
      expect({ status: direct.status, code: ((await direct.json()) as { code: string }).code }).toEqual({ status: 415, code: 'SVC-BE-1104' });
      expect({ files: storedFiles().length, version: (await api.get(`/requests/${id}/manifest`)).body.version }).toEqual(before);
    });

    it('unknown artifacts: replace 404 1208, download 404 1207, callback 422 1210 listing them', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expectProblem(await replace(id, unknown, profileBytes(1000)), 404, 'SVC-BE-1208');
      expectProblem(await replace(id, 'not-an-id', profileBytes(1000)), 404, 'SVC-BE-1208');
      expectProblem(await problemOf(await download(id, unknown)), 404, 'SVC-BE-1207');
      expectProblem(await problemOf(await download(id, artifactId, { version: 9 })), 404, 'SVC-BE-1207');
      const callback = await api.post(`/requests/${id}/fulfilment/callback`, { manifest: { artifacts: [{ artifactId }, { artifactId: unknown, dataCategories: ['x'] }] } });
      expectProblem(callback, 422, 'SVC-BE-1210');
      expect(callback.body.artifactIds).toEqual([unknown]);
      // An artifact of another request of the same tenant is unknown here.
      const other = await request();
      expectProblem(await problemOf(await download(other, artifactId)), 404, 'SVC-BE-1207');
      expectProblem(await replace(other, artifactId, profileBytes(1000)), 404, 'SVC-BE-1208');
      expectProblem(await api.post(`/requests/${other}/fulfilment/callback`, { manifest: { artifacts: [{ artifactId }] } }), 422, 'SVC-BE-1210');
    });

    it('bad bodies and queries are 400s', async () => {
      expectProblem(await problemOf(await fetch(url(`/requests/${id}/manifest/artifact/download`), { headers: { authorization: `Bearer ${KEYS.adminA.token}` } })), 400, 'SVC-BE-1102');
      expectProblem(await problemOf(await download(id, 'nope')), 400, 'SVC-BE-1102');
      for (const body of [{}, { action: 'maybe' }, { action: 'approved', extra: 1 }, { action: 'approved', comment: '   ' }]) {
        expectProblem(await api.post(`/requests/${id}/manifest/validate`, body), 400, 'SVC-BE-1102');
      }
      for (const body of [{}, { manifest: {} }, { manifest: { artifacts: [{ artifactId: 'x' }] } }, { manifest: { artifacts: [], extra: 1 } }]) {
        expectProblem(await api.post(`/requests/${id}/fulfilment/callback`, body), 400, 'SVC-BE-1102');
      }
    });

    it('no manifest to review: 404 1212', async () => {
      const fresh = await request();
      expectProblem(await approve(fresh), 404, 'SVC-BE-1212');
    });

    it("storage that fails: 503 with the operation's code and Retry-After, and nothing recorded", async () => {
      const version = (await api.get(`/requests/${id}/manifest`)).body.version;
      const down = new StorageUnavailableError('the test took it away');
      const put = jest.spyOn(storage(), 'put').mockRejectedValue(down);
      const get = jest.spyOn(storage(), 'get').mockRejectedValue(down);
      try {
        const up = await upload(id, profileBytes(1000));
        expectProblem(up, 503, 'SVC-BE-1206');
        expect(up.headers.get('retry-after')).toBe('5');
        expectProblem(await replace(id, artifactId, profileBytes(1000)), 503, 'SVC-BE-1208');
        expectProblem(await problemOf(await download(id, artifactId)), 503, 'SVC-BE-1207');
      } finally {
        put.mockRestore();
        get.mockRestore();
      }
      expect((await api.get(`/requests/${id}/manifest`)).body.version).toBe(version);
    });

    it('another tenant sees none of it (404)', async () => {
      const other = api.as(KEYS.operatorB.token);
      expectProblem(await other.get(`/requests/${id}/manifest`), 404, 'SVC-BE-1003');
      expectProblem(await upload(id, profileBytes(1000), headers(), KEYS.operatorB.token), 404, 'SVC-BE-1003');
      expectProblem(await replace(id, artifactId, profileBytes(1000), headers(), KEYS.operatorB.token), 404, 'SVC-BE-1003');
      expectProblem(await problemOf(await download(id, artifactId, { token: KEYS.operatorB.token })), 404, 'SVC-BE-1003');
      expectProblem(await other.post(`/requests/${id}/fulfilment/callback`, { manifest: { artifacts: [] } }), 404, 'SVC-BE-1003');
      expectProblem(await other.post(`/requests/${id}/manifest/validate`, { action: 'approved' }), 404, 'SVC-BE-1003');
      expectProblem(await other.post(`/requests/${id}/fulfilment`, undefined), 404, 'SVC-BE-1003');
    });

    it('roles are checked (403): only operators and admins change, review, fulfil and download', async () => {
      expectProblem(await upload(id, profileBytes(1000), headers(), KEYS.intakeA.token), 403, 'SVC-BE-1302');
      expectProblem(await upload(id, profileBytes(1000), headers(), KEYS.auditorA.token), 403, 'SVC-BE-1302');
      expectProblem(await problemOf(await download(id, artifactId, { token: KEYS.auditorA.token })), 403, 'SVC-BE-1302');
      expectProblem(await problemOf(await download(id, artifactId, { token: KEYS.intakeA.token })), 403, 'SVC-BE-1302');
      expectProblem(await api.as(KEYS.auditorA.token).post(`/requests/${id}/manifest/validate`, { action: 'approved' }), 403, 'SVC-BE-1302');
      expectProblem(await api.as(KEYS.intakeA.token).post(`/requests/${id}/fulfilment`, undefined), 403, 'SVC-BE-1302');
      // Auditors read the manifest (metadata), never the bytes.
      expect((await api.as(KEYS.auditorA.token).get(`/requests/${id}/manifest`)).status).toBe(200);
      expect((await download(id, artifactId, { token: KEYS.operatorA.token })).status).toBe(200);
    });

    it('a closed request takes no artifacts (409 1401)', async () => {
      const closed = await request();
      expect((await api.post(`/requests/${closed}/closures`, {})).status).toBe(202);
      expectProblem(await upload(closed, profileBytes(1000)), 409, 'SVC-BE-1401');
      expect((await api.get(`/requests/${closed}/manifest`)).body.version).toBe(0);
    });
  });

  describe('racing callers', () => {
    it('two uploads at once: two artifacts, two versions, one after the other', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const [a, b] = await Promise.all([upload(id, profileBytes(70_000, 'A')), upload(id, profileBytes(90_000, 'B'))]);
      expect([a.status, b.status]).toEqual([202, 202]);
      expect(a.body.artifactId).not.toBe(b.body.artifactId);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.version).toBe(2);
      expect(manifest.artifacts).toHaveLength(2);
      expect(manifest.history.map((h: { version: number }) => h.version)).toEqual([1, 2]);
    });

    it('two approvals at once: both recorded, on the same version, approved', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      expect((await upload(id, profileBytes(5000))).status).toBe(202);
      const answers = await Promise.all([approve(id), approve(id)]);
      expect(answers.map((a) => a.status)).toEqual([202, 202]);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest).toMatchObject({ version: 1, validationState: 'approved', review: { action: 'approved', version: 1 } });
      expect(manifest.history.map((h: { change: string }) => h.change)).toEqual(['artifact_uploaded', 'approved', 'approved']);
    });

    it('an upload racing an approval: the manifest ends either approved at its old version, or pending at the new one', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      expect((await upload(id, profileBytes(5000))).status).toBe(202);
      const [up, approved] = await Promise.all([upload(id, profileBytes(6000)), approve(id)]);
      expect([up.status, approved.status]).toEqual([202, 202]);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.version).toBe(2);
      const last = manifest.history[manifest.history.length - 1];
      expect(manifest.validationState).toBe(last.change === 'approved' ? 'approved' : 'pending');
    });

    it('two fulfilments at once: one 202, the other 409, and one fulfilment recorded', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      expect((await upload(id, profileBytes(5000))).status).toBe(202);
      expect((await approve(id)).status).toBe(202);
      const answers = await Promise.all([fulfil(id), fulfil(id, KEYS.operatorA.token)]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
      expect(answers.find((a) => a.status === 409)?.body.code).toBe('SVC-BE-1401');
      expect((await api.get(`/requests/${id}`)).body.status).toBe('fulfilled');
      await expectTimeline(id, ['fulfilment_artifact_uploaded', 'fulfilment_manifest_reviewed', 'fulfilment_fulfilment_recorded']);
    });
  });

  describe('an Idempotency-Key on uploads and replacements', () => {
    const keyed = (key: string, overrides: Record<string, string | undefined> = {}) => headers({ 'idempotency-key': key, ...overrides });

    it('three uploads under one key: one artifact, one stored file, the same answer three times', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const before = storedFiles().length;
      const file = profileBytes(40_000, 'IDEMPOTENT-UPLOAD');
      const answers = [await upload(id, file, keyed('upload-once')), await upload(id, file, keyed('upload-once')), await upload(id, file, keyed('upload-once'))];
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
      expect(answers[1].body).toEqual(answers[0].body);
      expect(answers[2].body).toEqual(answers[0].body);
      expect(answers.map((a) => a.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true']);
      expect(storedFiles().length).toBe(before + 1);
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.version).toBe(1);
      expect(manifest.artifacts.map((a: { artifactId: string }) => a.artifactId)).toEqual([answers[0].body.artifactId]);
      await expectTimeline(id, ['fulfilment_artifact_uploaded']);
    });

    it('the same key with other bytes (of the same length) or other headers is a 422, and nothing is stored', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const first = await upload(id, profileBytes(20_000, 'FIRST-BODY'), keyed('upload-other'));
      expect(first.status).toBe(202);
      const before = storedFiles().length;
      expectProblem(await upload(id, profileBytes(20_000, 'OTHER-BODY'), keyed('upload-other')), 422, 'SVC-BE-1106');
      expectProblem(await upload(id, profileBytes(30_000, 'FIRST-BODY'), keyed('upload-other')), 422, 'SVC-BE-1106');
      expectProblem(await upload(id, profileBytes(20_000, 'FIRST-BODY'), keyed('upload-other', { 'x-artifact-filename': 'other.json' })), 422, 'SVC-BE-1106');
      expectProblem(await upload(id, profileBytes(20_000, 'FIRST-BODY'), keyed('bad key')), 400, 'SVC-BE-1105');
      expect(storedFiles().length).toBe(before);
      expect((await api.get(`/requests/${id}/manifest`)).body.artifacts).toHaveLength(1);
      // The first body again is still its replay.
      const replay = await upload(id, profileBytes(20_000, 'FIRST-BODY'), keyed('upload-other'));
      expect({ status: replay.status, body: replay.body }).toEqual({ status: 202, body: first.body });
    });

    it('two uploads at once under one key: one artifact; the other answer is the replay or a 409 in progress', async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const before = storedFiles().length;
      const file = profileBytes(900_000, 'RACING-UPLOAD');
      const answers = await Promise.all([upload(id, file, keyed('upload-race')), upload(id, file, keyed('upload-race'))]);
      const stored = answers.filter((a) => a.status === 202);
      expect(stored.length).toBeGreaterThanOrEqual(1);
      for (const a of stored) expect(a.body).toEqual(stored[0].body);
      for (const a of answers.filter((x) => x.status !== 202)) expectProblem(a, 409, 'SVC-BE-1107');
      expect(storedFiles().length).toBe(before + 1);
      expect((await api.get(`/requests/${id}/manifest`)).body.artifacts).toHaveLength(1);
    });

    it("a replacement under one key: one new version; another tenant's caller with the same key is a 404", async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const up = await upload(id, profileBytes(5000, 'V1'));
      expect(up.status).toBe(202);
      const v2 = profileBytes(6000, 'V2');
      const first = await replace(id, up.body.artifactId, v2, keyed('replace-once'));
      const again = await replace(id, up.body.artifactId, v2, keyed('replace-once'));
      expect([first.status, again.status]).toEqual([202, 202]);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expectProblem(await replace(id, up.body.artifactId, profileBytes(6000, 'V3'), keyed('replace-once')), 422, 'SVC-BE-1106');
      expectProblem(await upload(id, v2, keyed('replace-once'), KEYS.operatorB.token), 404, 'SVC-BE-1003');
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.version).toBe(2);
      expect(manifest.artifacts[0]).toMatchObject({ artifactId: up.body.artifactId, version: 2, artifactKey: first.body.artifactKey });
    });
  });

  describe("a caller that dies after lifecycle-clock's answer (ADR 0022)", () => {
    it("the fulfilment is recorded from the request's event, once, and a retry does not fulfil twice", async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const up = await upload(id, profileBytes(3000));
      expect((await replace(id, up.body.artifactId, profileBytes(2000))).status).toBe(202);
      expect((await approve(id)).status).toBe(202);
      const lifecycle = getSystem().services.get('fulfilment-delivery')!.app.get(LifecycleClient);
      const transition = lifecycle.transition.bind(lifecycle);
      const spy = jest.spyOn(lifecycle, 'transition').mockImplementationOnce(async (...args) => {
        await transition(...args);
        throw new Error('the process died after lifecycle-clock answered');
      });
      try {
        expect((await fulfil(id)).status).toBe(500);
      } finally {
        spy.mockRestore();
      }
      expect((await api.get(`/requests/${id}`)).body.status).toBe('fulfilled');
      await expectTimeline(id, ['fulfilment_artifact_uploaded', 'fulfilment_artifact_replaced', 'fulfilment_manifest_reviewed', 'fulfilment_fulfilment_recorded']);
      expect(storedFiles().some((p) => p.endsWith(up.body.artifactKey))).toBe(false);
      expect([202, 409]).toContain((await fulfil(id)).status);
      expect((await timelineTypes(id)).filter((t) => t === 'fulfilment_fulfilment_recorded')).toHaveLength(1);
    });
  });

  describe('retention', () => {
    it("purges a request's artifacts: every version's bytes gone, metadata kept, one event", async () => {
      getSystem().clock.set('2026-06-01T09:00:00Z');
      const id = await request();
      const up = await upload(id, profileBytes(3000));
      expect((await replace(id, up.body.artifactId, profileBytes(2500))).status).toBe(202);
      const keys = [up.body.artifactKey, (await api.get(`/requests/${id}/manifest`)).body.artifacts[0].artifactKey];
      expect(keys.every((k) => storedFiles().some((p) => p.endsWith(k)))).toBe(true);
      const artifacts = getSystem().services.get('fulfilment-delivery')!.app.get(Artifacts);
      expect(await artifacts.purgeRequest(KEYS.adminA.tenantId, id, 'system:retention')).toEqual([up.body.artifactId]);
      expect(keys.some((k) => storedFiles().some((p) => p.endsWith(k)))).toBe(false);
      expectProblem(await problemOf(await download(id, up.body.artifactId)), 404, 'SVC-BE-1207');
      const manifest = (await api.get(`/requests/${id}/manifest`)).body;
      expect(manifest.artifacts[0]).toMatchObject({ artifactId: up.body.artifactId, purgedAt: '2026-06-01T09:00:00.000Z', previousVersions: [{ purged: true }] });
      expectProblem(await api.post(`/requests/${id}/fulfilment/callback`, { manifest: { artifacts: [{ artifactId: up.body.artifactId }] } }), 422, 'SVC-BE-1210');
      expectProblem(await replace(id, up.body.artifactId, profileBytes(1000)), 404, 'SVC-BE-1208');
      await expectTimeline(id, ['fulfilment_artifact_uploaded', 'fulfilment_artifact_replaced', 'fulfilment_artifacts_purged']);
      const events = (await api.get(`/requests/${id}/timeline`)).body.events as TimelineEvent[];
      expect(events.find((e) => e.eventType === 'fulfilment_artifacts_purged')?.payload).toMatchObject({ artifactIds: [up.body.artifactId], versions: 2, actor: 'system:retention' });
      expect(await artifacts.purgeRequest(KEYS.adminA.tenantId, id, 'system:retention')).toEqual([]);
    });
  });
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RETENTION_CLASSES, type RetentionClass } from '@dsar/contracts';
import { type BeforePurge, RetentionSweeper, type SweepResult } from '@dsar/platform/retention';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { waitFor } from '@dsar/platform/testing';
import { Dispatcher } from '@dsar/services/notifier';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import type { TestSystem } from './systems';

const DAY = 86_400_000;
const BYTES = 'application/octet-stream';
const TENANT = KEYS.adminA.tenantId;

/** The services that own retention classes, in the order the scenarios sweep them (the audit chains first: see `sweepAll`). */
const OWNERS = ['audit-ledger', 'lifecycle-clock', 'verification', 'fulfilment-delivery', 'notifier'] as const;

/** What a request of the scenarios holds in each class. */
interface Aged {
  id: string;
  /** The data subject's address: the notifications' .eml files are addressed to it. */
  email: string;
  /** The kind of the request's last notification, once the notifier has recorded them all. */
  lastNotification: string;
  evidenceKey?: string;
  artifactId?: string;
}

export interface RetentionScenarioOptions {
  /** Where the file-keeping services store their (encrypted) files. */
  storageDir: string;
  /** Where the notifier writes its emails as .eml files (DATA_DIR/mail: the systems have no SMTP server). */
  mailDir: string;
}

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** The .eml files of a mail folder addressed to `email` (each address belongs to one request of the scenarios). */
function mailTo(dir: string, email: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => readFileSync(join(dir, name), 'utf8').includes(email));
}

/**
 * Issue [retention] end to end through the gateway on a controllable clock:
 * the policies' API (defaults, validation, tenancy, roles, concurrent
 * changes), and purge sweeps that remove exactly the records past their
 * period in every owning service (files on disk included), leave open and
 * recent requests alone, honour minDays and legal hold (also set in the
 * middle of a sweep), keep every audit chain verifiable, and purge what the
 * report said they would.
 */
export function retentionScenarios(getSystem: () => TestSystem, options: RetentionScenarioOptions): void {
  let admin: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });
  const clock = () => getSystem().clock;
  const sweeper = (service: string) => getSystem().services.get(service)!.app.get(RetentionSweeper);

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  const put = (body: unknown, as = admin, tenant = TENANT) => as.call('PUT', `/api/v1/tenants/${tenant}/retention`, { json: body });
  const policies = async (as = admin) => {
    const res = await as.get(`/tenants/${TENANT}/retention`);
    expect(res.status).toBe(200);
    return res.body as Array<Record<string, any>>;
  };
  const report = async () => {
    const res = await admin.get(`/tenants/${TENANT}/retention/report`);
    expect(res.status).toBe(200);
    return res.body as { tenantId: string; classes: Array<{ class: RetentionClass; records: number; requestIds: string[]; blockedBy: string | null; maxDays: number; legalHoldEnabled: boolean }> };
  };
  /** Waits until every owning service's copy of the class's policy shows what `expected` says (the report reads the copies). */
  const copiesShow = (cls: RetentionClass, expected: Partial<{ maxDays: number; blockedBy: string | null; legalHoldEnabled: boolean }>) =>
    waitFor(
      `the copies of the ${cls} policy`,
      async () => {
        const entry = (await report()).classes.find((c) => c.class === cls)!;
        return Object.entries(expected).every(([k, v]) => (entry as Record<string, unknown>)[k] === v) ? entry : undefined;
      },
      { timeoutMs: 20_000 },
    );
  const setPolicy = async (cls: RetentionClass, body: Record<string, unknown>) => {
    const res = await put({ class: cls, ...body });
    expect(res.status).toBe(202);
    return res.body as Record<string, any>;
  };
  const timelineTypes = async (id: string) => ((await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string }> | undefined)?.map((e) => e.eventType) ?? [];

  /** Sweeps every owning service; the audit chains first, before the other purges append their events to them. */
  async function sweepAll(beforePurge?: BeforePurge): Promise<SweepResult> {
    const result: SweepResult = {};
    for (const service of OWNERS) Object.assign(result, await sweeper(service).sweep(beforePurge));
    return result;
  }

  async function upload(path: string, token: string, headers: Record<string, string>, bytes: Buffer): Promise<Record<string, any>> {
    const res = await fetch(`${getSystem().gatewayUrl}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': BYTES, ...headers }, body: bytes });
    const body = (await res.json()) as Record<string, any>;
    expect({ status: res.status }).toEqual({ status: 202 });
    return body;
  }

  /**
   * A request made `daysAgo` days ago with a record in every class: acknowledged (a notification), verified with
   * an uploaded evidence file, an artifact uploaded, reviewed and fulfilled, delivery prepared with a step-up
   * challenge (delivery log), and, unless `open`, closed. The clock goes back for it and returns once every
   * service has recorded it all, so each record carries that day.
   */
  async function agedRequest(daysAgo: number, open = false): Promise<Aged> {
    const base = clock().now().getTime();
    clock().set(base - daysAgo * DAY);
    try {
      const email = `ret-${Math.random().toString(36).slice(2, 10)}@example.org`;
      const res = await admin.post(
        '/requests/capture',
        intake({ requestor: { type: 'subject', name: 'Rita Tension', email } }, { receivedAt: new Date(clock().now().getTime() - 3_600_000).toISOString(), contact: email }),
      );
      expect(res.status).toBe(202);
      const id = res.body.id as string;
      expect((await admin.post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      expect((await admin.post(`/requests/${id}/verification/request`, { method: 'document' })).status).toBe(202);
      const evidence = await upload(
        `/requests/${id}/verification/evidence/upload`,
        KEYS.adminA.token,
        { 'x-evidence-filename': 'passport.pdf', 'x-evidence-content-type': 'application/pdf', 'x-evidence-level': 'enhanced' },
        Buffer.from('%PDF-1.7 retention test evidence'),
      );
      expect((await admin.post(`/requests/${id}/verification/approve`, {})).status).toBe(202);
      const artifact = await upload(
        `/requests/${id}/manifest/artifact/upload`,
        KEYS.operatorA.token,
        { 'x-artifact-filename': 'export.json', 'x-artifact-content-type': 'application/json' },
        Buffer.from('{"profile":"retention test"}'),
      );
      expect((await admin.post(`/requests/${id}/manifest/validate`, { action: 'approved' })).status).toBe(202);
      if (!open) {
        expect((await admin.post(`/requests/${id}/fulfilment`, {})).status).toBe(202);
        expect((await admin.post(`/requests/${id}/delivery/prepare`, { channel: 'portal', securityLevel: 'token' })).status).toBe(202);
        expect((await admin.call('POST', `/api/v1/requests/${id}/delivery/step-up/challenge`)).status).toBe(202);
        expect((await admin.post(`/requests/${id}/closures`, { reason: 'completed' })).status).toBe(202);
      }
      // Everything recorded while the clock stands in the past: the chain's last entries and the notifications.
      const last = open ? 'fulfilment_manifest_reviewed' : 'request_closed';
      await waitFor(`${last} on the timeline of ${id}`, async () => (await timelineTypes(id)).includes(last), { timeoutMs: 20_000 });
      await waitFor(`the receipt notification of ${id}`, async () => ((await admin.get(`/requests/${id}/notifications`)).body.events as unknown[]).length > 0, { timeoutMs: 20_000 });
      return { id, email, lastNotification: open ? 'verification_requested' : 'delivery_prepared', evidenceKey: evidence.artifactKey as string, artifactId: artifact.artifactId as string };
    } finally {
      clock().set(base);
    }
  }

  /**
   * Sends the requests' notifications, once all are recorded, as .eml files (the dispatcher runs only when asked to
   * here), on the requests' day: their deliveries join each request's audit chain, and must not make it more recent.
   */
  async function sendNotifications(requests: Aged[], daysAgo: number): Promise<void> {
    for (const r of requests) {
      await waitFor(
        `the ${r.lastNotification} notification of ${r.id}`,
        async () => ((await admin.get(`/requests/${r.id}/notifications`)).body.events as Array<{ eventType: string }>).some((e) => e.eventType === r.lastNotification),
        { timeoutMs: 20_000 },
      );
    }
    const base = clock().now().getTime();
    clock().set(base - daysAgo * DAY);
    try {
      await getSystem().services.get('notifier')!.app.get(Dispatcher).drain();
      const ds = getSystem().services.get('notifier')!.app.get(UnitOfWork).dataSource;
      for (const r of requests) {
        const [{ n }]: Array<{ n: number }> = await ds.query(`SELECT count(*)::int AS n FROM ${qualifiedTable(ds, 'notification_attempts')} WHERE request_id = $1 AND status = 'delivered'`, [r.id]);
        await waitFor(`the deliveries on the chain of ${r.id}`, async () => (await timelineTypes(r.id)).filter((t) => t === 'notification_delivered').length >= n, { timeoutMs: 20_000 });
      }
    } finally {
      clock().set(base);
    }
  }

  /** Rows of the request still held in each owning service's tables (files not yet purged only), counted in the databases. */
  async function rowsOf(id: string): Promise<Record<string, number>> {
    const count = async (service: string, table: string, where = 'request_id = $1') => {
      const ds = getSystem().services.get(service)!.app.get(UnitOfWork).dataSource;
      const [{ n }]: Array<{ n: number }> = await ds.query(`SELECT count(*)::int AS n FROM ${qualifiedTable(ds, table)} WHERE ${where}`, [id]);
      return n;
    };
    return {
      requests: await count('lifecycle-clock', 'requests', 'id = $1'),
      transitions: await count('lifecycle-clock', 'request_transitions'),
      clockEvents: await count('lifecycle-clock', 'request_clock_events'),
      auditRequestCreated: await count('audit-ledger', 'audit_entries', `request_id = $1::text AND event_type = 'dsar.request.created.v1'`),
      evidenceFiles: await count('verification', 'verification_evidence_files', 'request_id = $1 AND purged_at IS NULL'),
      artifactVersions: await count('fulfilment-delivery', 'fulfilment_artifact_versions', 'request_id = $1 AND purged_at IS NULL'),
      deliveryLog: await count('fulfilment-delivery', 'delivery_log'),
      notifications: await count('notifier', 'notifications'),
    };
  }

  /** What the request still holds in each class, read through the API. */
  async function holdings(r: Aged) {
    const detail = await admin.get(`/requests/${r.id}`);
    const notifications = await admin.get(`/requests/${r.id}/notifications`);
    const logs = await admin.get(`/requests/${r.id}/delivery/logs`);
    const evidence = await admin.get(`/requests/${r.id}/verification-case`);
    const manifest = await admin.get(`/requests/${r.id}/manifest`);
    return {
      request: detail.status,
      notifications: notifications.status === 200 ? (notifications.body.events as unknown[]).length : -1,
      deliveryLog: logs.status === 200 ? (logs.body.logs as unknown[]).length : -1,
      // A purged evidence file leaves the case's file list; a purged artifact keeps its metadata with `purgedAt`.
      evidenceFile: evidence.status === 200 && (evidence.body.evidence as Array<{ files: Array<{ artifactKey: string }> }>).some((e) => e.files.some((f) => f.artifactKey === r.evidenceKey)),
      artifactFile: manifest.status === 200 && (manifest.body.artifacts as Array<{ artifactId: string; purgedAt: string | null }>).some((a) => a.artifactId === r.artifactId && a.purgedAt === null),
    };
  }

  describe('policies', () => {
    it('lists all six classes with the defaults, and ids that stay the same once stored', async () => {
      const before = await policies();
      expect(before.map((p) => p.class)).toEqual([...RETENTION_CLASSES]);
      for (const p of before) expect(p).toEqual({ id: expect.any(String), tenantId: TENANT, class: p.class, minDays: 30, maxDays: 365, purgeEnabled: false, legalHoldEnabled: false, updatedAt: null });
      const stored = await setPolicy('delivery_log', { maxDays: 400 });
      expect(stored).toEqual({
        id: before.find((p) => p.class === 'delivery_log')!.id,
        tenantId: TENANT,
        class: 'delivery_log',
        minDays: 30,
        maxDays: 400,
        purgeEnabled: false,
        legalHoldEnabled: false,
        updatedAt: expect.any(String),
      });
      expect((await policies()).find((p) => p.class === 'delivery_log')).toEqual(stored);
    });

    it('a field left out keeps its stored value: a legal hold is not lifted by omission', async () => {
      await setPolicy('verification_evidence', { legalHoldEnabled: true, purgeEnabled: true });
      const changed = await setPolicy('verification_evidence', { maxDays: 700 });
      expect(changed).toEqual(expect.objectContaining({ legalHoldEnabled: true, purgeEnabled: true, maxDays: 700, minDays: 30 }));
      await setPolicy('verification_evidence', { legalHoldEnabled: false, purgeEnabled: false, maxDays: 365 });
    });

    it('refuses bad input with a problem and changes nothing', async () => {
      const before = await policies();
      const bad: Array<[unknown, number, string]> = [
        [{ class: 'everything' }, 400, 'SVC-BE-1102'],
        [{ minDays: 10 }, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', minDays: -1 }, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', maxDays: 1.5 }, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', maxDays: 36_501 }, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', maxDays: '30' }, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', purgeEnabled: 'yes' }, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', retentionDays: 3 }, 400, 'SVC-BE-1102'],
        [null, 400, 'SVC-BE-1102'],
        [{ class: 'audit_event', minDays: 90, maxDays: 60 }, 422, 'SVC-BE-1701'],
        // Together with the stored maxDays (365).
        [{ class: 'audit_event', minDays: 400 }, 422, 'SVC-BE-1701'],
      ];
      for (const [body, status, code] of bad) {
        const res = await put(body);
        expectProblem(res, status, code);
      }
      const malformed = await admin.call('PUT', `/api/v1/tenants/${TENANT}/retention`, { raw: '{"class": ', headers: { 'content-type': 'application/json' } });
      expectProblem(malformed, 400, 'SVC-BE-1101');
      expect(await policies()).toEqual(before);
    });

    it('another tenant is a 404; roles: admins set, auditors and operators read, intake neither', async () => {
      expectProblem(await admin.get('/tenants/tenant-b/retention'), 404, 'SVC-BE-1003');
      expectProblem(await put({ class: 'audit_event', maxDays: 500 }, admin, 'tenant-b'), 404, 'SVC-BE-1003');
      expectProblem(await admin.get('/tenants/tenant-b/retention/report'), 404, 'SVC-BE-1003');
      const operatorB = admin.as(KEYS.operatorB.token);
      expect((await operatorB.get('/tenants/tenant-b/retention')).status).toBe(200);
      expectProblem(await operatorB.get(`/tenants/${TENANT}/retention`), 404, 'SVC-BE-1003');
      expectProblem(await put({ class: 'audit_event', maxDays: 500 }, admin.as(KEYS.operatorA.token)), 403, 'SVC-BE-1302');
      expectProblem(await put({ class: 'audit_event', maxDays: 500 }, admin.as(KEYS.auditorA.token)), 403, 'SVC-BE-1302');
      expectProblem(await admin.as(KEYS.intakeA.token).get(`/tenants/${TENANT}/retention`), 403, 'SVC-BE-1302');
      expect((await admin.as(KEYS.auditorA.token).get(`/tenants/${TENANT}/retention`)).status).toBe(200);
      expect((await admin.as(KEYS.auditorA.token).get(`/tenants/${TENANT}/retention/report`)).status).toBe(200);
      expect((await policies()).find((p) => p.class === 'audit_event')!.maxDays).toBe(365);
    });

    it('two changes of one class at once: both stored in turn, and every copy ends on the last one', async () => {
      const [a, b] = await Promise.all([put({ class: 'notification_log', maxDays: 500 }), put({ class: 'notification_log', maxDays: 600 })]);
      expect([a.status, b.status]).toEqual([202, 202]);
      const last = [a.body, b.body].sort((x, y) => String(x.updatedAt).localeCompare(String(y.updatedAt)))[1];
      expect(new Date(a.body.updatedAt).getTime()).not.toBe(new Date(b.body.updatedAt).getTime());
      expect((await policies()).find((p) => p.class === 'notification_log')!.maxDays).toBe(last.maxDays);
      await copiesShow('notification_log', { maxDays: last.maxDays });
      await setPolicy('notification_log', { maxDays: 365 });
      await copiesShow('notification_log', { maxDays: 365 });
    });

    it('an Idempotency-Key: the same change again is the first answer, another change under the key a 422', async () => {
      const keyed = (body: unknown) => admin.call('PUT', `/api/v1/tenants/${TENANT}/retention`, { json: body, headers: { 'idempotency-key': 'retention-once' } });
      const first = await keyed({ class: 'audit_event', maxDays: 420 });
      const again = await keyed({ maxDays: 420, class: 'audit_event' });
      expect([first.status, again.status]).toEqual([202, 202]);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expectProblem(await keyed({ class: 'audit_event', maxDays: 500 }), 422, 'SVC-BE-1106');
      expect((await policies()).find((p) => p.class === 'audit_event')).toEqual(first.body);
      await setPolicy('audit_event', { maxDays: 365 });
    });
  });

  describe('purging', () => {
    let old: Aged;
    let oldOpen: Aged;
    let recent: Aged;
    let filesBefore: string[];
    let mailBefore: string[];
    let oldMailBefore: string[];

    beforeAll(async () => {
      old = await agedRequest(400);
      oldOpen = await agedRequest(400, true);
      await sendNotifications([old, oldOpen], 400);
      recent = await agedRequest(10);
      await sendNotifications([recent], 10);
      filesBefore = filesUnder(options.storageDir);
      mailBefore = readdirSync(options.mailDir).sort();
      oldMailBefore = mailTo(options.mailDir, old.email);
    }, 120_000);

    it('nothing is purged while purging is off; the report says why', async () => {
      const r = await report();
      expect(r.classes.map((c) => [c.class, c.blockedBy, c.records])).toEqual(RETENTION_CLASSES.map((c) => [c, 'purge_disabled', 0]));
      const swept = await sweepAll();
      for (const cls of RETENTION_CLASSES) expect(swept[cls]).toEqual({ groups: 0, records: 0 });
      // The old closed request holds records in every class, in every owning service's tables.
      for (const [table, n] of Object.entries(await rowsOf(old.id))) expect({ table, held: n > 0 }).toEqual({ table, held: true });
    });

    it("the report lists what the next sweep purges, and the sweep purges exactly that: the old closed request's records, in every class", async () => {
      for (const cls of RETENTION_CLASSES) await setPolicy(cls, { purgeEnabled: true, minDays: 30, maxDays: 365 });
      for (const cls of RETENTION_CLASSES) await copiesShow(cls, { blockedBy: null });
      const before = await report();
      for (const c of before.classes) expect({ class: c.class, requestIds: c.requestIds }).toEqual({ class: c.class, requestIds: [old.id] });
      const swept = await sweepAll();
      for (const c of before.classes) expect({ class: c.class, purged: swept[c.class]?.records }).toEqual({ class: c.class, purged: c.records });

      // The old closed request: gone from every class, in every service's tables; its reads are 404 now.
      expect(await rowsOf(old.id)).toEqual({ requests: 0, transitions: 0, clockEvents: 0, auditRequestCreated: 0, evidenceFiles: 0, artifactVersions: 0, deliveryLog: 0, notifications: 0 });
      expect(await holdings(old)).toEqual({ request: 404, notifications: -1, deliveryLog: -1, evidenceFile: false, artifactFile: false });
      // The old open request and the recent one: all there.
      for (const kept of [oldOpen, recent]) {
        const rows = await rowsOf(kept.id);
        for (const [table, n] of Object.entries(rows)) if (table !== 'deliveryLog') expect({ table, held: n > 0 }).toEqual({ table, held: true });
        const h = await holdings(kept);
        expect(h.request).toBe(200);
        expect(h.notifications).toBeGreaterThan(0);
        expect(h.evidenceFile).toBe(true);
        expect(h.artifactFile).toBe(true);
      }
      expect((await holdings(recent)).deliveryLog).toBeGreaterThan(0);
      // On disk: the old request's evidence file and artifact are gone, every other file is still there.
      const filesAfter = filesUnder(options.storageDir);
      expect(filesBefore.length - filesAfter.length).toBe(2);
      for (const f of filesAfter) expect(filesBefore).toContain(f);
      // In the mail folder: the old request's emails (its subject's name and address) are gone, every other one is still there.
      expect(oldMailBefore.length).toBeGreaterThan(0);
      for (const kept of [oldOpen, recent]) expect(mailTo(options.mailDir, kept.email).length).toBeGreaterThan(0);
      expect(readdirSync(options.mailDir).sort()).toEqual(mailBefore.filter((name) => !oldMailBefore.includes(name)));

      // Nothing more is due: a second sweep purges nothing, and the report says so.
      const again = await sweepAll();
      for (const cls of RETENTION_CLASSES) expect(again[cls]!.records).toBe(0);
      for (const c of (await report()).classes) expect({ class: c.class, records: c.records }).toEqual({ class: c.class, records: 0 });
    });

    it("the purged request's audit chain still verifies: a purge checkpoint, then the purges' own events", async () => {
      const types = await waitFor(
        'the purges on the chain',
        async () => {
          const t = await timelineTypes(old.id);
          return t.filter((x) => x === 'retention_purged').length >= RETENTION_CLASSES.length ? t : undefined;
        },
        { timeoutMs: 20_000 },
      );
      expect(types).not.toContain('request_created');
      const exported = await admin.get(`/requests/${old.id}/audit/export`);
      expect(exported.status).toBe(202);
      expect(exported.body.purgedPrefix).toEqual({ throughSequence: expect.any(Number), hash: expect.stringMatching(/^sha256:/), purgedAt: expect.any(String) });
      expect(exported.body.events[0].prevHash).toBe(exported.body.purgedPrefix.hash);
      const verified = await admin.post(`/requests/${old.id}/audit/verify`, { hash: exported.body.rootHash, sequence: exported.body.headSequence });
      expect({ status: verified.status, verified: verified.body.verified, result: verified.body.status }).toEqual({ status: 202, verified: true, result: 'verified' });
      const purges = (exported.body.events as Array<{ eventType: string; payload: Record<string, unknown> }>).filter((e) => e.eventType === 'dsar.retention.purged.v1').map((e) => e.payload.class);
      // Every class's purge, each once, all after the purge checkpoint (the first exported event follows it, above). The
      // services' purge events reach the chain in the order the bus delivers them, which no service promises.
      expect([...purges].sort()).toEqual([...RETENTION_CLASSES].sort());
    });

    it('minDays and maxDays: a request closed 10 days ago stays under a 5-day maximum held up by a 30-day minimum, and goes once both have passed', async () => {
      await setPolicy('notification_log', { minDays: 30, maxDays: 30 });
      await copiesShow('notification_log', { maxDays: 30 });
      expect((await sweeper('notifier').sweep())['notification_log']!.records).toBe(0);
      const base = clock().now().getTime();
      clock().set(base + 25 * DAY);
      try {
        expect((await report()).classes.find((c) => c.class === 'notification_log')!.requestIds).toEqual([recent.id]);
        expect((await sweeper('notifier').sweep())['notification_log']!.records).toBeGreaterThan(0);
        expect((await holdings(recent)).notifications).toBe(0);
        expect(mailTo(options.mailDir, recent.email)).toEqual([]);
        expect(mailTo(options.mailDir, oldOpen.email).length).toBeGreaterThan(0);
      } finally {
        clock().set(base);
      }
    });

    it("a notification whose message is being sent (its send under a dispatcher's lease) is left to a later sweep: no .eml file outlives its purge", async () => {
      const sending = await agedRequest(400);
      await sendNotifications([sending], 400);
      const ds = getSystem().services.get('notifier')!.app.get(UnitOfWork).dataSource;
      const sends = qualifiedTable(ds, 'notification_sends');
      const notifications = qualifiedTable(ds, 'notifications');
      // As the dispatcher claims a send: a lease on the database's clock, for as long as the message is being written.
      const [leased]: Array<{ sendId: string; notificationId: string }> = await ds.query(
        `WITH leased AS (UPDATE ${sends} SET claimed_until = now() + interval '60 seconds'
                          WHERE id = (SELECT s.id FROM ${sends} s JOIN ${notifications} n ON n.id = s.notification_id WHERE n.request_id = $1 AND s.channel = 'email' ORDER BY s.id LIMIT 1)
                          RETURNING id, notification_id)
         SELECT id::text AS "sendId", notification_id::text AS "notificationId" FROM leased`,
        [sending.id],
      );
      const left = async () => ((await ds.query(`SELECT id::text AS id FROM ${notifications} WHERE request_id = $1`, [sending.id])) as Array<{ id: string }>).map((n) => n.id);
      expect((await left()).length).toBeGreaterThan(1);

      expect((await sweeper('notifier').sweep())['notification_log']!.records).toBeGreaterThan(0);
      expect(await left()).toEqual([leased.notificationId]);
      const kept = mailTo(options.mailDir, sending.email);
      expect(kept.length).toBeGreaterThan(0);
      for (const name of kept) expect(name).toContain(leased.sendId);

      await ds.query(`UPDATE ${sends} SET claimed_until = NULL WHERE id = $1`, [leased.sendId]);
      expect((await sweeper('notifier').sweep())['notification_log']!.records).toBe(1);
      expect(await left()).toEqual([]);
      expect(mailTo(options.mailDir, sending.email)).toEqual([]);
    });

    it('a legal hold stops the class at once, also in the middle of a sweep', async () => {
      const requests = [await agedRequest(500), await agedRequest(500), await agedRequest(500)];
      await setPolicy('notification_log', { minDays: 30, maxDays: 365, legalHoldEnabled: true });
      await copiesShow('notification_log', { blockedBy: 'legal_hold' });
      expect((await sweeper('notifier').sweep())['notification_log']!.records).toBe(0);
      for (const r of requests) expect((await holdings(r)).notifications).toBeGreaterThan(0);

      await setPolicy('notification_log', { legalHoldEnabled: false });
      await copiesShow('notification_log', { blockedBy: null });
      let seen = 0;
      const holdAfterFirst: BeforePurge = async () => {
        seen++;
        if (seen !== 2) return;
        await setPolicy('notification_log', { legalHoldEnabled: true });
        await copiesShow('notification_log', { legalHoldEnabled: true });
      };
      const swept = await sweeper('notifier').sweep(holdAfterFirst);
      expect(swept['notification_log']!.groups).toBe(1);
      const left = await Promise.all(requests.map(async (r) => (await holdings(r)).notifications));
      expect(left.filter((n) => n === 0)).toHaveLength(1);
      expect(left.filter((n) => n > 0)).toHaveLength(2);
      await setPolicy('notification_log', { legalHoldEnabled: false });
    });
  });
}

/**
 * Two replicas of the notifier on one PostgreSQL sweep at once: each old
 * request's notifications are purged once, by one of them, with one event.
 */
export function retentionReplicaScenarios(getSystem: () => TestSystem, sweepers: () => RetentionSweeper[]): void {
  it('each record is purged once, whichever replica sweeps it', async () => {
    const admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    const clock = getSystem().clock;
    const base = clock.now().getTime();
    const ids: string[] = [];
    clock.set(base - 400 * DAY);
    try {
      for (let i = 0; i < 6; i++) {
        const res = await admin.post('/requests/capture', intake({}, { receivedAt: new Date(clock.now().getTime() - 3_600_000).toISOString() }));
        expect(res.status).toBe(202);
        const id = res.body.id as string;
        expect((await admin.post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
        expect((await admin.post(`/requests/${id}/closures`, { reason: 'withdrawn' })).status).toBe(202);
        ids.push(id);
      }
      for (const id of ids) await waitFor(`the notification of ${id}`, async () => ((await admin.get(`/requests/${id}/notifications`)).body.events as unknown[]).length > 0, { timeoutMs: 20_000 });
    } finally {
      clock.set(base);
    }
    expect((await admin.call('PUT', `/api/v1/tenants/${TENANT}/retention`, { json: { class: 'notification_log', purgeEnabled: true } })).status).toBe(202);
    await waitFor(
      'the policy copy',
      async () => {
        const r = await admin.get(`/tenants/${TENANT}/retention/report`);
        return (r.body.classes as Array<{ class: string; blockedBy: string | null }>).find((c) => c.class === 'notification_log')?.blockedBy === null;
      },
      { timeoutMs: 20_000 },
    );
    const results = await Promise.all(sweepers().map((s) => s.sweep()));
    expect(results.reduce((n, r) => n + r['notification_log']!.groups, 0)).toBe(ids.length);
    for (const id of ids) {
      expect(((await admin.get(`/requests/${id}/notifications`)).body.events as unknown[]).length).toBe(0);
      const purges = await waitFor(
        `the purge on the chain of ${id}`,
        async () => {
          const events = (await admin.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string }>;
          const n = events.filter((e) => e.eventType === 'retention_purged').length;
          return n > 0 ? n : undefined;
        },
        { timeoutMs: 20_000 },
      );
      expect(purges).toBe(1);
    }
  });
}

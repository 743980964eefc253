import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { schemaNameFor } from '@dsar/platform/persistence';
import type { RunningSystem } from '../system';
import { ApiClient, intake } from './api-client';
import { raw, type RawResponse } from './http-edge.scenarios';
import { KEYS } from './gateway-intake.scenarios';
import type { TestSystem } from './systems';

/**
 * Everything the services of a system log, and everything the process writes to stdout and stderr
 * meanwhile: the log-hygiene scenarios search it for the personal data and credentials they sent.
 */
export class LogCapture {
  private chunks: string[] = [];
  private restore: Array<() => void> = [];

  /** The destination every service logs to (HostOptions.logDestination). */
  readonly destination = new Writable({
    write: (chunk, _enc, done) => {
      this.chunks.push(String(chunk));
      done();
    },
  });

  /** Also records what anything writes to stdout and stderr (console, libraries), and still passes it on. */
  captureStdio(): void {
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
        return original(chunk, ...rest);
      }) as typeof stream.write;
      this.restore.push(() => {
        stream.write = original as typeof stream.write;
      });
    }
  }

  stopStdio(): void {
    for (const r of this.restore.splice(0)) r();
  }

  text(): string {
    return this.chunks.join('');
  }

  /** The JSON lines of the services' logs (other output is skipped). */
  lines(): Array<Record<string, any>> {
    return this.text()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, any>];
        } catch {
          return [];
        }
      });
  }
}

/** A requestor and intake whose every personal value holds one unique marker, so the logs can be searched for it. */
export function markedPerson() {
  const m = randomUUID().replace(/-/g, '').slice(0, 12);
  return {
    marker: m,
    name: `Zyxname${m} Doe`,
    email: `zyx.${m}@example.org`,
    contact: `zyxcontact.${m}@example.net`,
    rawText: `ZYXINTAKE${m} please send me a copy of all personal data you hold about me`,
    clarification: `ZYXCLARIFY${m} which account do you mean?`,
    answer: `ZYXANSWER${m} the shop account of my late mother`,
    rationale: `ZYXRATIONALE${m} third identical request this week`,
    refusalMessage: `ZYXREFUSAL${m} we cannot act on this request`,
    agentName: `Zyxagent${m} Smith`,
    relation: `ZYXRELATION${m} daughter`,
  };
}

/** Lets the next INSERT or UPDATE of a request that carries `failMarker` fail in the database (a CHECK constraint), until undone. */
async function failWritesOf(system: RunningSystem, failMarker: string): Promise<() => Promise<void>> {
  const dataSource = system.services.get('lifecycle-clock')!.app.get(DataSource);
  const table = `"${schemaNameFor('lifecycle-clock')}".requests`;
  await dataSource.query(`ALTER TABLE ${table} ADD CONSTRAINT log_hygiene_probe CHECK (position('${failMarker}' in coalesce(intake_source::text, '') || coalesce(requestor::text, '')) = 0) NOT VALID`);
  return async () => {
    await dataSource.query(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS log_hygiene_probe`);
  };
}

/**
 * docs/security.md#what-is-never-logged, end to end: a request goes through every step (intake with a requestor,
 * acknowledgement, clarification, requestor replacement, refusal, closure, audit export, timeline), with
 * failures on the way (a NUL character in a text field, a database that refuses the statement, bad credentials),
 * on logs at trace level; not one line holds the token, an email address, a name, the contact or the texts.
 */
export function logHygieneScenarios(getSystem: () => TestSystem, capture: LogCapture): void {
  const person = markedPerson();
  let api: ApiClient;
  let now: Date;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    now = getSystem().clock.now();
  });

  const receivedAt = () => new Date(now.getTime() - 3 * 86_400_000).toISOString();
  const body = (extra: Record<string, unknown> = {}, source: Record<string, unknown> = {}) =>
    intake({ requestor: { type: 'subject', name: person.name, email: person.email }, ...extra }, { rawText: person.rawText, contact: person.contact, receivedAt: receivedAt(), ...source });

  it('drives a request through every step, with failures, at trace level', async () => {
    const statuses: Record<string, number> = {};
    const step = async (name: string, call: Promise<{ status: number }>) => {
      statuses[name] = (await call).status;
    };

    const created = await api.post('/requests', body(), { headers: { 'idempotency-key': `log-hygiene-${person.marker}` } });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    await step('replay', api.post('/requests', body(), { headers: { 'idempotency-key': `log-hygiene-${person.marker}` } }));
    await step('capture', api.post('/requests/capture', body()));
    await step('acknowledge', api.post(`/requests/${id}/acknowledgements`, { channel: 'email' }));
    await step('clarification', api.post(`/requests/${id}/clarifications/request`, { message: person.clarification }));
    await step('answer', api.post(`/requests/${id}/clarifications/receive`, { message: person.answer }));
    await step('requestor', api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { type: 'authorized_agent', name: person.agentName, email: person.email, relation: person.relation } }));
    await step('detail', api.get(`/requests/${id}`));
    await step('queue', api.get(`/requests?limit=5`));
    await step('refusal', api.post(`/requests/${id}/refusals`, { reason: 'manifestly_unfounded', message: person.refusalMessage, rationale: person.rationale }));
    await step('closure', api.post(`/requests/${id}/closures`, {}));
    await step('timeline', api.get(`/requests/${id}/timeline`));
    await step('audit-export', api.get(`/requests/${id}/audit/export`));
    await step('audit-csv', api.get(`/requests/${id}/audit/export?format=csv`));

    // Failures: a NUL character in the intake text and the requestor's name, malformed JSON holding the data,
    // a validation failure echoing it, a wrong token that looks like the real one, no token at all.
    await step('nul', api.post('/requests', body({ requestor: { type: 'subject', name: `${person.name}\u0000`, email: person.email } }, { rawText: `${person.rawText}\u0000` })));
    await step('malformed', api.call('POST', '/api/v1/requests', { raw: `{"requestor":{"name":"${person.name}","email":"${person.email}"`, headers: { 'content-type': 'application/json' } }));
    await step('invalid', api.post('/requests', { ...body(), jurisdiction: person.rawText, requestor: { type: person.name, email: person.email } }));
    await step('wrong-token', api.as(`${KEYS.adminA.token}x`).get(`/requests/${id}`));
    await step('no-token', api.call('POST', '/api/v1/requests', { token: null, json: body() }));

    // A database that refuses the statement: PostgreSQL's message names the row's values (`Failing row contains (...)`).
    const open = await api.post('/requests/capture', body());
    expect(open.status).toBe(202);
    const undo = await failWritesOf(getSystem(), person.marker);
    try {
      await step('db-insert', api.post('/requests', body()));
      await step('db-update', api.call('PUT', `/api/v1/requests/${open.body.id}/requestor`, { json: { type: 'subject', name: person.name, email: person.email } }));
    } finally {
      await undo();
    }

    for (const ok of ['replay', 'capture', 'acknowledge', 'clarification', 'answer', 'requestor', 'detail', 'queue', 'refusal', 'closure', 'timeline', 'audit-export', 'audit-csv']) {
      expect([ok, statuses[ok]! >= 200 && statuses[ok]! < 300]).toEqual([ok, true]);
    }
    expect(statuses['db-insert']).toBeGreaterThanOrEqual(500);
    expect(statuses['db-update']).toBeGreaterThanOrEqual(500);
    expect(statuses['wrong-token']).toBe(401);
  });

  it('logged every step and the failures', () => {
    const lines = capture.lines();
    for (const path of ['/api/v1/requests', '/acknowledgements', '/clarifications/request', '/clarifications/receive', '/requestor', '/refusals', '/closures', '/timeline', '/audit/export']) {
      expect([path, lines.some((l) => l.msg === 'request completed' && (l.req?.url as string | undefined)?.split('?')[0].endsWith(path))]).toEqual([path, true]);
    }
    const failures = lines.filter((l) => l.msg === 'request failed');
    expect(failures.length).toBeGreaterThan(0);
    // The database error is there, by its SQLSTATE and constraint, not by its values.
    expect(failures.some((l) => l.err?.code === '23514' && l.err?.constraint === 'log_hygiene_probe')).toBe(true);
  });

  it('no log line holds the token, an email address, a name, the contact or a text that was sent', () => {
    const text = capture.text();
    const forbidden = [
      KEYS.adminA.token,
      person.marker,
      person.email,
      person.contact,
      person.name,
      person.agentName,
      person.rawText,
      'ZYXINTAKE',
      'ZYXCLARIFY',
      'ZYXANSWER',
      'ZYXRATIONALE',
      'ZYXREFUSAL',
      'ZYXRELATION',
      'Zyxname',
      'Zyxagent',
      'zyxcontact',
      'zyx.',
    ];
    const found = forbidden.filter((f) => text.includes(f));
    const offending = text.split('\n').filter((l) => forbidden.some((f) => l.includes(f)));
    expect({ found, offending: offending.slice(0, 5) }).toEqual({ found: [], offending: [] });
    // No address of anyone: every email-shaped string in the logs is gone.
    expect(text.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/g) ?? []).toEqual([]);
  });
  // After the searches above: these requests put long runs of hostile characters into the captured lines.
  describe('hostile input: bounded work per request, bounded lines, bounded answers', () => {
    const gateway = () => getSystem().gatewayUrl;
    /** Just under the 8192-character limit of a request target: routed, refused and logged like any path. */
    const hostilePath = (unit: string) => `/api/v1/${unit.repeat(8_180)}`.slice(0, 8_180);
    let sent = 0;
    const nextId = () => `hostile-${++sent}`;

    /** The CPU time this process (every service of the system, and the client) spends per request of `batch`, in ms. */
    async function cpuMsPerRequest(batch: Array<() => Promise<RawResponse>>): Promise<number> {
      const start = process.cpuUsage();
      for (const send of batch) expect((await send()).status).toBeLessThan(500);
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000 / batch.length;
    }

    const times = <T>(n: number, make: () => T) => Array.from({ length: n }, make);

    /**
     * The least of three batches of ten: the process also runs the services' background work (consumers, the relay,
     * periodic jobs), which only ever adds to a batch's time, while a cost of the request itself is in every batch.
     */
    async function leastCpuMsPerRequest(send: () => Promise<RawResponse>): Promise<number> {
      const rounds: number[] = [];
      for (let round = 0; round < 3; round++) rounds.push(await cpuMsPerRequest(times(10, () => send)));
      return Math.min(...rounds);
    }

    it('a long hostile path, header or body without a token costs about what a short request does', async () => {
      const plain = () => raw(gateway(), 'GET', '/api/v1/requests/00000000-0000-4000-8000-000000000000', { 'x-request-id': nextId() });
      await cpuMsPerRequest(times(5, () => plain)); // warm-up
      const baseline = await leastCpuMsPerRequest(plain);
      const batches: Record<string, () => Promise<RawResponse>> = {
        'path of a': () => raw(gateway(), 'GET', hostilePath('a'), { 'x-request-id': nextId() }),
        'path of a.': () => raw(gateway(), 'GET', hostilePath('a.'), { 'x-request-id': nextId() }),
        'path of @': () => raw(gateway(), 'GET', hostilePath('@'), { 'x-request-id': nextId() }),
        'path of %41': () => raw(gateway(), 'GET', hostilePath('%41'), { 'x-request-id': nextId() }),
        'query of a.': () => raw(gateway(), 'GET', `/api/v1/requests?${'a.'.repeat(4_000)}=1`, { 'x-request-id': nextId() }),
        headers: () =>
          raw(gateway(), 'GET', '/api/v1/requests', {
            'x-request-id': nextId(),
            authorization: `Bearer ${'a.'.repeat(3_000)}`,
            'content-type': `application/${'a.'.repeat(2_000)}`,
            range: `bytes=1${' '.repeat(3_000)}x`,
          }),
        message: () =>
          raw(gateway(), 'POST', '/api/v1/requests', { 'x-request-id': nextId(), 'content-type': 'application/json' }, Buffer.from(JSON.stringify(intake({}, { rawText: 'a.'.repeat(40_000) })))),
      };
      const costs: Record<string, number> = {};
      for (const [name, send] of Object.entries(batches)) costs[name] = await leastCpuMsPerRequest(send);
      // A quadratic scrubber spends tens of milliseconds on each of these paths; a linear one about what a short path costs.
      const bound = 2 * baseline + 10;
      expect({ baseline, over: Object.entries(costs).filter(([, ms]) => ms > bound) }).toEqual({ baseline, over: [] });
    });

    it('logs each of those requests in one line of bounded length, its path cut and marked', () => {
      const lines = capture.lines().filter((l) => String(l.req?.id ?? '').startsWith('hostile-'));
      expect(lines.length).toBeGreaterThanOrEqual(sent);
      const longest = Math.max(...lines.map((l) => JSON.stringify(l).length));
      expect(longest).toBeLessThan(4 * 1024);
      expect(lines.filter((l) => /characters cut\]/.test(String(l.req?.url))).length).toBeGreaterThanOrEqual(5 * 20);
    });

    it('answers a target over the limit with 414 and does not log it', async () => {
      const res = await raw(gateway(), 'GET', `/api/v1/${'a.'.repeat(8_000)}`, { 'x-request-id': 'hostile-too-long' });
      expect(res.status).toBe(414);
      expect(res.json).toMatchObject({ code: 'SVC-BE-1007', requestId: 'hostile-too-long' });
      expect(capture.lines().filter((l) => l.req?.id === 'hostile-too-long')).toEqual([]);
    });

    it('40,000 unknown fields → 400 naming the first 50 and how many there were, in a small answer, and nothing recorded', async () => {
      const before = (await api.get('/requests?limit=1')).body.total as number;
      const unknown = Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`unknownField${i}`, i]));
      const payload = Buffer.from(JSON.stringify({ ...body(), ...unknown }));
      expect(payload.length).toBeLessThan(1024 * 1024);
      const start = process.cpuUsage();
      const res = await raw(gateway(), 'POST', '/api/v1/requests/capture', { authorization: `Bearer ${KEYS.adminA.token}`, 'content-type': 'application/json' }, payload);
      const used = process.cpuUsage(start);
      const cpuMs = (used.user + used.system) / 1000;
      expect(res.status).toBe(400);
      expect(res.text.length).toBeLessThan(16 * 1024);
      expect(res.json).toMatchObject({ code: 'SVC-BE-1102', errorCount: 40_000, detail: expect.stringMatching(/^40000 fields are invalid: unknownField0, .*, and 39990 more\.$/) });
      expect(res.json?.errors?.length).toBe(50);
      expect(cpuMs).toBeLessThan(2_000);
      expect((await api.get('/requests?limit=1')).body.total).toBe(before);
    });
  });
}

import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { schemaNameFor } from '@dsar/platform/persistence';
import type { RunningSystem } from '../system';
import { ApiClient, intake } from './api-client';
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
  await dataSource.query(
    `ALTER TABLE ${table} ADD CONSTRAINT log_hygiene_probe CHECK (position('${failMarker}' in coalesce(intake_source::text, '') || coalesce(requestor::text, '')) = 0) NOT VALID`,
  );
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
    intake(
      { requestor: { type: 'subject', name: person.name, email: person.email }, ...extra },
      { rawText: person.rawText, contact: person.contact, receivedAt: receivedAt(), ...source },
    );

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
}

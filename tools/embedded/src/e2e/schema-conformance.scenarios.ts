import type { TestSystem } from './systems';
import { ApiClient, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

type Json = Record<string, any>;

/**
 * What the published OpenAPI document allows is what the server takes (issue [first-day] 19): inputs Schemathesis
 * found refused with a 400 although the schema allowed them. Each header value is checked against the schema the
 * gateway serves (its patterns and lengths), then sent: a value the schema allows is never a 400, and one the server
 * refuses with a 400 is one the schema refuses too.
 */
export function schemaConformanceScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  let document: Json;
  beforeAll(async () => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.operatorA.token);
    document = (await api.get('/openapi.json')).body;
  });

  /** The schema of a header parameter of an operation, as published. */
  function headerSchema(path: string, method: string, name: string): Json {
    const parameter = (document.paths[path][method].parameters as Json[]).find((p) => p.in === 'header' && p.name === name);
    if (!parameter) throw new Error(`${method} ${path} publishes no header ${name}`);
    return parameter.schema as Json;
  }

  /** Whether a string satisfies a published string schema: its length bounds and every pattern (its own and its allOf's). */
  function allows(schema: Json, value: string): boolean {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return false;
    if (schema.maxLength !== undefined && length > schema.maxLength) return false;
    const patterns = [schema.pattern, ...((schema.allOf as Json[] | undefined) ?? []).map((s) => s.pattern)].filter((p): p is string => typeof p === 'string');
    return patterns.every((p) => new RegExp(p).test(value));
  }

  async function openRequest(): Promise<string> {
    const created = await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: getSystem().clock.daysAgo(1) }));
    expect(created.status).toBe(202);
    return created.body.id as string;
  }

  const upload = (id: string, headers: Record<string, string>) =>
    fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/manifest/artifact/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.operatorA.token}`, 'content-type': 'application/octet-stream', ...headers },
      body: Buffer.from('{"name":"Jane"}'),
    });

  describe('artifact upload headers', () => {
    const PATH = '/requests/{id}/manifest/artifact/upload';

    it('an empty or blank x-artifact-filename is refused by the published schema and by the server (400)', async () => {
      const schema = headerSchema(PATH, 'post', 'x-artifact-filename');
      const id = await openRequest();
      for (const filename of ['', '   ']) {
        expect({ filename, allowed: allows(schema, filename) }).toEqual({ filename, allowed: false });
        const res = await upload(id, { 'x-artifact-filename': filename, 'x-artifact-content-type': 'application/json' });
        expect({ filename, status: res.status }).toEqual({ filename, status: 400 });
      }
      expect((await api.get(`/requests/${id}/manifest`)).body.artifacts).toEqual([]);
    });

    it.each([
      ['a tab', 'a\tb.json', 'x-artifact-filename'],
      ['an invalid percent-encoding', 'report%M.json', 'x-artifact-filename'],
      ['an encoded control character', 'report%00.json', 'x-artifact-filename'],
      ['a title with a tab', 'b\tz', 'x-artifact-title'],
    ])('%s: refused by the published schema and by the server (400), nothing stored', async (_name, value, header) => {
      expect(allows(headerSchema(PATH, 'post', header), value)).toBe(false);
      const id = await openRequest();
      const headers = { 'x-artifact-filename': 'report.json', 'x-artifact-content-type': 'application/json', [header]: value };
      const res = await upload(id, headers);
      expect({ status: res.status, code: ((await res.json()) as Json).code }).toEqual({ status: 400, code: 'SVC-BE-1102' });
      expect((await api.get(`/requests/${id}/manifest`)).body.artifacts).toEqual([]);
    });

    it.each([
      ['a one-character name and the media type 0/0', 'a', '0/0'],
      ['an encoded name with spaces and accents', encodeURIComponent('export été 2026 (1).json'), 'application/json; charset=utf-8'],
    ])('%s: allowed by the schema, and stored (202)', async (_name, filename, contentType) => {
      const title = encodeURIComponent('Profile — 2026');
      expect(allows(headerSchema(PATH, 'post', 'x-artifact-filename'), filename)).toBe(true);
      expect(allows(headerSchema(PATH, 'post', 'x-artifact-content-type'), contentType)).toBe(true);
      expect(allows(headerSchema(PATH, 'post', 'x-artifact-title'), title)).toBe(true);
      const id = await openRequest();
      const res = await upload(id, { 'x-artifact-filename': filename, 'x-artifact-content-type': contentType, 'x-artifact-title': title });
      expect(res.status).toBe(202);
    });
  });

  describe('evidence upload headers', () => {
    const PATH = '/requests/{id}/verification/evidence/upload';
    const uploadEvidence = (id: string, filename: string) =>
      fetch(`${getSystem().gatewayUrl}/api/v1/requests/${id}/verification/evidence/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.operatorA.token}`, 'content-type': 'application/octet-stream', 'x-evidence-filename': filename, 'x-evidence-content-type': 'application/pdf' },
        body: Buffer.from('%PDF-1.7\n% conformance\n'),
      });
    const evidenceOf = async (id: string) => {
      const vcase = await api.get(`/requests/${id}/verification-case`);
      expect(vcase.status).toBe(200);
      return vcase.body.evidence as Json[];
    };
    /** An open request whose identity check was asked for: it has a verification case to hold evidence. */
    async function requestUnderVerification(): Promise<string> {
      const id = await openRequest();
      expect((await api.post(`/requests/${id}/verification/request`, { method: 'document' })).status).toBe(202);
      return id;
    }

    it.each([
      ['a tab', 'scan\tid.pdf'],
      ['an invalid percent-encoding', 'scan%M.pdf'],
      ['an encoded control character', 'scan%07.pdf'],
    ])('x-evidence-filename with %s: refused by the published schema and by the server (400), nothing stored', async (_name, filename) => {
      expect(allows(headerSchema(PATH, 'post', 'x-evidence-filename'), filename)).toBe(false);
      const id = await requestUnderVerification();
      const res = await uploadEvidence(id, filename);
      expect({ status: res.status, code: ((await res.json()) as Json).code }).toEqual({ status: 400, code: 'SVC-BE-1102' });
      expect(await evidenceOf(id)).toEqual([]);
    });

    it.each([
      ['a blank name (the default name)', ' '],
      ['an encoded name with accents', encodeURIComponent('pièce d’identité.pdf')],
    ])('x-evidence-filename with %s: allowed by the schema, and stored (202)', async (_name, filename) => {
      expect(allows(headerSchema(PATH, 'post', 'x-evidence-filename'), filename)).toBe(true);
      const id = await requestUnderVerification();
      expect((await uploadEvidence(id, filename)).status).toBe(202);
      expect(await evidenceOf(id)).toHaveLength(1);
    });
  });

  describe("the clock's pause and resume", () => {
    it.each([
      ['emoji up to the published maximum', '😀'.repeat(2000)],
      ['a line separator and a next-line character inside', 'Fee asked\u2028by letter\u0085today'],
      ['combining marks and a right-to-left script', 'e\u0301\u0301 رسوم'],
    ])('a pause note of %s: allowed by the schema and taken', async (_name, note) => {
      const schema = document.components.schemas.PauseCommand.properties.note as Json;
      expect(allows(schema, note)).toBe(true);
      const id = await openRequest();
      const res = await api.post(`/requests/${id}/clock/pauses`, { reason: 'fee', note });
      expect(res.status).toBe(202);
      const clock = (await api.get(`/requests/${id}/clock/explain`)).body;
      expect(clock.pauses[0].note).toBe(note);
    });

    it('a resume at the current instant is taken', async () => {
      const id = await openRequest();
      expect((await api.post(`/requests/${id}/clock/pauses`, { reason: 'fee' })).status).toBe(202);
      const res = await api.post(`/requests/${id}/clock/resume`, { at: getSystem().clock.now().toISOString() });
      expect(res.status).toBe(202);
      expect(res.body.clockState).toBe('running');
    });
  });
}

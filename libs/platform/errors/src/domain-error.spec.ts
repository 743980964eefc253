import { type ArgumentsHost, Logger } from '@nestjs/common';
import { ErrorCatalog } from '@dsar/contracts';
import { MAX_FIELD_NAME_LENGTH, MAX_LISTED_FIELD_PROBLEMS, ProblemError } from './domain-error';
import { ProblemJsonFilter } from './problem-json.filter';

/** A host of one HTTP call whose response records what the filter sent. */
function httpHost() {
  const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const res = {
    headersSent: false,
    getHeader: () => 'req-1',
    setHeader: (k: string, v: string) => void (sent.headers[k] = v),
    status(code: number) {
      sent.status = code;
      return this;
    },
    type() {
      return this;
    },
    send(body: string) {
      sent.body = body;
      return this;
    },
  };
  const req = { originalUrl: '/internal/v1/requests/r/manifest/artifact/upload', headers: {} };
  const host = { getType: () => 'http', switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('ProblemError status', () => {
  // The filter logs a 503 as a warning; not in the test's output.
  beforeAll(() => Logger.overrideLogger(false));

  it("is the catalog entry's status by default", () => {
    expect(new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED').status).toBe(400);
  });

  it('may be another status the catalog lists for the code, and no other', () => {
    expect(ErrorCatalog.MANIFEST_ARTIFACT_UPLOAD_FAILED.otherStatuses).toContain(503);
    expect(new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED', 'down', undefined, {}, {}, 503).status).toBe(503);
    expect(() => new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED', 'x', undefined, {}, {}, 502)).toThrow(/not answered with 502/);
    expect(() => new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', 'x', undefined, {}, {}, 400)).toThrow();
  });

  it("is the status of the problem+json answer, with the code, the headers and the body's status member", () => {
    const { host, sent } = httpHost();
    new ProblemJsonFilter().catch(new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED', 'Artifact storage is not available right now.', undefined, {}, { 'Retry-After': '5' }, 503), host);
    expect(sent.status).toBe(503);
    expect(sent.headers['Retry-After']).toBe('5');
    expect(JSON.parse(sent.body ?? '{}')).toMatchObject({ status: 503, code: 'SVC-BE-1206', name: 'MANIFEST_ARTIFACT_UPLOAD_FAILED', title: 'Manifest artifact upload failed' });
  });
});

describe('ProblemError field problems', () => {
  const problems = (count: number) => Array.from({ length: count }, (_, i) => ({ field: `f${i}`, message: 'is not a known field' }));

  it('lists at most MAX_LISTED_FIELD_PROBLEMS of them, with errorCount saying how many there were', () => {
    const error = new ProblemError('REQUEST_VALIDATION_FAILED', 'many', problems(40_000), { other: 1 });
    expect(error.errors?.length).toBe(MAX_LISTED_FIELD_PROBLEMS);
    expect(error.extensions).toEqual({ other: 1, errorCount: 40_000 });
    const { host, sent } = httpHost();
    new ProblemJsonFilter().catch(error, host);
    expect(JSON.parse(sent.body ?? '{}')).toMatchObject({ errorCount: 40_000, errors: expect.arrayContaining([{ field: 'f49', message: 'is not a known field' }]) });
    expect((sent.body ?? '').length).toBeLessThan(4 * 1024);
  });

  it('keeps the errorCount of a problem passed on from another service, and adds none up to the limit', () => {
    expect(new ProblemError('REQUEST_VALIDATION_FAILED', 'passed on', problems(MAX_LISTED_FIELD_PROBLEMS), { errorCount: 40_000 }).extensions).toEqual({ errorCount: 40_000 });
    expect(new ProblemError('REQUEST_VALIDATION_FAILED', 'few', problems(3)).extensions).toEqual({});
  });

  it('cuts a field name longer than MAX_FIELD_NAME_LENGTH', () => {
    const [listed] = new ProblemError('REQUEST_VALIDATION_FAILED', 'long', [{ field: 'k'.repeat(100_000), message: 'is not a known field' }]).errors ?? [];
    expect(listed.field).toBe(`${'k'.repeat(MAX_FIELD_NAME_LENGTH)}…`);
  });
});

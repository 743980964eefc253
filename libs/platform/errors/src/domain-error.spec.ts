import { type ArgumentsHost, Logger } from '@nestjs/common';
import { ErrorCatalog } from '@dsar/contracts';
import { ProblemError } from './domain-error';
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

  it('is the catalog entry\'s status by default', () => {
    expect(new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED').status).toBe(400);
  });

  it('may be another status the catalog lists for the code, and no other', () => {
    expect(ErrorCatalog.MANIFEST_ARTIFACT_UPLOAD_FAILED.otherStatuses).toContain(503);
    expect(new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED', 'down', undefined, {}, {}, 503).status).toBe(503);
    expect(() => new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED', 'x', undefined, {}, {}, 502)).toThrow(/not answered with 502/);
    expect(() => new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', 'x', undefined, {}, {}, 400)).toThrow();
  });

  it('is the status of the problem+json answer, with the code, the headers and the body\'s status member', () => {
    const { host, sent } = httpHost();
    new ProblemJsonFilter().catch(new ProblemError('MANIFEST_ARTIFACT_UPLOAD_FAILED', 'Artifact storage is not available right now.', undefined, {}, { 'Retry-After': '5' }, 503), host);
    expect(sent.status).toBe(503);
    expect(sent.headers['Retry-After']).toBe('5');
    expect(JSON.parse(sent.body ?? '{}')).toMatchObject({ status: 503, code: 'SVC-BE-1206', name: 'MANIFEST_ARTIFACT_UPLOAD_FAILED', title: 'Manifest artifact upload failed' });
  });
});

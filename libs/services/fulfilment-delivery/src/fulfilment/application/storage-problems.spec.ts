import { PassThrough } from 'node:stream';
import { ProblemError } from '@dsar/platform/errors';
import { BlobNotFoundError, EmptyPayloadError, IntegrityError, MasterKeyMismatchError, PayloadTooLargeError, StorageUnavailableError, TenantKeyDestroyedError } from '@dsar/platform/storage';
import { storageReadProblem, storageWriteProblem } from './storage-problems';

const problem = (e: unknown) => {
  expect(e).toBeInstanceOf(ProblemError);
  const p = e as ProblemError;
  return { name: p.definition.name, code: p.definition.code, status: p.status, retryAfter: p.headers['Retry-After'] };
};

describe('artifact storage failures as the client sees them', () => {
  describe('writes', () => {
    it("over the limit is 413, no bytes is 400 with the write's code", () => {
      expect(problem(storageWriteProblem(new PayloadTooLargeError(10), 'MANIFEST_ARTIFACT_UPLOAD_FAILED', 10))).toMatchObject({ name: 'PAYLOAD_TOO_LARGE', status: 413 });
      expect(problem(storageWriteProblem(new EmptyPayloadError(), 'MANIFEST_ARTIFACT_UPLOAD_FAILED', 10))).toMatchObject({ code: 'SVC-BE-1206', status: 400 });
      expect(problem(storageWriteProblem(new EmptyPayloadError(), 'MANIFEST_ARTIFACT_REPLACE_FAILED', 10))).toMatchObject({ code: 'SVC-BE-1208', status: 400 });
    });

    it("storage not configured, misconfigured or failing is 503 with the write's code and Retry-After", () => {
      for (const e of [new StorageUnavailableError('no key'), new MasterKeyMismatchError('t', 'a', 'b'), Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })]) {
        expect(problem(storageWriteProblem(e, 'MANIFEST_ARTIFACT_UPLOAD_FAILED', 10, new PassThrough()))).toEqual({
          name: 'MANIFEST_ARTIFACT_UPLOAD_FAILED',
          code: 'SVC-BE-1206',
          status: 503,
          retryAfter: '5',
        });
        expect(problem(storageWriteProblem(e, 'MANIFEST_ARTIFACT_REPLACE_FAILED', 10))).toMatchObject({ code: 'SVC-BE-1208', status: 503 });
      }
    });

    it('a body the client stopped sending is no storage failure: the error stays as it is', () => {
      const source = new PassThrough();
      source.destroy();
      const aborted = new Error('aborted');
      expect(storageWriteProblem(aborted, 'MANIFEST_ARTIFACT_UPLOAD_FAILED', 10, source)).toBe(aborted);
    });
  });

  describe('reads', () => {
    it('bytes gone 404, shredded 410, storage unavailable 503, all MANIFEST_ARTIFACT_DOWNLOAD_FAILED', () => {
      expect(problem(storageReadProblem(new BlobNotFoundError('k'), 'a'))).toMatchObject({ code: 'SVC-BE-1207', status: 404 });
      expect(problem(storageReadProblem(new TenantKeyDestroyedError('t'), 'a'))).toMatchObject({ code: 'SVC-BE-1207', status: 410 });
      expect(problem(storageReadProblem(new StorageUnavailableError('x'), 'a'))).toEqual({ name: 'MANIFEST_ARTIFACT_DOWNLOAD_FAILED', code: 'SVC-BE-1207', status: 503, retryAfter: '5' });
    });

    it('altered bytes stay an internal error, never a "try again"', () => {
      const altered = new IntegrityError('tag mismatch');
      expect(storageReadProblem(altered, 'a')).toBe(altered);
    });
  });
});

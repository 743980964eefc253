import type { Readable } from 'node:stream';
import { ProblemError } from '@dsar/platform/errors';
import { BlobNotFoundError, EmptyPayloadError, IntegrityError, PayloadTooLargeError, StorageError, TenantKeyDestroyedError } from '@dsar/platform/storage';

/** The codes of the two artifact writes: an upload and a replacement. */
export type ArtifactWriteCode = 'MANIFEST_ARTIFACT_UPLOAD_FAILED' | 'MANIFEST_ARTIFACT_REPLACE_FAILED';

/** How long a client waits before retrying a write or read that storage could not serve. */
const RETRY_AFTER_SECONDS = '5';

export function tooLarge(maxBytes: number): ProblemError {
  return new ProblemError('PAYLOAD_TOO_LARGE', `An artifact may have at most ${maxBytes} bytes.`, undefined, { maxBytes });
}

export function emptyUpload(code: ArtifactWriteCode): ProblemError {
  return new ProblemError(code, 'The upload has no bytes: send the file as the request body.');
}

/**
 * A failed write of an artifact's bytes as the client sees it: over the limit 413, no bytes 400, and storage
 * that is not configured or failed 503 with the write's own code and Retry-After. A body the client stopped
 * sending is no storage failure: that error is returned as it is (no one waits for the answer).
 */
export function storageWriteProblem(e: unknown, code: ArtifactWriteCode, maxBytes: number, source?: Readable): unknown {
  if (e instanceof ProblemError) return e;
  if (e instanceof PayloadTooLargeError) return tooLarge(maxBytes);
  if (e instanceof EmptyPayloadError) return emptyUpload(code);
  if (source && (source.destroyed || (source as Readable & { readableAborted?: boolean }).readableAborted) && !(e instanceof StorageError)) return e;
  return new ProblemError(code, 'Artifact storage is not available right now: nothing was stored.', undefined, {}, { 'Retry-After': RETRY_AFTER_SECONDS }, 503);
}

/**
 * A failed read of an artifact's bytes: bytes gone 404, shredded 410, storage not available 503 (all with
 * MANIFEST_ARTIFACT_DOWNLOAD_FAILED). Stored bytes that fail their authentication were altered: that stays an
 * internal error (logged), never a "try again".
 */
export function storageReadProblem(e: unknown, what: string): unknown {
  if (e instanceof ProblemError || e instanceof IntegrityError) return e;
  if (e instanceof BlobNotFoundError) return new ProblemError('MANIFEST_ARTIFACT_DOWNLOAD_FAILED', `The bytes of ${what} are no longer held.`);
  if (e instanceof TenantKeyDestroyedError) {
    return new ProblemError('MANIFEST_ARTIFACT_DOWNLOAD_FAILED', `The bytes of ${what} were shredded with the tenant's data key.`, undefined, {}, {}, 410);
  }
  return new ProblemError('MANIFEST_ARTIFACT_DOWNLOAD_FAILED', 'Artifact storage is not available right now.', undefined, {}, { 'Retry-After': RETRY_AFTER_SECONDS }, 503);
}

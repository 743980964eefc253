/**
 * @dsar/platform/storage — personal-data files at rest (docs/storage.md).
 *
 * Two layers:
 * - `BlobStore`, the raw byte port: atomic writes, create-if-absent,
 *   compare-and-swap of small objects, ranged reads, strict keys. Drivers: `FilesystemBlobStore` (temporary file,
 *   fsync, rename; 0600/0700; two reads in flight, large ranges read with O_DIRECT), `S3BlobStore` (AWS S3 or an S3-compatible
 *   server: streamed multipart uploads, `If-None-Match: *`, ranged GETs) and
 *   `MemoryBlobStore` (tests, `memory://` data).
 * - `EncryptedStorage` (a `FileStorage`): envelope encryption per tenant. A
 *   random data key per tenant, wrapped by the master key and kept in the
 *   store under `keys/`; files under `data/<tenant>/` as a header and
 *   AES-256-GCM chunks of 1 MiB (64 KiB in files written before 2026-11-28) that bind the object key, the chunk index
 *   and the last-chunk flag. Streams both ways in O(chunk) memory, hashes the
 *   plaintext while storing it, enforces a size limit as the bytes arrive,
 *   serves byte ranges by decrypting only the chunks they touch, and shreds a
 *   tenant by deleting its wrapped key. Master key rotation: previous master
 *   keys unwrap the tenant keys they wrapped, which are rewrapped under the
 *   current one on first use or by `rewrapTenantKeys` (`npm run
 *   storage:rewrap`); files are never re-encrypted.
 *
 * In a service: spread `storageFields` into the config schema (and call
 * `requireStorageSettings` in its superRefine), import
 * `StorageModule.forRoot({ config })`, and inject `FileStorage`. Without a
 * master key the service still starts, with an `UnavailableStorage` whose
 * calls reject with `StorageUnavailableError` (answer 503).
 *
 * `safeFilename` turns an upload's file-name header into a label safe to
 * record and show. The contract test suites for new drivers are in
 * `@dsar/platform/storage/testing`, outside this entry. So is the S3 driver's class,
 * `@dsar/platform/storage/s3` (`storageFromConfig` loads it, and the AWS SDK
 * with it, only when STORAGE_DRIVER=s3).
 */
export * from './errors';
export { assertBlobKey, assertBlobPrefix, assertTenantId, isBlobKey, MAX_KEY_LENGTH, MAX_SEGMENT_LENGTH, tenantSegment } from './blob-key';
export * from './blob-store';
export * from './filesystem-blob-store';
export * from './memory-blob-store';
export type { S3BlobStoreOptions } from './s3-blob-store';
export { DEFAULT_CHUNK_SIZE, HEADER_LENGTH, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE, TAG_LENGTH, WRAPPED_KEY_LENGTH } from './envelope-format';
export * from './file-storage';
export * from './encrypted-storage';
export * from './storage-config';
export * from './storage.module';
export * from './safe-filename';

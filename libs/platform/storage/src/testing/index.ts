/**
 * Test helpers of @dsar/platform/storage, kept out of the production entry:
 * the contract suites every BlobStore driver runs (and EncryptedStorage over
 * it), and stream helpers.
 */
export * from './blob-store.contract';
export * from './encrypted-storage.contract';
export * from './streams';

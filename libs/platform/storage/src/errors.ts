/**
 * The typed failures of the storage library. Each carries a stable `code` so a
 * service can map it to its answer without string matching: not found → 404,
 * too large → 413, empty → 400, unsatisfiable range → 416, unavailable → 503,
 * integrity and key problems → 500 (they mean tampering or misconfiguration).
 * No message ever holds key material or file content.
 */
export abstract class StorageError extends Error {
  abstract readonly code: string;
}

/** A blob key, prefix or tenant id the library refuses: a programming error, not a caller's. */
export class InvalidKeyError extends StorageError {
  readonly code = 'STORAGE_INVALID_KEY';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidKeyError';
  }
}

/** No blob (or stored file) under the key. */
export class BlobNotFoundError extends StorageError {
  readonly code = 'STORAGE_NOT_FOUND';
  constructor(readonly key: string) {
    super(`No stored object under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/** A byte range that starts at or after the end of the object (HTTP 416). */
export class RangeNotSatisfiableError extends StorageError {
  readonly code = 'STORAGE_RANGE_NOT_SATISFIABLE';
  constructor(
    readonly start: number,
    readonly size: number,
  ) {
    super(`The range starts at byte ${start}, but the object has ${size} bytes`);
    this.name = 'RangeNotSatisfiableError';
  }
}

/** A stored file (or tenant key) failed authentication or is malformed: it was altered, truncated, reordered or moved. */
export class IntegrityError extends StorageError {
  readonly code = 'STORAGE_INTEGRITY';
  constructor(message: string) {
    super(message);
    this.name = 'IntegrityError';
  }
}

/** The payload crossed `maxBytes`; reading stopped there and nothing was kept. */
export class PayloadTooLargeError extends StorageError {
  readonly code = 'STORAGE_PAYLOAD_TOO_LARGE';
  constructor(readonly maxBytes: number) {
    super(`The payload exceeds the limit of ${maxBytes} bytes`);
    this.name = 'PayloadTooLargeError';
  }
}

/** The payload had no bytes; nothing was kept. */
export class EmptyPayloadError extends StorageError {
  readonly code = 'STORAGE_EMPTY_PAYLOAD';
  constructor() {
    super('The payload is empty');
    this.name = 'EmptyPayloadError';
  }
}

/**
 * The tenant's data key was destroyed (crypto-shredding), so the file cannot
 * be decrypted any more, even though its blob may remain. Also raised for a
 * file written under an earlier key of a tenant that has a new one since.
 */
export class TenantKeyDestroyedError extends StorageError {
  readonly code = 'STORAGE_TENANT_KEY_DESTROYED';
  constructor(readonly tenantId: string) {
    super(`The data key of tenant ${tenantId} was destroyed: its files written before cannot be read`);
    this.name = 'TenantKeyDestroyedError';
  }
}

/**
 * A tenant key was wrapped by a master key that is neither the configured one nor a previous one (a wrong or replaced
 * STORAGE_MASTER_KEY, or a previous key removed before the rewrap). Keys are named by their fingerprints only.
 */
export class MasterKeyMismatchError extends StorageError {
  readonly code = 'STORAGE_MASTER_KEY_MISMATCH';
  constructor(
    readonly tenantId: string,
    readonly wrappedBy: string,
    readonly configured: string,
    /** The fingerprints of the previous master keys configured (STORAGE_PREVIOUS_MASTER_KEYS). */
    readonly previous: readonly string[] = [],
  ) {
    super(
      `The data key of tenant ${tenantId} is wrapped by master key ${wrappedBy}, but the configured master key is ${configured}` +
        `${previous.length > 0 ? ` and the previous ones are ${previous.join(', ')}` : ''}: ` +
        'STORAGE_MASTER_KEY (or its file) is wrong or was replaced; after a rotation, name the old key in STORAGE_PREVIOUS_MASTER_KEYS',
    );
    this.name = 'MasterKeyMismatchError';
  }
}

/** Storage is not configured (no master key): the service works on, and answers 503 where it needs files. */
export class StorageUnavailableError extends StorageError {
  readonly code = 'STORAGE_UNAVAILABLE';
  constructor(readonly reason: string) {
    super(`File storage is not available: ${reason}`);
    this.name = 'StorageUnavailableError';
  }
}

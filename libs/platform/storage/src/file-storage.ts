import type { Readable } from 'node:stream';
import type { ByteRange } from './blob-store';
import { StorageUnavailableError } from './errors';

export interface PutOptions {
  /** The largest payload accepted, in bytes; one byte more rejects with PayloadTooLargeError. */
  maxBytes: number;
  /**
   * Whether to destroy `source` when the put fails (the default, as stream.pipeline does). An HTTP request must
   * stay open to carry the 413 answer: pass false, and put only stops reading it.
   */
  destroySourceOnError?: boolean;
}

export interface PutResult {
  /** Plaintext bytes stored. */
  size: number;
  /** SHA-256 of the plaintext, hex. */
  sha256: string;
}

export interface GetResult {
  /** The plaintext, or the requested part of it; fails with IntegrityError where the stored bytes were altered. */
  stream: Readable;
  /** Plaintext size of the whole object (not of the range). */
  size: number;
  /** The bytes the stream carries: the whole object, or the range with its end clamped to the last byte. */
  range: ByteRange;
}

/**
 * A service's store of personal-data files, encrypted at rest per tenant.
 * Inject it (`constructor(private readonly files: FileStorage)`) from
 * `StorageModule`: it is an `EncryptedStorage`, or an `UnavailableStorage`
 * when no master key is configured, whose every call rejects with
 * `StorageUnavailableError` (answer 503).
 */
export abstract class FileStorage {
  /** False when storage is not configured; `unavailableReason` then says why. */
  abstract readonly available: boolean;
  readonly unavailableReason?: string;

  /**
   * Streams `source` into the object `objectKey` of `tenantId` (replacing any
   * object there) and resolves with the plaintext's size and SHA-256.
   * Rejects with PayloadTooLargeError as soon as more than `maxBytes` arrived,
   * with EmptyPayloadError for no bytes; nothing is kept on any failure.
   */
  abstract put(tenantId: string, objectKey: string, source: Readable, options: PutOptions): Promise<PutResult>;

  /**
   * The plaintext of an object, or of `range` (inclusive, end clamped). Rejects with BlobNotFoundError,
   * RangeNotSatisfiableError, TenantKeyDestroyedError, or IntegrityError when the header or first chunk fails.
   */
  abstract get(tenantId: string, objectKey: string, range?: ByteRange): Promise<GetResult>;

  /** Removes an object; nothing happens when there is none. */
  abstract delete(tenantId: string, objectKey: string): Promise<void>;

  /**
   * Crypto-shredding: deletes the tenant's wrapped data key, so that every
   * file of the tenant becomes unreadable even where its blob remains. A later
   * put makes a new key (earlier files stay unreadable).
   */
  abstract destroyTenantKey(tenantId: string): Promise<void>;
}

/** The storage of a service without a master key: it starts, and every call rejects with StorageUnavailableError. */
export class UnavailableStorage extends FileStorage {
  readonly available = false;

  constructor(override readonly unavailableReason: string) {
    super();
  }

  async put(_tenantId: string, _objectKey: string, source: Readable, options: PutOptions): Promise<PutResult> {
    // Like any failed put: the source is destroyed unless the caller keeps it for its answer.
    if (options?.destroySourceOnError ?? true) source.destroy();
    throw new StorageUnavailableError(this.unavailableReason);
  }

  async get(): Promise<GetResult> {
    throw new StorageUnavailableError(this.unavailableReason);
  }

  async delete(): Promise<void> {
    throw new StorageUnavailableError(this.unavailableReason);
  }

  async destroyTenantKey(): Promise<void> {
    throw new StorageUnavailableError(this.unavailableReason);
  }
}

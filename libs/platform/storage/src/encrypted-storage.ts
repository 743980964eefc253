import { createHash, createSecretKey, type KeyObject } from 'node:crypto';
import { Readable } from 'node:stream';
import { assertBlobKey, tenantIdOfSegment, tenantSegment } from './blob-key';
import { assertByteRange, type BlobStore, type ByteRange, clampRange } from './blob-store';
import {
  bodyLayout,
  ChunkSealer,
  type DataKey,
  DEFAULT_CHUNK_SIZE,
  fileKey,
  HEADER_LENGTH,
  MASTER_KEY_LENGTH,
  MAX_CHUNK_SIZE,
  MAX_CHUNKS,
  masterKeyId,
  MIN_CHUNK_SIZE,
  newDataKey,
  newFileHeader,
  parseFileHeader,
  TAG_LENGTH,
  unwrapDataKey,
  WRAPPED_KEY_LENGTH,
  wrapDataKey,
  wrappedKeyId,
  wrappingKeyId,
} from './envelope-format';
import { ChunkRefusedError, type SealingJob, startOpening, startSealing } from './chunk-crypto-threads';
import { BlobNotFoundError, EmptyPayloadError, IntegrityError, MasterKeyMismatchError, PayloadTooLargeError, TenantKeyDestroyedError } from './errors';
import { FileStorage, type GetResult, type PutOptions, type PutResult } from './file-storage';

/** Where EncryptedStorage keeps things in its BlobStore (which it owns alone). */
export const TENANT_KEYS_PREFIX = 'keys/';
export const TENANT_DATA_PREFIX = 'data/';

/** The blob of a tenant's wrapped data key. */
export function tenantKeyBlobKey(tenantId: string): string {
  return `${TENANT_KEYS_PREFIX}${tenantSegment(tenantId)}.key`;
}

/** A tenant key blob, with the tenant's segment (tombstones, in folders of their own, do not match). */
const TENANT_KEY_BLOB = /^keys\/([^/]+)\.key$/;

/** Reads of a tenant key that found it changed by another writer, before giving up. */
const KEY_ATTEMPTS = 3;

/** The tombstone of a destroyed data key (its id only), kept so that its files are known as shredded rather than altered. */
export function destroyedKeyBlobKey(tenantId: string, keyId: Buffer): string {
  return `${TENANT_KEYS_PREFIX}${tenantSegment(tenantId)}.destroyed/${keyId.toString('hex')}`;
}

/** The prefix of every file of a tenant (to delete the blobs after crypto-shredding). */
export function tenantDataPrefix(tenantId: string): string {
  return `${TENANT_DATA_PREFIX}${tenantSegment(tenantId)}/`;
}

/** The blob of a file; `objectKey` follows the blob key rules (lowercase a-z, 0-9, `.`, `_`, `-`, `/`-separated). */
export function objectBlobKey(tenantId: string, objectKey: string): string {
  assertBlobKey(objectKey);
  const key = `${tenantDataPrefix(tenantId)}${objectKey}`;
  assertBlobKey(key);
  return key;
}

export interface EncryptedStorageOptions {
  /** Plaintext bytes per chunk of new files (default 64 KiB); a file keeps the size it was written with. */
  chunkSize?: number;
  /** How long an unwrapped tenant key is reused for reads (default 60 s). */
  keyCacheTtlMs?: number;
  /** How many unwrapped tenant keys are kept at most (default 1000). */
  keyCacheSize?: number;
  /**
   * Earlier master keys (32 bytes each) during a rotation (docs/storage.md#master-key-rotation): a tenant key that one
   * of them wrapped is unwrapped with it and rewrapped under the master key on first use, or by rewrapTenantKeys. New
   * tenant keys are always wrapped by the master key.
   */
  previousMasterKeys?: readonly Buffer[];
  /** Told when the rewrap of a tenant key on first use failed: the key was used all the same, and the next use tries again. */
  onRewrapFailure?: (tenantId: string, error: unknown) => void;
}

export interface RewrapOptions {
  /** Tenant ids to recognize the keys of: a key blob named by the hash of a long id cannot be rewrapped without it. */
  tenantIds?: Iterable<string>;
  /** Tenant keys rewrapped at a time (default 8). */
  concurrency?: number;
}

/** What rewrapTenantKeys did: counts of tenant keys, and why each failure failed (fingerprints at most, never a key). */
export interface RewrapReport {
  rewrapped: number;
  alreadyCurrent: number;
  failed: number;
  failures: { blobKey: string; tenantId?: string; reason: string }[];
}

/**
 * Envelope encryption over a BlobStore (docs/storage.md): every tenant has a
 * random data key, kept wrapped by the master key in the store itself; every
 * file is encrypted in authenticated chunks under a key derived from the
 * tenant's. Memory stays O(chunk size) whatever the file size. Key material is
 * held in KeyObjects and private fields: it never appears in logs, messages or
 * `util.inspect`. Previous master keys still unwrap the tenant keys they
 * wrapped, which are then rewrapped under the master key (rotation).
 */
export class EncryptedStorage extends FileStorage {
  readonly available = true;
  readonly chunkSize: number;
  readonly #masterKey: KeyObject;
  readonly #masterKeyId: string;
  /** Every master key that unwraps, by id: the master key, then the previous ones. */
  readonly #masterKeys = new Map<string, KeyObject>();
  readonly #keys: TenantKeyCache;
  readonly #onRewrapFailure: EncryptedStorageOptions['onRewrapFailure'];

  constructor(
    readonly store: BlobStore,
    masterKey: Buffer,
    options: EncryptedStorageOptions = {},
  ) {
    super();
    if (!Buffer.isBuffer(masterKey) || masterKey.length !== MASTER_KEY_LENGTH) throw new Error(`A storage master key must be ${MASTER_KEY_LENGTH} bytes`);
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    if (!Number.isInteger(this.chunkSize) || this.chunkSize < MIN_CHUNK_SIZE || this.chunkSize > MAX_CHUNK_SIZE) {
      throw new RangeError(`chunkSize must be an integer from ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE}`);
    }
    this.#masterKey = createSecretKey(masterKey);
    this.#masterKeyId = masterKeyId(this.#masterKey).toString('hex');
    this.#masterKeys.set(this.#masterKeyId, this.#masterKey);
    for (const previous of options.previousMasterKeys ?? []) {
      if (!Buffer.isBuffer(previous) || previous.length !== MASTER_KEY_LENGTH) throw new Error(`A previous storage master key must be ${MASTER_KEY_LENGTH} bytes`);
      const key = createSecretKey(previous);
      const id = masterKeyId(key).toString('hex');
      // The master key itself, or a key named twice, adds nothing.
      if (!this.#masterKeys.has(id)) this.#masterKeys.set(id, key);
    }
    this.#keys = new TenantKeyCache(options.keyCacheTtlMs ?? 60_000, options.keyCacheSize ?? 1000);
    this.#onRewrapFailure = options.onRewrapFailure;
  }

  /** The fingerprint of the master key (16 hex digits), as named in MasterKeyMismatchError. */
  get masterKeyId(): string {
    return this.#masterKeyId;
  }

  /** The fingerprints of the previous master keys, in the order given. */
  get previousMasterKeyIds(): string[] {
    return [...this.#masterKeys.keys()].slice(1);
  }

  async put(tenantId: string, objectKey: string, source: Readable, options: PutOptions): Promise<PutResult> {
    const destroySource = options.destroySourceOnError ?? true;
    try {
      return await this.putStream(tenantId, objectKey, source, options.maxBytes, destroySource);
    } catch (e) {
      // Also when the failure came before the first read (a bad key, a wrong master key).
      if (destroySource && !source.destroyed) source.destroy();
      throw e;
    }
  }

  private async putStream(tenantId: string, objectKey: string, source: Readable, maxBytes: number, destroySource: boolean): Promise<PutResult> {
    const blobKey = objectBlobKey(tenantId, objectKey);
    if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new RangeError('maxBytes must be a positive integer');
    const dataKey = await this.keyForWrite(tenantId);
    const header = newFileHeader(dataKey.id, this.chunkSize);
    const sealer = new ChunkSealer(fileKey(dataKey.key, header), header, tenantId, objectKey);
    const chunkSize = this.chunkSize;
    let size = 0;
    let sha256 = '';
    let failure: Error | undefined;

    async function* encrypted(): AsyncGenerator<Buffer> {
      // Leaving this loop early (limit crossed, store failed) ends the iteration: it destroys the source unless told not to.
      const input: AsyncIterable<unknown> = destroySource ? source : { [Symbol.asyncIterator]: () => source.iterator({ destroyOnReturn: false }) };
      // The plaintext of the chunk being filled, grown up to the chunk size as a small file needs it: the pieces are
      // copied in rather than joined.
      let plain: Buffer = Buffer.allocUnsafe(Math.min(chunkSize, FIRST_PLAIN_BUFFER));
      let filled = 0;
      let index = 0;
      // A file of more than one chunk is hashed and sealed on a thread of its own (ADR 0034), a few chunks ahead of
      // the store; a file of one chunk here, which spares a small file the round trip.
      let job: SealingJob | undefined;
      const sealing: Promise<[Buffer, Buffer]>[] = [];
      const seal = (final: boolean) => {
        job ??= startSealing(sealer.key);
        const sealed = job.seal(plain, filled, sealer.nonce(index), sealer.aad(index, final));
        // Awaited in order below, unless the file is given up first: never an unhandled rejection.
        sealed.catch(() => undefined);
        sealing.push(sealed);
        index++;
        plain = job.plainBuffer(chunkSize);
        filled = 0;
      };
      try {
        yield header.bytes;
        for await (const piece of input) {
          const bytes = asBuffer(piece);
          size += bytes.length;
          if (size > maxBytes) throw (failure = new PayloadTooLargeError(maxBytes));
          for (let offset = 0; offset < bytes.length;) {
            // A full chunk is sealed only once a byte beyond it arrived: the last chunk must carry the final flag.
            if (filled === chunkSize) {
              if (index >= MAX_CHUNKS - 1) throw (failure = new PayloadTooLargeError(maxBytes));
              seal(false);
              while (sealing.length >= SEALS_IN_FLIGHT) yield* (await sealing.shift()) as [Buffer, Buffer];
            }
            const taken = Math.min(chunkSize - filled, bytes.length - offset);
            if (filled + taken > plain.length) plain = grown(plain, filled, Math.min(chunkSize, Math.max(plain.length * 2, filled + taken)));
            bytes.copy(plain, filled, offset, offset + taken);
            filled += taken;
            offset += taken;
          }
        }
        if (size === 0) throw (failure = new EmptyPayloadError());
        if (job === undefined) {
          const last = plain.subarray(0, filled);
          sha256 = createHash('sha256').update(last).digest('hex');
          yield* sealer.seal(index, true, last);
          return;
        }
        seal(true);
        while (sealing.length > 0) yield* (await sealing.shift()) as [Buffer, Buffer];
        sha256 = await job.digest();
      } finally {
        // Given up (the limit, the store, the source): the thread forgets the file.
        if (sha256 === '') job?.abort();
      }
    }

    try {
      await this.store.write(blobKey, Readable.from(encrypted(), { objectMode: false }));
    } catch (e) {
      throw failure ?? e;
    }
    return { size, sha256 };
  }

  async get(tenantId: string, objectKey: string, range?: ByteRange): Promise<GetResult> {
    const blobKey = objectBlobKey(tenantId, objectKey);
    if (range) assertByteRange(range);
    const stat = await this.store.stat(blobKey);
    if (!stat) throw new BlobNotFoundError(objectKey);
    if (stat.size < HEADER_LENGTH) throw new IntegrityError(`${objectKey}: truncated encrypted file`);
    const header = parseFileHeader(await readAll(await this.store.read(blobKey, { start: 0, end: HEADER_LENGTH - 1 }), HEADER_LENGTH), objectKey);
    const { chunks, plaintextSize } = bodyLayout(stat.size, header.chunkSize, objectKey);
    const dataKey = await this.keyForRead(tenantId, header.keyId, objectKey);
    const bounds = range ? clampRange(range, plaintextSize) : { start: 0, end: plaintextSize - 1 };

    // Only the chunks that hold the range are read: chunk i starts at HEADER_LENGTH + i × (chunk size + tag).
    const chunkSize = header.chunkSize;
    const cipherChunk = chunkSize + TAG_LENGTH;
    const first = Math.floor(bounds.start / chunkSize);
    const last = Math.floor(bounds.end / chunkSize);
    const lastCipherLength = stat.size - HEADER_LENGTH - (chunks - 1) * cipherChunk;
    const cipherStart = HEADER_LENGTH + first * cipherChunk;
    const cipherEnd = Math.min(HEADER_LENGTH + (last + 1) * cipherChunk, stat.size) - 1;
    const body = await this.store.read(blobKey, { start: cipherStart, end: cipherEnd }, { pieceSize: cipherChunk });
    const sealer = new ChunkSealer(fileKey(dataKey.key, header), header, tenantId, objectKey);

    async function* plaintext(): AsyncGenerator<Buffer> {
      let pending: Buffer[] = [];
      let pendingLength = 0;
      let index = first;
      const lengthOf = (i: number) => (i === chunks - 1 ? lastCipherLength : cipherChunk);
      /** The part of chunk `i`'s plaintext that is in the range. */
      const inRange = (i: number, opened: Buffer) => {
        const offset = i * chunkSize;
        return opened.subarray(Math.max(bounds.start - offset, 0), Math.min(bounds.end - offset + 1, opened.length));
      };
      // A range of more than one chunk is opened on a thread (ADR 0034), a few chunks ahead of the reader; one chunk
      // here, which spares a small read the round trip.
      const job = last > first ? startOpening(sealer.key) : undefined;
      const opening: { index: number; opened: Promise<Buffer> }[] = [];
      const openedOf = async ({ index: i, opened }: { index: number; opened: Promise<Buffer> }): Promise<Buffer> => {
        try {
          return inRange(i, await opened);
        } catch (e) {
          throw e instanceof ChunkRefusedError ? new IntegrityError(`${objectKey}: chunk ${i} failed authentication (altered, moved or truncated)`) : e;
        }
      };
      try {
        for await (const piece of body) {
          pending.push(piece as Buffer);
          pendingLength += (piece as Buffer).length;
          while (index <= last && pendingLength >= lengthOf(index)) {
            const need = lengthOf(index);
            const all = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingLength);
            // Taken before the chunk may be moved to the thread (a piece that is exactly one chunk is moved whole).
            const rest = all.subarray(need);
            pending = rest.length > 0 ? [rest] : [];
            pendingLength = rest.length;
            const final = index === chunks - 1;
            if (job) {
              const opened = job.open(all.subarray(0, need), need, sealer.nonce(index), sealer.aad(index, final));
              // Awaited in order below, unless the read is given up first: never an unhandled rejection.
              opened.catch(() => undefined);
              opening.push({ index, opened });
            } else {
              yield inRange(index, sealer.open(index, final, all.subarray(0, need), objectKey));
            }
            index++;
            while (opening.length >= OPENS_IN_FLIGHT) yield await openedOf(opening.shift() as (typeof opening)[number]);
          }
        }
        if (index <= last || pendingLength > 0) throw new IntegrityError(`${objectKey}: the encrypted file changed length while it was read`);
        while (opening.length > 0) yield await openedOf(opening.shift() as (typeof opening)[number]);
      } finally {
        job?.abort();
      }
    }

    // The first chunk is checked before answering, so a wrong key, a moved file or an altered header is an
    // error of get itself (a clean 500), not a stream that breaks after the caller sent its headers.
    const chunksOut = plaintext();
    let head: IteratorResult<Buffer>;
    try {
      head = await chunksOut.next();
    } catch (e) {
      body.destroy();
      throw e;
    }
    return { stream: Readable.from(prepend(head, chunksOut), { objectMode: false }), size: plaintextSize, range: bounds };
  }

  async delete(tenantId: string, objectKey: string): Promise<void> {
    await this.store.delete(objectBlobKey(tenantId, objectKey));
  }

  async destroyTenantKey(tenantId: string): Promise<void> {
    const keyBlob = tenantKeyBlobKey(tenantId);
    this.#keys.delete(tenantId);
    let wrapped: Buffer | undefined;
    try {
      wrapped = await readAll(await this.store.read(keyBlob), WRAPPED_KEY_LENGTH);
    } catch (e) {
      if (!(e instanceof BlobNotFoundError || e instanceof IntegrityError)) throw e;
    }
    // The tombstone (the destroyed key's id, nothing secret) lets get tell a shredded file from a tampered header.
    const id = wrapped && wrappedKeyId(wrapped);
    if (id) await this.store.write(destroyedKeyBlobKey(tenantId, id), Readable.from([], { objectMode: false }));
    await this.store.delete(keyBlob);
    // Again: a read that loaded the key meanwhile may have put it back into the cache.
    this.#keys.delete(tenantId);
  }

  /**
   * Rewraps under the master key every tenant key (`keys/*.key`) that a previous master key wrapped, as a first use
   * would: the data keys stay, so no file is read or rewritten. Safe while the services run: each key is replaced only
   * if it is unchanged since it was read, so a key destroyed or replaced meanwhile is left alone. Failures (a key
   * wrapped by an unknown master key, an altered one, a key named by the hash of a long tenant id that `tenantIds`
   * does not give) are counted and described; a failure to list the store rejects.
   */
  async rewrapTenantKeys(options: RewrapOptions = {}): Promise<RewrapReport> {
    const named = new Map<string, string>();
    for (const tenantId of options.tenantIds ?? []) named.set(tenantKeyBlobKey(tenantId), tenantId);
    const report: RewrapReport = { rewrapped: 0, alreadyCurrent: 0, failed: 0, failures: [] };
    const blobKeys = this.store.list(TENANT_KEYS_PREFIX)[Symbol.asyncIterator]();
    // The workers take the listed keys one at a time, in turn.
    let taken: Promise<IteratorResult<string>> = Promise.resolve({ done: false, value: '' });
    const take = () => (taken = taken.then(() => blobKeys.next()));
    const worker = async () => {
      for (let next = await take(); !next.done; next = await take()) {
        const segment = TENANT_KEY_BLOB.exec(next.value)?.[1];
        if (segment === undefined) continue;
        const tenantId = named.get(next.value) ?? tenantIdOfSegment(segment);
        try {
          const outcome = await this.rewrapBlob(next.value, tenantId);
          if (outcome) report[outcome]++;
        } catch (e) {
          report.failed++;
          report.failures.push({ blobKey: next.value, ...(tenantId === undefined ? {} : { tenantId }), reason: e instanceof Error ? e.message : String(e) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
    return report;
  }

  /** What rewrapping one tenant key blob did (nothing when it is gone); rejects with why it could not. */
  private async rewrapBlob(blobKey: string, tenantId: string | undefined): Promise<'rewrapped' | 'alreadyCurrent' | undefined> {
    if (tenantId !== undefined) {
      const opened = await this.openKey(tenantId, false);
      return opened && (opened.rewrapped ? 'rewrapped' : 'alreadyCurrent');
    }
    // Named by a hash: the master key that wrapped it shows without the tenant id, but unwrapping needs the id.
    const wrapped = await this.readWrapped(blobKey);
    const wrappedBy = wrapped && wrappingKeyId(wrapped);
    if (!wrapped || wrappedBy === this.#masterKeyId) return wrapped && 'alreadyCurrent';
    if (wrappedBy && this.#masterKeys.has(wrappedBy)) throw new Error('it is named by the hash of a long tenant id: give that id to rewrap it (its first use rewraps it too)');
    throw new Error(`it is wrapped by master key ${wrappedBy ?? '(none: not a wrapped key)'}, neither the current nor a previous one`);
  }

  /** The tenant's key for a new file: read from the store (not the cache, which may miss a destroy elsewhere), made when absent. */
  private async keyForWrite(tenantId: string): Promise<DataKey> {
    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
      const existing = await this.loadKey(tenantId);
      if (existing) return existing;
      const { dataKey, raw } = newDataKey();
      const wrapped = wrapDataKey(this.#masterKey, tenantId, dataKey.id, raw);
      raw.fill(0);
      // Create-if-absent: of two first puts racing, one key wins and both use it.
      if (await this.store.writeIfAbsent(tenantKeyBlobKey(tenantId), Readable.from([wrapped], { objectMode: false }))) {
        this.#keys.set(tenantId, dataKey);
        return dataKey;
      }
    }
    throw new Error(`The data key of tenant ${tenantId} was created and destroyed repeatedly while a file was being stored`);
  }

  /** The tenant's key that encrypted a file (named by its id in the header); TenantKeyDestroyedError when it no longer exists. */
  private async keyForRead(tenantId: string, keyId: Buffer, objectKey: string): Promise<DataKey> {
    const cached = this.#keys.get(tenantId);
    if (cached?.id.equals(keyId)) return cached;
    const current = await this.loadKey(tenantId);
    if (current?.id.equals(keyId)) return current;
    if (!current || (await this.store.stat(destroyedKeyBlobKey(tenantId, keyId)))) throw new TenantKeyDestroyedError(tenantId);
    // The tenant never had the key the header names: the header was altered, or the file copied from another tenant.
    throw new IntegrityError(`${objectKey}: names a data key tenant ${tenantId} never had (altered header or file copied from another tenant)`);
  }

  private async loadKey(tenantId: string): Promise<DataKey | undefined> {
    const opened = await this.openKey(tenantId, true);
    if (opened) this.#keys.set(tenantId, opened.dataKey);
    return opened?.dataKey;
  }

  /**
   * The tenant's data key from the store; undefined when it has none. A key that a previous master key wrapped is
   * rewrapped under the master key first, by compare-and-swap, so that a key destroyed or replaced since it was read
   * is never brought back (it is then read again). On first use (`lazy`) a failure of that write is told to
   * onRewrapFailure and the key used all the same; for rewrapTenantKeys it rejects.
   */
  private async openKey(tenantId: string, lazy: boolean): Promise<{ dataKey: DataKey; rewrapped: boolean } | undefined> {
    const blobKey = tenantKeyBlobKey(tenantId);
    for (let attempt = 1; ; attempt++) {
      const wrapped = await this.readWrapped(blobKey);
      if (!wrapped) return undefined;
      const result = unwrapDataKey(this.#masterKeys, tenantId, wrapped);
      if (!result.ok) throw new MasterKeyMismatchError(tenantId, result.wrappedBy, this.#masterKeyId, this.previousMasterKeyIds);
      const { dataKey } = result;
      if (result.wrappedBy === this.#masterKeyId) return { dataKey, rewrapped: false };
      try {
        if (await this.store.replaceIfUnchanged(blobKey, wrapped, this.wrapUnderMasterKey(tenantId, dataKey))) return { dataKey, rewrapped: true };
      } catch (e) {
        if (!lazy) throw e;
        this.#onRewrapFailure?.(tenantId, e);
        return { dataKey, rewrapped: false };
      }
      if (attempt >= KEY_ATTEMPTS) throw new Error(`The data key of tenant ${tenantId} kept changing while it was being rewrapped`);
    }
  }

  /** A wrapped tenant key's bytes; undefined when there is none. */
  private async readWrapped(blobKey: string): Promise<Buffer | undefined> {
    try {
      return await readAll(await this.store.read(blobKey), WRAPPED_KEY_LENGTH);
    } catch (e) {
      if (e instanceof BlobNotFoundError) return undefined;
      throw e;
    }
  }

  /** The data key wrapped by the master key. */
  private wrapUnderMasterKey(tenantId: string, dataKey: DataKey): Buffer {
    const raw = dataKey.key.export();
    try {
      return wrapDataKey(this.#masterKey, tenantId, dataKey.id, raw);
    } finally {
      raw.fill(0);
    }
  }
}

/** Unwrapped tenant keys for a short while, least recently used first out. */
class TenantKeyCache {
  private readonly entries = new Map<string, { key: DataKey; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(tenantId: string): DataKey | undefined {
    const entry = this.entries.get(tenantId);
    if (!entry) return undefined;
    this.entries.delete(tenantId);
    if (entry.expiresAt <= performance.now()) return undefined;
    this.entries.set(tenantId, entry);
    return entry.key;
  }

  set(tenantId: string, key: DataKey): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.delete(tenantId);
    this.entries.set(tenantId, { key, expiresAt: performance.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(tenantId: string): void {
    this.entries.delete(tenantId);
  }
}

/** The first plaintext buffer of a file being written: most files (evidence, small artifacts) never need more. */
const FIRST_PLAIN_BUFFER = 64 * 1024;

/** Chunks of a file being sealed on its thread at once, ahead of the store: enough to keep the thread busy. */
const SEALS_IN_FLIGHT = 4;
/** Chunks of a file being opened on its thread at once, ahead of the reader. */
const OPENS_IN_FLIGHT = 4;

/** A buffer of `length` bytes holding the first `filled` bytes of `buffer`. */
function grown(buffer: Buffer, filled: number, length: number): Buffer {
  const bigger = Buffer.allocUnsafe(length);
  buffer.copy(bigger, 0, 0, filled);
  return bigger;
}

function asBuffer(piece: unknown): Buffer {
  if (Buffer.isBuffer(piece)) return piece;
  if (piece instanceof Uint8Array) return Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
  throw new TypeError('The source must yield bytes (Buffer or Uint8Array), not strings or objects');
}

/** Reads a small stream whole; IntegrityError when it is longer than `limit` (a key or header is never large). */
async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const piece of stream) {
    length += (piece as Buffer).length;
    if (length > limit) throw new IntegrityError('A stored key or header is longer than its format allows');
    parts.push(piece as Buffer);
  }
  return Buffer.concat(parts, length);
}

async function* prepend(head: IteratorResult<Buffer>, rest: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  try {
    if (head.done) return;
    yield head.value;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}

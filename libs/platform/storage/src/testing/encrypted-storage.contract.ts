import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../blob-store';
import { EncryptedStorage, objectBlobKey, TENANT_DATA_PREFIX, TENANT_KEYS_PREFIX, tenantKeyBlobKey } from '../encrypted-storage';
import { HEADER_LENGTH, TAG_LENGTH, wrappingKeyId } from '../envelope-format';
import { BlobNotFoundError, EmptyPayloadError, IntegrityError, InvalidKeyError, MasterKeyMismatchError, PayloadTooLargeError, RangeNotSatisfiableError, TenantKeyDestroyedError } from '../errors';
import type { BlobStoreFactory } from './blob-store.contract';
import { abandonAfterFirstPiece, endlessSource, failingSource, readAllBytes, sha256Hex, sourceOf, testBytes } from './streams';

/** The chunk size of the files written here: smaller than the default, so that files of a few chunks stay small. */
const CHUNK = 64 * 1024;
const CIPHER_CHUNK = CHUNK + TAG_LENGTH;
const LIMIT = 64 * 1024 * 1024;

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
}

async function raw(store: BlobStore, key: string): Promise<Buffer> {
  return readAllBytes(await store.read(key));
}

async function replace(store: BlobStore, key: string, bytes: Buffer): Promise<void> {
  await store.write(key, sourceOf(bytes, 1 << 20));
}

/** Every blob under `prefix` with its bytes, to show that a rotation leaves the files as they were. */
async function snapshot(store: BlobStore, prefix: string): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  for (const key of await keysOf(store, prefix)) blobs.set(key, await raw(store, key));
  return blobs;
}

/** The fingerprint of the master key that wrapped a tenant's key, as the stored wrapped key names it. */
async function wrappedBy(store: BlobStore, tenantId: string): Promise<string | undefined> {
  return wrappingKeyId(await raw(store, tenantKeyBlobKey(tenantId)));
}

/** The rejection of `work`; fails when it succeeds. */
async function rejectionOf(work: Promise<unknown>): Promise<Error> {
  return work.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );
}

/** The plaintext of an object, whether the failure comes from get or from its stream. */
export async function readObject(storage: EncryptedStorage, tenantId: string, objectKey: string, range?: ByteRange): Promise<Buffer> {
  const { stream } = await storage.get(tenantId, objectKey, range);
  return readAllBytes(stream);
}

/**
 * The behaviour of EncryptedStorage over a BlobStore driver: round trips,
 * ranges, tamper detection, crypto-shredding, limits, key races and master
 * key rotation. Every driver runs it too (the tampering and the rotation's
 * compare-and-swap go through the BlobStore port).
 */
export function describeEncryptedStorageContract(name: string, factory: BlobStoreFactory): void {
  describe(`EncryptedStorage contract: ${name}`, () => {
    let store: BlobStore;
    let storage: EncryptedStorage;
    let masterKey: Buffer;
    beforeEach(async () => {
      store = await factory.make();
      masterKey = randomBytes(32);
      storage = new EncryptedStorage(store, masterKey, { chunkSize: CHUNK });
    });
    afterEach(async () => {
      await factory.dispose?.(store);
    });

    const put = (objectKey: string, bytes: Buffer, tenantId = 'tenant-a') => storage.put(tenantId, objectKey, sourceOf(bytes, 10_007), { maxBytes: LIMIT });

    it.each([1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 5 * CHUNK + 7])('stores and reads back %i bytes, with their size and SHA-256', async (size) => {
      const bytes = testBytes(size, size);
      expect(await put('files/f1', bytes)).toEqual({ size, sha256: sha256Hex(bytes) });
      const got = await storage.get('tenant-a', 'files/f1');
      expect(got.size).toBe(size);
      expect(got.range).toEqual({ start: 0, end: size - 1 });
      expect((await readAllBytes(got.stream)).equals(bytes)).toBe(true);
      // Header, then one tag per chunk: the stored size is exact.
      expect(await store.stat(objectBlobKey('tenant-a', 'files/f1'))).toEqual({ size: HEADER_LENGTH + size + Math.ceil(size / CHUNK) * TAG_LENGTH });
    });

    it('reads ranges across every chunk boundary, decrypting only the chunks they touch', async () => {
      const size = 3 * CHUNK + 100;
      const bytes = testBytes(size, 42);
      await put('ranged', bytes);
      const edges = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 2 * CHUNK, 2 * CHUNK + 1, 3 * CHUNK - 1, 3 * CHUNK, 3 * CHUNK + 1, size - 1];
      const reads: ByteRange[] = [];
      const read = store.read.bind(store);
      store.read = async (key: string, range?: ByteRange) => {
        if (range) reads.push(range);
        return read(key, range);
      };
      for (const edge of edges) {
        for (const [start, end] of [
          [edge, edge],
          [0, edge],
          [edge, size - 1],
          [edge, edge + CHUNK],
          [Math.max(edge - 1, 0), edge + 1],
          [edge, size + 1000],
        ]) {
          reads.length = 0;
          const got = await storage.get('tenant-a', 'ranged', { start, end });
          const want = bytes.subarray(start, Math.min(end, size - 1) + 1);
          expect(got.range).toEqual({ start, end: Math.min(end, size - 1) });
          expect(got.size).toBe(size);
          expect((await readAllBytes(got.stream)).equals(want)).toBe(true);
          // The body read covers exactly the chunks of the range.
          const body = reads[reads.length - 1];
          const first = Math.floor(start / CHUNK);
          const last = Math.floor(Math.min(end, size - 1) / CHUNK);
          expect(body.start).toBe(HEADER_LENGTH + first * CIPHER_CHUNK);
          expect(body.end).toBe(Math.min(HEADER_LENGTH + (last + 1) * CIPHER_CHUNK, HEADER_LENGTH + size + 4 * TAG_LENGTH) - 1);
        }
      }
    });

    it('refuses ranges that start past the end, and malformed ones', async () => {
      await put('small', testBytes(10));
      await expect(storage.get('tenant-a', 'small', { start: 10, end: 20 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      await expect(storage.get('tenant-a', 'small', { start: 3, end: 2 })).rejects.toBeInstanceOf(RangeError);
    });

    it('keeps no plaintext in the stored bytes', async () => {
      const pattern = Buffer.from('Jane Doe, 1 Example Street, IBAN DE89370400440532013000; ');
      const bytes = Buffer.concat(Array.from({ length: 4000 }, () => pattern));
      await put('secret', bytes);
      const stored = await raw(store, objectBlobKey('tenant-a', 'secret'));
      expect(stored.includes(Buffer.from('Jane Doe'))).toBe(false);
      expect(stored.includes(pattern.subarray(0, 16))).toBe(false);
      const wrapped = await raw(store, tenantKeyBlobKey('tenant-a'));
      expect(wrapped.includes(masterKey.subarray(0, 8))).toBe(false);
    });

    it('answers BlobNotFoundError for an unknown object, also of an unknown tenant', async () => {
      await put('exists', testBytes(5));
      await expect(storage.get('tenant-a', 'does/not/exist')).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(storage.get('tenant-without-files', 'exists')).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('replaces an object, and deletes it idempotently', async () => {
      await put('doc', testBytes(100, 1));
      await put('doc', testBytes(50, 2));
      expect((await readObject(storage, 'tenant-a', 'doc')).equals(testBytes(50, 2))).toBe(true);
      await storage.delete('tenant-a', 'doc');
      await storage.delete('tenant-a', 'doc');
      await expect(storage.get('tenant-a', 'doc')).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('keeps tenants apart, whatever their ids', async () => {
      const tenants = ['default', 'Acme Corp/EU', 'x'.repeat(256), '..', 'a.b'];
      for (const [i, tenant] of tenants.entries()) await storage.put(tenant, 'same/key', sourceOf(testBytes(1000, i + 1)), { maxBytes: LIMIT });
      for (const [i, tenant] of tenants.entries()) expect((await readObject(storage, tenant, 'same/key')).equals(testBytes(1000, i + 1))).toBe(true);
      expect(await keysOf(store, TENANT_KEYS_PREFIX)).toHaveLength(tenants.length);
    });

    it('refuses invalid tenant ids and object keys', async () => {
      for (const [tenant, key] of [
        ['', 'k'],
        [' padded', 'k'],
        ['tab\there', 'k'],
        ['caf\u00e9', 'k'],
        ['t', '../k'],
        ['t', 'K'],
        ['t', 'a//b'],
      ]) {
        await expect(storage.put(tenant, key, sourceOf(Buffer.from('x')), { maxBytes: 10 })).rejects.toBeInstanceOf(InvalidKeyError);
        await expect(storage.get(tenant, key)).rejects.toBeInstanceOf(InvalidKeyError);
      }
      expect(await keysOf(store, '')).toEqual([]);
    });

    describe('detects tampering', () => {
      const size = 3 * CHUNK + 500;
      const bytes = testBytes(size, 77);
      let key: string;
      let stored: Buffer;
      beforeEach(async () => {
        await put('evidence', bytes);
        key = objectBlobKey('tenant-a', 'evidence');
        stored = await raw(store, key);
      });

      const expectIntegrityError = async (objectKey = 'evidence', tenantId = 'tenant-a') => {
        await expect(readObject(storage, tenantId, objectKey)).rejects.toBeInstanceOf(IntegrityError);
      };

      it.each([0, 3, 4, 5, 6, 9, 10, 25, 26, 41, 42, 53])('a flipped bit in header byte %i', async (offset) => {
        const altered = Buffer.from(stored);
        altered[offset] ^= 0x01;
        await replace(store, key, altered);
        await expectIntegrityError();
        // get itself rejects: the caller has sent nothing yet.
        await expect(storage.get('tenant-a', 'evidence')).rejects.toBeInstanceOf(IntegrityError);
      });

      it.each([0, 1, 2, 3])('a flipped bit in ciphertext chunk %i', async (chunk) => {
        const altered = Buffer.from(stored);
        altered[HEADER_LENGTH + chunk * CIPHER_CHUNK + 100] ^= 0x80;
        await replace(store, key, altered);
        await expectIntegrityError();
        // A range elsewhere is still served: each chunk stands on its own.
        const other = chunk === 0 ? 1 : 0;
        expect((await readObject(storage, 'tenant-a', 'evidence', { start: other * CHUNK, end: other * CHUNK + 10 })).equals(bytes.subarray(other * CHUNK, other * CHUNK + 11))).toBe(true);
      });

      it('a flipped bit in a tag', async () => {
        const altered = Buffer.from(stored);
        altered[HEADER_LENGTH + CIPHER_CHUNK - 1] ^= 0x01;
        await replace(store, key, altered);
        await expectIntegrityError();
      });

      it('a stream that fails after the first chunk, as a stream error', async () => {
        const altered = Buffer.from(stored);
        altered[HEADER_LENGTH + 2 * CIPHER_CHUNK + 5] ^= 0x01;
        await replace(store, key, altered);
        const { stream } = await storage.get('tenant-a', 'evidence');
        await expect(readAllBytes(stream)).rejects.toBeInstanceOf(IntegrityError);
      });

      it.each([
        ['the last byte', 1],
        ['half the last chunk', 250],
        ['the whole last chunk', 500 + TAG_LENGTH],
        ['the last two chunks', 500 + TAG_LENGTH + CIPHER_CHUNK],
        ['everything after the header', 500 + TAG_LENGTH + 3 * CIPHER_CHUNK],
      ])('truncation by %s', async (_what, cut) => {
        await replace(store, key, stored.subarray(0, stored.length - cut));
        await expectIntegrityError();
      });

      it('appended bytes', async () => {
        await replace(store, key, Buffer.concat([stored, Buffer.from([0])]));
        await expectIntegrityError();
        await replace(store, key, Buffer.concat([stored, stored.subarray(HEADER_LENGTH, HEADER_LENGTH + CIPHER_CHUNK)]));
        await expectIntegrityError();
      });

      it('swapped chunks', async () => {
        const body = (i: number) => stored.subarray(HEADER_LENGTH + i * CIPHER_CHUNK, HEADER_LENGTH + (i + 1) * CIPHER_CHUNK);
        await replace(store, key, Buffer.concat([stored.subarray(0, HEADER_LENGTH), body(1), body(0), stored.subarray(HEADER_LENGTH + 2 * CIPHER_CHUNK)]));
        await expectIntegrityError();
      });

      it('a file copied under another key, or to another tenant', async () => {
        await replace(store, objectBlobKey('tenant-a', 'copy'), stored);
        await expectIntegrityError('copy');
        await put('own', testBytes(10), 'tenant-b');
        await replace(store, objectBlobKey('tenant-b', 'evidence'), stored);
        await expectIntegrityError('evidence', 'tenant-b');
      });

      it('a wrapped tenant key altered, or copied from another tenant', async () => {
        const wrapped = await raw(store, tenantKeyBlobKey('tenant-a'));
        await put('own', testBytes(10), 'tenant-b');
        await replace(store, tenantKeyBlobKey('tenant-b'), wrapped);
        const fresh = new EncryptedStorage(store, masterKey);
        await expect(readObject(fresh, 'tenant-b', 'own')).rejects.toBeInstanceOf(IntegrityError);
        const altered = Buffer.from(wrapped);
        altered[50] ^= 0x01;
        await replace(store, tenantKeyBlobKey('tenant-a'), altered);
        await expect(readObject(fresh, 'tenant-a', 'evidence')).rejects.toBeInstanceOf(IntegrityError);
      });
    });

    describe('crypto-shredding', () => {
      it('makes every file of the tenant unreadable, and only of that tenant', async () => {
        await put('one', testBytes(100, 1));
        await put('two', testBytes(CHUNK * 2, 2));
        await put('other', testBytes(100, 3), 'tenant-b');
        await storage.destroyTenantKey('tenant-a');
        await storage.destroyTenantKey('tenant-a');
        await expect(storage.get('tenant-a', 'one')).rejects.toBeInstanceOf(TenantKeyDestroyedError);
        await expect(storage.get('tenant-a', 'two', { start: 5, end: 6 })).rejects.toBeInstanceOf(TenantKeyDestroyedError);
        // The blobs remain (delete them at leisure); another instance, with no cache, cannot read them either.
        expect(await store.stat(objectBlobKey('tenant-a', 'one'))).toBeDefined();
        await expect(new EncryptedStorage(store, masterKey).get('tenant-a', 'one')).rejects.toBeInstanceOf(TenantKeyDestroyedError);
        expect(await store.stat(tenantKeyBlobKey('tenant-a'))).toBeUndefined();
        expect((await readObject(storage, 'tenant-b', 'other')).equals(testBytes(100, 3))).toBe(true);
      });

      it('gives a later put a new key, under which old files stay unreadable', async () => {
        await put('old', testBytes(100, 1));
        const before = await raw(store, tenantKeyBlobKey('tenant-a'));
        await storage.destroyTenantKey('tenant-a');
        await put('new', testBytes(100, 2));
        const after = await raw(store, tenantKeyBlobKey('tenant-a'));
        expect(after.equals(before)).toBe(false);
        expect((await readObject(storage, 'tenant-a', 'new')).equals(testBytes(100, 2))).toBe(true);
        await expect(storage.get('tenant-a', 'old')).rejects.toBeInstanceOf(TenantKeyDestroyedError);
      });
    });

    describe('limits', () => {
      it('stops reading at maxBytes, rejects, and keeps nothing', async () => {
        const { source, bytesRead } = endlessSource();
        await expect(storage.put('tenant-a', 'big', source, { maxBytes: 1_000_000 })).rejects.toBeInstanceOf(PayloadTooLargeError);
        expect(bytesRead()).toBeLessThan(1_000_000 + 256 * 1024);
        expect(source.destroyed).toBe(true);
        expect(await keysOf(store, TENANT_DATA_PREFIX)).toEqual([]);
      });

      it('leaves the source open when told to (an HTTP request must carry the 413)', async () => {
        const { source } = endlessSource();
        await expect(storage.put('tenant-a', 'big', source, { maxBytes: 100_000, destroySourceOnError: false })).rejects.toMatchObject({ maxBytes: 100_000 });
        expect(source.destroyed).toBe(false);
        source.destroy();
      });

      it('accepts exactly maxBytes', async () => {
        expect((await storage.put('tenant-a', 'exact', sourceOf(testBytes(1000)), { maxBytes: 1000 })).size).toBe(1000);
        await expect(storage.put('tenant-a', 'over', sourceOf(testBytes(1001)), { maxBytes: 1000 })).rejects.toBeInstanceOf(PayloadTooLargeError);
        await expect(storage.get('tenant-a', 'over')).rejects.toBeInstanceOf(BlobNotFoundError);
      });

      it('refuses an empty payload, keeping nothing of it and an earlier version as it was', async () => {
        await expect(storage.put('tenant-a', 'empty', sourceOf(Buffer.alloc(0)), { maxBytes: 1000 })).rejects.toBeInstanceOf(EmptyPayloadError);
        expect(await keysOf(store, TENANT_DATA_PREFIX)).toEqual([]);
        await put('kept', testBytes(10));
        await expect(storage.put('tenant-a', 'kept', sourceOf(Buffer.alloc(0)), { maxBytes: 1000 })).rejects.toBeInstanceOf(EmptyPayloadError);
        expect((await readObject(storage, 'tenant-a', 'kept')).equals(testBytes(10))).toBe(true);
      });

      it('passes on the error of a failing source, keeping nothing', async () => {
        const boom = new Error('client went away');
        const source = failingSource(testBytes(3 * CHUNK + 5), boom);
        await expect(storage.put('tenant-a', 'aborted', source, { maxBytes: LIMIT })).rejects.toBe(boom);
        expect(await keysOf(store, TENANT_DATA_PREFIX)).toEqual([]);
      });

      it('refuses a non-byte source', async () => {
        await expect(storage.put('tenant-a', 'text', Readable.from(['text']), { maxBytes: 100 })).rejects.toBeInstanceOf(TypeError);
      });
    });

    describe('tenant keys', () => {
      it('ends concurrent first puts of a tenant with one key, from one process or several', async () => {
        const other = new EncryptedStorage(store, masterKey);
        const puts = Array.from({ length: 8 }, (_, i) => (i % 2 ? other : storage).put('tenant-new', `f${i}`, sourceOf(testBytes(300, i + 1)), { maxBytes: LIMIT }));
        await Promise.all(puts);
        expect(await keysOf(store, TENANT_KEYS_PREFIX)).toEqual([tenantKeyBlobKey('tenant-new')]);
        for (let i = 0; i < 8; i++) {
          expect((await readObject(storage, 'tenant-new', `f${i}`)).equals(testBytes(300, i + 1))).toBe(true);
          expect((await readObject(other, 'tenant-new', `f${i}`)).equals(testBytes(300, i + 1))).toBe(true);
        }
      });

      it('says clearly that the master key is wrong, without revealing it', async () => {
        await put('doc', testBytes(100));
        const otherKey = randomBytes(32);
        const wrong = new EncryptedStorage(store, otherKey);
        const failure = (await wrong.get('tenant-a', 'doc').then(
          () => undefined,
          (e: unknown) => e,
        )) as Error;
        expect(failure).toBeInstanceOf(MasterKeyMismatchError);
        expect(failure.message).toContain(storage.masterKeyId);
        expect(failure.message).toContain(wrong.masterKeyId);
        expect(failure.message).toMatch(/STORAGE_MASTER_KEY/);
        for (const secret of [masterKey, otherKey]) {
          for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(failure.message).not.toContain(secret.toString(encoding).slice(0, 12));
        }
        await expect(wrong.put('tenant-a', 'doc2', sourceOf(testBytes(10)), { maxBytes: 100 })).rejects.toBeInstanceOf(MasterKeyMismatchError);
      });

      it('refuses a master key that is not 32 bytes', () => {
        expect(() => new EncryptedStorage(store, randomBytes(16))).toThrow('32 bytes');
      });
    });

    describe('master key rotation', () => {
      let newKey: Buffer;
      let rotated: EncryptedStorage;
      beforeEach(() => {
        newKey = randomBytes(32);
        rotated = new EncryptedStorage(store, newKey, { previousMasterKeys: [masterKey], chunkSize: CHUNK });
      });

      it('reads the files stored under the previous master key, rewrapping the tenant key on first use', async () => {
        const big = testBytes(3 * CHUNK + 5, 1);
        await put('old', big);
        await put('other', testBytes(100, 2), 'tenant-b');
        const files = await snapshot(store, TENANT_DATA_PREFIX);
        expect(rotated.previousMasterKeyIds).toEqual([storage.masterKeyId]);

        expect(await wrappedBy(store, 'tenant-a')).toBe(storage.masterKeyId);
        expect((await readObject(rotated, 'tenant-a', 'old', { start: CHUNK - 2, end: CHUNK + 2 })).equals(big.subarray(CHUNK - 2, CHUNK + 3))).toBe(true);
        expect(await wrappedBy(store, 'tenant-a')).toBe(rotated.masterKeyId);
        // Another tenant's key waits for its own first use; no file changed, only the wrapping.
        expect(await wrappedBy(store, 'tenant-b')).toBe(storage.masterKeyId);
        expect(await snapshot(store, TENANT_DATA_PREFIX)).toEqual(files);

        // The new key alone reads the rewrapped tenant's files, old and new, and only those.
        await rotated.put('tenant-a', 'new', sourceOf(testBytes(50, 3)), { maxBytes: LIMIT });
        const newOnly = new EncryptedStorage(store, newKey);
        expect((await readObject(newOnly, 'tenant-a', 'old')).equals(big)).toBe(true);
        expect((await readObject(newOnly, 'tenant-a', 'new')).equals(testBytes(50, 3))).toBe(true);
        await expect(newOnly.get('tenant-b', 'other')).rejects.toBeInstanceOf(MasterKeyMismatchError);
        // The old key alone no longer reads tenant-a (a fresh instance, without a cached key).
        await expect(new EncryptedStorage(store, masterKey).get('tenant-a', 'old')).rejects.toBeInstanceOf(MasterKeyMismatchError);
      });

      it('rewraps on a first write too, and wraps new tenant keys by the current master key only', async () => {
        await put('old', testBytes(100, 1));
        await rotated.put('tenant-a', 'second', sourceOf(testBytes(60, 2)), { maxBytes: LIMIT });
        await rotated.put('tenant-new', 'first', sourceOf(testBytes(70, 3)), { maxBytes: LIMIT });
        expect(await wrappedBy(store, 'tenant-a')).toBe(rotated.masterKeyId);
        expect(await wrappedBy(store, 'tenant-new')).toBe(rotated.masterKeyId);
        const newOnly = new EncryptedStorage(store, newKey);
        expect((await readObject(newOnly, 'tenant-a', 'old')).equals(testBytes(100, 1))).toBe(true);
        expect((await readObject(newOnly, 'tenant-new', 'first')).equals(testBytes(70, 3))).toBe(true);
      });

      it('rewraps every tenant key on demand, counting what it did, without touching a file', async () => {
        const tenants = ['tenant-a', 'tenant-b', 'Acme.EU', 'a b/c'];
        for (const [i, tenant] of tenants.entries()) await put('doc', testBytes(500, i + 1), tenant);
        await put('doc', testBytes(10, 9), 'shredded');
        await storage.destroyTenantKey('shredded'); // leaves a tombstone under keys/, which is no tenant key
        await rotated.put('tenant-current', 'doc', sourceOf(testBytes(20, 7)), { maxBytes: LIMIT });
        const files = await snapshot(store, TENANT_DATA_PREFIX);

        expect(await rotated.rewrapTenantKeys({ concurrency: 2 })).toEqual({ rewrapped: 4, alreadyCurrent: 1, failed: 0, failures: [] });
        expect(await rotated.rewrapTenantKeys()).toEqual({ rewrapped: 0, alreadyCurrent: 5, failed: 0, failures: [] });
        expect(await snapshot(store, TENANT_DATA_PREFIX)).toEqual(files);
        const newOnly = new EncryptedStorage(store, newKey);
        for (const [i, tenant] of tenants.entries()) {
          expect(await wrappedBy(store, tenant)).toBe(newOnly.masterKeyId);
          expect((await readObject(newOnly, tenant, 'doc')).equals(testBytes(500, i + 1))).toBe(true);
        }
        await expect(newOnly.get('shredded', 'doc')).rejects.toBeInstanceOf(TenantKeyDestroyedError);
      });

      it('rewraps the key of a long tenant id, which its blob names by a hash, when given that id', async () => {
        const long = 'Example Tenant '.repeat(10).trim();
        await put('doc', testBytes(40, 4), long);
        await put('doc', testBytes(40, 5), 'tenant-b');
        const report = await rotated.rewrapTenantKeys();
        expect(report).toEqual({
          rewrapped: 1,
          alreadyCurrent: 0,
          failed: 1,
          failures: [{ blobKey: tenantKeyBlobKey(long), reason: expect.stringMatching(/hash of a long tenant id: give that id/) }],
        });
        expect(await rotated.rewrapTenantKeys({ tenantIds: [long, 'not-stored'] })).toEqual({ rewrapped: 1, alreadyCurrent: 1, failed: 0, failures: [] });
        expect((await readObject(new EncryptedStorage(store, newKey), long, 'doc')).equals(testBytes(40, 4))).toBe(true);
        // Once rewrapped, its master key shows without the id.
        expect(await rotated.rewrapTenantKeys()).toEqual({ rewrapped: 0, alreadyCurrent: 2, failed: 0, failures: [] });
        const stranger = new EncryptedStorage(store, randomBytes(32));
        expect(await stranger.rewrapTenantKeys()).toMatchObject({
          failed: 2,
          failures: expect.arrayContaining([{ blobKey: tenantKeyBlobKey(long), reason: `it is wrapped by master key ${rotated.masterKeyId}, neither the current nor a previous one` }]),
        });
      });

      it('fails clearly on a tenant key wrapped by a master key that is neither the current nor a previous one', async () => {
        await put('doc', testBytes(30, 1));
        const strangerKey = randomBytes(32);
        const stranger = new EncryptedStorage(store, strangerKey);
        await stranger.put('tenant-b', 'doc', sourceOf(testBytes(30, 2)), { maxBytes: LIMIT });

        const failure = await rejectionOf(readObject(rotated, 'tenant-b', 'doc'));
        expect(failure).toBeInstanceOf(MasterKeyMismatchError);
        expect(failure).toMatchObject({ wrappedBy: stranger.masterKeyId, configured: rotated.masterKeyId, previous: [storage.masterKeyId] });
        expect(failure.message).toContain('STORAGE_PREVIOUS_MASTER_KEYS');
        const report = await rotated.rewrapTenantKeys();
        expect(report).toMatchObject({ rewrapped: 1, alreadyCurrent: 0, failed: 1, failures: [{ blobKey: tenantKeyBlobKey('tenant-b'), tenantId: 'tenant-b' }] });
        expect(report.failures[0].reason).toBe(failure.message);
        // No key's bytes show, in any encoding: the keys are named by their fingerprints only.
        const shown = `${failure.message} ${failure.stack} ${JSON.stringify(report)}`;
        for (const secret of [masterKey, newKey, strangerKey]) {
          for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(shown).not.toContain(secret.toString(encoding).slice(0, 12));
        }
        expect(await wrappedBy(store, 'tenant-b')).toBe(stranger.masterKeyId);
      });

      it('never brings back a tenant key destroyed while it was being rewrapped', async () => {
        await put('doc', testBytes(30, 1));
        const swap = store.replaceIfUnchanged.bind(store);
        // The destroy lands between the read of the wrapped key and its swap.
        store.replaceIfUnchanged = async (key: string, expected: Buffer, replacement: Buffer) => {
          await storage.destroyTenantKey('tenant-a');
          return swap(key, expected, replacement);
        };
        await expect(rotated.get('tenant-a', 'doc')).rejects.toBeInstanceOf(TenantKeyDestroyedError);
        expect(await store.stat(tenantKeyBlobKey('tenant-a'))).toBeUndefined();
        expect(await rotated.rewrapTenantKeys()).toEqual({ rewrapped: 0, alreadyCurrent: 0, failed: 0, failures: [] });
      });

      it('uses a tenant key whose rewrap cannot be written, and says so', async () => {
        await put('doc', testBytes(30, 1));
        const told: [string, unknown][] = [];
        const readOnly = new EncryptedStorage(store, newKey, { previousMasterKeys: [masterKey], onRewrapFailure: (tenantId, e) => told.push([tenantId, e]) });
        const refused = new Error('read-only file system');
        store.replaceIfUnchanged = async () => {
          throw refused;
        };
        expect((await readObject(readOnly, 'tenant-a', 'doc')).equals(testBytes(30, 1))).toBe(true);
        expect(told).toEqual([['tenant-a', refused]]);
        expect(await wrappedBy(store, 'tenant-a')).toBe(storage.masterKeyId);
        expect(await readOnly.rewrapTenantKeys()).toEqual({
          rewrapped: 0,
          alreadyCurrent: 0,
          failed: 1,
          failures: [{ blobKey: tenantKeyBlobKey('tenant-a'), tenantId: 'tenant-a', reason: 'read-only file system' }],
        });
      });

      it('ends concurrent first uses in several instances with one data key, wrapped by the current master key', async () => {
        for (let i = 0; i < 4; i++) await put(`f${i}`, testBytes(200, i + 1));
        const other = new EncryptedStorage(store, newKey, { previousMasterKeys: [masterKey] });
        await Promise.all([
          ...Array.from({ length: 4 }, (_, i) => readObject(i % 2 ? other : rotated, 'tenant-a', `f${i}`)),
          ...Array.from({ length: 4 }, (_, i) => (i % 2 ? other : rotated).put('tenant-a', `g${i}`, sourceOf(testBytes(100, i + 10)), { maxBytes: LIMIT })),
          rotated.rewrapTenantKeys(),
        ]);
        expect(await wrappedBy(store, 'tenant-a')).toBe(rotated.masterKeyId);
        const newOnly = new EncryptedStorage(store, newKey);
        for (let i = 0; i < 4; i++) {
          expect((await readObject(newOnly, 'tenant-a', `f${i}`)).equals(testBytes(200, i + 1))).toBe(true);
          expect((await readObject(newOnly, 'tenant-a', `g${i}`)).equals(testBytes(100, i + 10))).toBe(true);
        }
      });

      it('refuses a previous master key that is not 32 bytes, and ignores one that is the master key', () => {
        expect(() => new EncryptedStorage(store, newKey, { previousMasterKeys: [randomBytes(31)] })).toThrow('previous storage master key must be 32 bytes');
        expect(new EncryptedStorage(store, newKey, { previousMasterKeys: [newKey, masterKey, masterKey] }).previousMasterKeyIds).toEqual([storage.masterKeyId]);
      });
    });

    it('stops reading the store when the reader abandons a download', async () => {
      await put('long', testBytes(CHUNK * 8));
      const { stream } = await storage.get('tenant-a', 'long');
      await abandonAfterFirstPiece(stream);
      expect(stream.destroyed).toBe(true);
    });
  });
}

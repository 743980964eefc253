import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../blob-store';
import { EncryptedStorage, objectBlobKey, TENANT_DATA_PREFIX, TENANT_KEYS_PREFIX, tenantKeyBlobKey } from '../encrypted-storage';
import { DEFAULT_CHUNK_SIZE, HEADER_LENGTH, TAG_LENGTH } from '../envelope-format';
import {
  BlobNotFoundError,
  EmptyPayloadError,
  IntegrityError,
  InvalidKeyError,
  MasterKeyMismatchError,
  PayloadTooLargeError,
  RangeNotSatisfiableError,
  TenantKeyDestroyedError,
} from '../errors';
import type { BlobStoreFactory } from './blob-store.contract';
import { endlessSource, failingSource, readAllBytes, sha256Hex, sourceOf, testBytes } from './streams';

const CHUNK = DEFAULT_CHUNK_SIZE;
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

/** The plaintext of an object, whether the failure comes from get or from its stream. */
export async function readObject(storage: EncryptedStorage, tenantId: string, objectKey: string, range?: ByteRange): Promise<Buffer> {
  const { stream } = await storage.get(tenantId, objectKey, range);
  return readAllBytes(stream);
}

/**
 * The behaviour of EncryptedStorage over a BlobStore driver: round trips,
 * ranges, tamper detection, crypto-shredding, limits and key races. Every
 * driver runs it too (the tampering goes through the BlobStore port).
 */
export function describeEncryptedStorageContract(name: string, factory: BlobStoreFactory): void {
  describe(`EncryptedStorage contract: ${name}`, () => {
    let store: BlobStore;
    let storage: EncryptedStorage;
    let masterKey: Buffer;
    beforeEach(async () => {
      store = await factory.make();
      masterKey = randomBytes(32);
      storage = new EncryptedStorage(store, masterKey);
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
        for (const [start, end] of [[edge, edge], [0, edge], [edge, size - 1], [edge, edge + CHUNK], [Math.max(edge - 1, 0), edge + 1], [edge, size + 1000]]) {
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
      for (const [tenant, key] of [['', 'k'], [' padded', 'k'], ['tab\there', 'k'], ['caf\u00e9', 'k'], ['t', '../k'], ['t', 'K'], ['t', 'a//b']]) {
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

    it('stops reading the store when the reader abandons a download', async () => {
      await put('long', testBytes(CHUNK * 8));
      const { stream } = await storage.get('tenant-a', 'long');
      await new Promise<void>((resolve, reject) => {
        stream.once('data', () => {
          stream.destroy();
          resolve();
        });
        stream.once('error', reject);
      });
      await new Promise((resolve) => stream.once('close', resolve));
      expect(stream.destroyed).toBe(true);
    });
  });
}

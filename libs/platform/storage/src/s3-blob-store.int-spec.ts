import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { HeadObjectCommand, ListMultipartUploadsCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createTestBucket, uniqueSuffix } from '@dsar/platform/testing';
import { gcFunction } from '@dsar/platform/test-measure';
import type { BlobStore } from './blob-store';
import { EncryptedStorage, objectBlobKey } from './encrypted-storage';
import { DEFAULT_CHUNK_SIZE, HEADER_LENGTH, TAG_LENGTH } from './envelope-format';
import { BlobNotFoundError } from './errors';
import { S3_DEFAULT_PART_SIZE, S3BlobStore } from './s3-blob-store';
import { describeBlobStoreContract } from './testing/blob-store.contract';
import { describeEncryptedStorageContract, readObject } from './testing/encrypted-storage.contract';
import { readAllBytes, sourceOf, testBytes } from './testing/streams';

/*
 * S3BlobStore against a real S3-compatible server: moto in server mode, which
 * `deploy/local/infra.sh up` (or `s3-start`) runs on DSAR_TEST_S3_URL
 * (default http://127.0.0.1:9000). One fresh bucket per run; every store of a
 * test gets a folder of its own in it (the driver's key prefix).
 */
const MiB = 1024 * 1024;

let bucket: string;
let endpoint: string;
let client: S3Client;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ bucket, endpoint, client, drop } = await createTestBucket());
});
afterAll(async () => {
  await drop?.();
});

/** A store in its own folder of the run's bucket, with its own client (as a service makes it from its settings). */
const storeIn = (prefix = `t-${uniqueSuffix()}`): S3BlobStore =>
  new S3BlobStore({ bucket, prefix, endpoint, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });

const factory = {
  make: () => storeIn(),
  dispose: async (store: BlobStore) => {
    const s3 = store as S3BlobStore;
    for await (const key of s3.list('')) await s3.delete(key);
    s3.destroy();
  },
};

describeBlobStoreContract('S3BlobStore on moto', factory);
describeEncryptedStorageContract('S3BlobStore on moto', factory);

async function keysOf(store: BlobStore, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
}

async function pendingUploads(prefix: string): Promise<string[]> {
  const out = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
  return (out.Uploads ?? []).map((u) => u.Key ?? '');
}

/** `total` bytes in 64 KiB pieces made as they are read (never held whole), hashed on the way; fails after `failAfter` bytes when given. */
function generatedSource(total: number, options: { failAfter?: number; error?: Error } = {}): { source: Readable; sha256: () => string; bytesRead: () => number } {
  const hash = createHash('sha256');
  const piece = 64 * 1024;
  let sent = 0;
  const source = new Readable({
    read() {
      if (options.failAfter !== undefined && sent >= options.failAfter) {
        this.destroy(options.error ?? new Error('source failed'));
        return;
      }
      if (sent >= total) {
        this.push(null);
        return;
      }
      const bytes = testBytes(Math.min(piece, total - sent), sent / piece + 1);
      hash.update(bytes);
      sent += bytes.length;
      this.push(bytes);
    },
  });
  return { source, sha256: () => hash.digest('hex'), bytesRead: () => sent };
}

describe('S3BlobStore on moto', () => {
  let store: S3BlobStore;
  beforeEach(() => {
    store = storeIn();
  });
  afterEach(async () => {
    await factory.dispose(store);
  });

  it.each([
    ['the default parts (8 MiB, 2 in flight)', {}],
    ['the smallest parts (5 MiB, 1 in flight)', { partSize: 5 * MiB, queueSize: 1 }],
  ])('streams a 64 MiB write as multipart in bounded memory with %s, and reads it back', async (_what, tuning) => {
    const tuned = new S3BlobStore({ bucket, client, prefix: store.keyPrefix, ...tuning });
    const gc = gcFunction();
    const size = 64 * MiB;
    const { source, sha256 } = generatedSource(size);
    gc();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 50);
    try {
      await tuned.write('big/object.bin', source);
    } finally {
      clearInterval(sampler);
    }
    // Parts in flight, the part being filled, the one being cut from it and what the SDK still holds: at most
    // (queue size + 4) parts, whatever the object's size (48 MiB at the defaults, 25 MiB at the smallest).
    expect(peak - baseline).toBeLessThan((tuned.queueSize + 4) * tuned.partSize + 4 * MiB);
    expect(await store.stat('big/object.bin')).toEqual({ size });
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: store.objectKey('big/object.bin') }));
    expect(head.ETag).toMatch(new RegExp(`-${Math.ceil(size / tuned.partSize)}"?$`)); // a multipart object
    const back = createHash('sha256');
    for await (const part of await store.read('big/object.bin')) back.update(part as Buffer);
    expect(back.digest('hex')).toBe(sha256());
  });

  it('leaves no object and no pending multipart upload when the source fails mid-upload', async () => {
    const boom = new Error('the upload source broke');
    const failing = generatedSource(64 * MiB, { failAfter: 20 * MiB, error: boom });
    await expect(store.write('failed/big', failing.source)).rejects.toBe(boom);
    expect(failing.bytesRead()).toBe(20 * MiB); // two parts were sent: the multipart upload existed
    expect(failing.source.destroyed).toBe(true);
    expect(await store.stat('failed/big')).toBeUndefined();
    expect(await keysOf(store)).toEqual([]);
    expect(await pendingUploads(store.keyPrefix)).toEqual([]);

    // The same for a replacement (the previous object stays whole) and for a large create-if-absent.
    await store.write('kept', sourceOf(Buffer.from('previous')));
    await expect(store.write('kept', generatedSource(64 * MiB, { failAfter: 17 * MiB, error: boom }).source)).rejects.toBe(boom);
    await expect(store.writeIfAbsent('absent', generatedSource(64 * MiB, { failAfter: 17 * MiB, error: boom }).source)).rejects.toBe(boom);
    expect((await readAllBytes(await store.read('kept'))).toString()).toBe('previous');
    expect(await keysOf(store)).toEqual(['kept']);
    expect(await pendingUploads(store.keyPrefix)).toEqual([]);
  });

  it('creates if absent with a multipart upload too', async () => {
    const first = generatedSource(11 * MiB);
    expect(await store.writeIfAbsent('large/once', first.source)).toBe(true);
    const second = generatedSource(11 * MiB);
    expect(await store.writeIfAbsent('large/once', second.source)).toBe(false);
    expect(await store.writeIfAbsent('large/once', sourceOf(Buffer.from('small')))).toBe(false);
    expect(await store.stat('large/once')).toEqual({ size: 11 * MiB });
    expect(await pendingUploads(store.keyPrefix)).toEqual([]);
  });

  it('serves ranges across part boundaries through EncryptedStorage', async () => {
    const storage = new EncryptedStorage(store, randomBytes(32));
    const size = 20 * MiB + 12_345; // ciphertext of three parts: 8 MiB, 8 MiB and the rest
    const bytes = testBytes(size, 99);
    await storage.put('tenant-a', 'export/package.zip', sourceOf(bytes, 1 << 20), { maxBytes: 64 * MiB });
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: store.objectKey(objectBlobKey('tenant-a', 'export/package.zip')) }));
    expect(head.ETag).toMatch(/-3"?$/);

    // The plaintext offset whose ciphertext byte is `at`: header, then chunk + tag per chunk.
    const plainAt = (at: number) => {
      const body = at - HEADER_LENGTH;
      const chunk = Math.floor(body / (DEFAULT_CHUNK_SIZE + TAG_LENGTH));
      return chunk * DEFAULT_CHUNK_SIZE + Math.min(body % (DEFAULT_CHUNK_SIZE + TAG_LENGTH), DEFAULT_CHUNK_SIZE - 1);
    };
    for (const boundary of [S3_DEFAULT_PART_SIZE, 2 * S3_DEFAULT_PART_SIZE]) {
      const p = plainAt(boundary);
      for (const [start, end] of [
        [p - 1, p + 1],
        [p - 100_000, p + 100_000],
        [p, p],
        [p - DEFAULT_CHUNK_SIZE, p + 3 * DEFAULT_CHUNK_SIZE],
        [p - 5 * MiB, p + 3 * MiB],
      ]) {
        const got = await storage.get('tenant-a', 'export/package.zip', { start, end });
        expect(got.range).toEqual({ start, end });
        expect((await readAllBytes(got.stream)).equals(bytes.subarray(start, end + 1))).toBe(true);
      }
    }
    expect((await readObject(storage, 'tenant-a', 'export/package.zip')).equals(bytes)).toBe(true);
    expect((await readObject(storage, 'tenant-a', 'export/package.zip', { start: size - 10, end: size + 10 })).equals(bytes.subarray(size - 10))).toBe(true);
  });

  it('keeps to its folder of the bucket, and skips foreign objects there', async () => {
    const other = storeIn();
    try {
      await store.write('same/key', sourceOf(Buffer.from('mine')));
      await other.write('same/key', sourceOf(Buffer.from('theirs')));
      expect((await readAllBytes(await store.read('same/key'))).toString()).toBe('mine');
      await store.deletePrefix('same/');
      expect(await store.stat('same/key')).toBeUndefined();
      expect((await readAllBytes(await other.read('same/key'))).toString()).toBe('theirs');
      // An object put there by something else, under a name no blob key has, is not listed.
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: store.objectKey('Foreign Name.txt'), Body: 'x' }));
      await store.write('a/b', sourceOf(Buffer.from('b')));
      expect(await keysOf(store)).toEqual(['a/b']);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: store.objectKey('a/Foreign'), Body: 'x' }));
      await store.deletePrefix('a/'); // removes everything in the folder, foreign names included
      expect(await keysOf(store)).toEqual([]);
    } finally {
      await factory.dispose(other); // the foreign object goes with the bucket
    }
  });

  it('deletes a folder of more than 1000 objects in batches', async () => {
    const keys = Array.from({ length: 1234 }, (_, i) => `many/k${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((key) => store.write(key, sourceOf(Buffer.from(key)))));
    await store.write('other/kept', sourceOf(Buffer.from('kept')));
    expect(await keysOf(store, 'many/')).toHaveLength(1234); // listed over two pages
    await store.deletePrefix('many/');
    expect(await keysOf(store)).toEqual(['other/kept']);
  });

  describe("compare-and-swap, on the server's If-Match", () => {
    /** Runs `meanwhile` once, after the swap's GetObject answered and before its conditional PutObject. */
    const between = (swapping: S3BlobStore, meanwhile: () => Promise<unknown>) => {
      let pending: (() => Promise<unknown>) | undefined = meanwhile;
      swapping.client.middlewareStack.add(
        (next, context) => async (args) => {
          const result = await next(args);
          const run = context.commandName === 'GetObjectCommand' ? pending : undefined;
          pending = undefined;
          await run?.();
          return result;
        },
        { step: 'initialize', name: 'betweenReadAndPut' },
      );
    };

    it('refuses the put when the object changed after it was compared', async () => {
      const other = storeIn(store.keyPrefix);
      try {
        await store.write('keys/t.key', sourceOf(Buffer.from('wrapped')));
        between(store, () => other.write('keys/t.key', sourceOf(Buffer.from('changed'))));
        expect(await store.replaceIfUnchanged('keys/t.key', Buffer.from('wrapped'), Buffer.from('rewrapped'))).toBe(false);
        expect((await readAllBytes(await store.read('keys/t.key'))).toString()).toBe('changed');
      } finally {
        other.destroy();
      }
    });

    it('refuses the put when the object was deleted after it was compared: it never comes back', async () => {
      const other = storeIn(store.keyPrefix);
      try {
        await store.write('keys/t.key', sourceOf(Buffer.from('wrapped')));
        between(store, () => other.delete('keys/t.key'));
        expect(await store.replaceIfUnchanged('keys/t.key', Buffer.from('wrapped'), Buffer.from('rewrapped'))).toBe(false);
        expect(await store.stat('keys/t.key')).toBeUndefined();
      } finally {
        other.destroy();
      }
    });
  });

  it('answers BlobNotFoundError, not a raw S3 error, for a missing object', async () => {
    await expect(store.read('nope', { start: 0, end: 10 })).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.read('nope')).rejects.toMatchObject({ key: 'nope' });
  });
});

import type { BlobStore } from '../blob-store';
import { BlobNotFoundError, InvalidKeyError, RangeNotSatisfiableError } from '../errors';
import { abandonAfterFirstPiece, failingSource, gatedSource, readAllBytes, sourceOf, testBytes } from './streams';

/** Makes a fresh, empty store for one test; `dispose` (optional) cleans it up afterwards. */
export interface BlobStoreFactory {
  make(): BlobStore | Promise<BlobStore>;
  dispose?(store: BlobStore): void | Promise<void>;
}

/** Keys every driver must refuse. */
export const INVALID_BLOB_KEYS = [
  '',
  '/abs',
  'trailing/',
  'a//b',
  '..',
  '../up',
  'a/../b',
  '.',
  'a/./b',
  'back\\slash',
  'nul\u0000byte',
  'new\nline',
  'Upper',
  'sp ace',
  'caf\u00e9',
  'colon:name',
  `${'a'.repeat(201)}`,
  `${'abcdefghi/'.repeat(103)}x`,
];

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
}

/** Calls `work` and returns its rejection (or its synchronous throw); fails when it succeeds. */
async function failureOf(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

/**
 * The behaviour every BlobStore driver owes (see the BlobStore port): run it
 * for each driver, against a real backend, with a factory that gives a fresh
 * empty store per test.
 */
export function describeBlobStoreContract(name: string, factory: BlobStoreFactory): void {
  describe(`BlobStore contract: ${name}`, () => {
    let store: BlobStore;
    beforeEach(async () => {
      store = await factory.make();
    });
    afterEach(async () => {
      await factory.dispose?.(store);
    });

    it.each([0, 1, 1000, 3 * 1024 * 1024 + 17])('writes and reads back %i bytes', async (size) => {
      const bytes = testBytes(size, size + 1);
      await store.write('a/b/object.bin', sourceOf(bytes, 65_521));
      expect(await store.stat('a/b/object.bin')).toEqual({ size });
      expect((await readAllBytes(await store.read('a/b/object.bin'))).equals(bytes)).toBe(true);
    });

    it('answers BlobNotFoundError and undefined for a missing key', async () => {
      await expect(store.read('missing/key')).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.read('missing/key')).rejects.toMatchObject({ key: 'missing/key' });
      expect(await store.stat('missing/key')).toBeUndefined();
    });

    it('replaces an object on write', async () => {
      await store.write('k', sourceOf(Buffer.from('first version')));
      await store.write('k', sourceOf(Buffer.from('second')));
      expect((await readAllBytes(await store.read('k'))).toString()).toBe('second');
      expect(await store.stat('k')).toEqual({ size: 6 });
    });

    it('reads inclusive ranges, clamps the end, refuses a start past the end', async () => {
      const bytes = testBytes(1000, 3);
      await store.write('r', sourceOf(bytes, 100));
      for (const [start, end] of [
        [0, 0],
        [0, 999],
        [10, 19],
        [999, 999],
        [500, 5000],
      ]) {
        const got = await readAllBytes(await store.read('r', { start, end }));
        expect(got.equals(bytes.subarray(start, Math.min(end, 999) + 1))).toBe(true);
      }
      await expect(store.read('r', { start: 1000, end: 1000 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      await expect(store.read('r', { start: 1000, end: 2000 })).rejects.toMatchObject({ start: 1000, size: 1000 });
      for (const bad of [
        { start: 5, end: 4 },
        { start: -1, end: 3 },
        { start: 0.5, end: 3 },
      ]) {
        expect(await failureOf(() => store.read('r', bad))).toBeInstanceOf(RangeError);
      }
    });

    it('refuses any range of an empty object', async () => {
      await store.write('empty', sourceOf(Buffer.alloc(0)));
      await expect(store.read('empty', { start: 0, end: 0 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
      expect((await readAllBytes(await store.read('empty'))).length).toBe(0);
    });

    it('rejects a failed write with the source error and keeps nothing of it', async () => {
      const boom = new Error('source broke');
      await expect(store.write('failed/one', failingSource(testBytes(200_000), boom))).rejects.toBe(boom);
      expect(await store.stat('failed/one')).toBeUndefined();
      expect(await keysOf(store, '')).toEqual([]);
    });

    it('keeps the previous object whole when its replacement fails', async () => {
      const before = testBytes(5000, 9);
      await store.write('kept', sourceOf(before));
      await expect(store.write('kept', failingSource(testBytes(100_000), new Error('broke')))).rejects.toThrow('broke');
      expect((await readAllBytes(await store.read('kept'))).equals(before)).toBe(true);
      expect(await keysOf(store, '')).toEqual(['kept']);
    });

    it('never shows a partly written object', async () => {
      await store.write('atomic/old', sourceOf(Buffer.from('old')));
      const fresh = gatedSource(testBytes(70_000, 1), testBytes(70_000, 2));
      const replacing = gatedSource(testBytes(70_000, 3), testBytes(70_000, 4));
      const writes = [store.write('atomic/new', fresh.source), store.write('atomic/old', replacing.source)];
      await Promise.all([fresh.started, replacing.started]);
      expect(await store.stat('atomic/new')).toBeUndefined();
      await expect(store.read('atomic/new')).rejects.toBeInstanceOf(BlobNotFoundError);
      expect((await readAllBytes(await store.read('atomic/old'))).toString()).toBe('old');
      expect(await keysOf(store, 'atomic/')).toEqual(['atomic/old']);
      fresh.release();
      replacing.release();
      await Promise.all(writes);
      expect(await store.stat('atomic/new')).toEqual({ size: 140_000 });
      expect((await readAllBytes(await store.read('atomic/old'))).equals(Buffer.concat([testBytes(70_000, 3), testBytes(70_000, 4)]))).toBe(true);
    });

    it('keeps serving the version a read opened, when the object is replaced or deleted meanwhile', async () => {
      const first = testBytes(300_000, 5);
      await store.write('versioned', sourceOf(first));
      const reading = await store.read('versioned');
      await store.write('versioned', sourceOf(Buffer.from('replaced')));
      const reading2 = await store.read('versioned');
      await store.delete('versioned');
      expect((await readAllBytes(reading)).equals(first)).toBe(true);
      expect((await readAllBytes(reading2)).toString()).toBe('replaced');
    });

    it('creates if absent, once', async () => {
      expect(await store.writeIfAbsent('keys/one', sourceOf(Buffer.from('winner')))).toBe(true);
      expect(await store.writeIfAbsent('keys/one', sourceOf(Buffer.from('loser')))).toBe(false);
      expect((await readAllBytes(await store.read('keys/one'))).toString()).toBe('winner');
    });

    it('lets exactly one of concurrent create-if-absent writers win', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.writeIfAbsent('keys/race', sourceOf(Buffer.from(`writer-${i}`)))));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect((await readAllBytes(await store.read('keys/race'))).toString()).toBe(`writer-${winner}`);
      expect(await keysOf(store, 'keys/')).toEqual(['keys/race']);
    });

    it('leaves nothing behind when a create-if-absent write fails', async () => {
      await expect(store.writeIfAbsent('keys/failed', failingSource(Buffer.from('x'), new Error('broke')))).rejects.toThrow('broke');
      expect(await keysOf(store, '')).toEqual([]);
    });

    it('replaces an object by compare-and-swap only while it holds the expected bytes', async () => {
      const [v1, v2, v3] = ['first version', 'second', 'third one'].map((text) => Buffer.from(text));
      const content = async () => (await readAllBytes(await store.read('keys/k'))).toString();
      await store.write('keys/k', sourceOf(v1));
      for (const other of ['first versio', 'first version!', 'First version', 'second', '']) {
        expect(await store.replaceIfUnchanged('keys/k', Buffer.from(other), v3)).toBe(false);
      }
      expect(await content()).toBe('first version');
      expect(await store.replaceIfUnchanged('keys/k', v1, v2)).toBe(true);
      expect(await content()).toBe('second');
      expect(await store.stat('keys/k')).toEqual({ size: v2.length });
      // What was read before the swap is stale now.
      expect(await store.replaceIfUnchanged('keys/k', v1, v3)).toBe(false);
      expect(await content()).toBe('second');
      expect(await keysOf(store, '')).toEqual(['keys/k']);
    });

    it('never creates an object by compare-and-swap, nor brings back a deleted one', async () => {
      expect(await store.replaceIfUnchanged('keys/absent', Buffer.alloc(0), Buffer.from('x'))).toBe(false);
      expect(await store.replaceIfUnchanged('never/made/k', Buffer.from('a'), Buffer.from('b'))).toBe(false);
      await store.write('keys/gone', sourceOf(Buffer.from('old')));
      await store.delete('keys/gone');
      expect(await store.replaceIfUnchanged('keys/gone', Buffer.from('old'), Buffer.from('new'))).toBe(false);
      expect(await store.stat('keys/gone')).toBeUndefined();
      expect(await keysOf(store, '')).toEqual([]);
    });

    it('lets exactly one of concurrent compare-and-swap writers win', async () => {
      await store.write('keys/swap', sourceOf(Buffer.from('original')));
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.replaceIfUnchanged('keys/swap', Buffer.from('original'), Buffer.from(`writer-${i}`))));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await readAllBytes(await store.read('keys/swap'))).toString()).toBe(`writer-${results.indexOf(true)}`);
      expect(await keysOf(store, 'keys/')).toEqual(['keys/swap']);
    });

    it('never lets a compare-and-swap racing a delete bring the object back', async () => {
      for (let round = 0; round < 10; round++) {
        const key = `keys/raced-${round}`;
        await store.write(key, sourceOf(Buffer.from('old')));
        // Whichever comes first, the object ends deleted: swapped then deleted, or deleted and not swapped.
        await Promise.all([store.replaceIfUnchanged(key, Buffer.from('old'), Buffer.from('new')), store.delete(key)]);
        expect(await store.stat(key)).toBeUndefined();
      }
      expect(await keysOf(store, '')).toEqual([]);
    });

    it('deletes idempotently', async () => {
      await store.write('d/x', sourceOf(Buffer.from('x')));
      await store.delete('d/x');
      await store.delete('d/x');
      await store.delete('never/was');
      expect(await store.stat('d/x')).toBeUndefined();
    });

    it('deletes and lists by folder prefix only', async () => {
      for (const key of ['p/x', 'p/q/y', 'pq/z', 'other/p/x', 'p.x']) await store.write(key, sourceOf(Buffer.from(key)));
      expect(await keysOf(store, 'p/')).toEqual(['p/q/y', 'p/x']);
      expect(await keysOf(store, '')).toEqual(['other/p/x', 'p.x', 'p/q/y', 'p/x', 'pq/z']);
      expect(await keysOf(store, 'absent/')).toEqual([]);
      await store.deletePrefix('p/');
      await store.deletePrefix('p/');
      await store.deletePrefix('absent/');
      expect(await keysOf(store, '')).toEqual(['other/p/x', 'p.x', 'pq/z']);
      expect(await failureOf(() => store.deletePrefix('p'))).toBeInstanceOf(InvalidKeyError);
      expect(await failureOf(() => store.deletePrefix(''))).toBeInstanceOf(InvalidKeyError);
      expect(await failureOf(() => keysOf(store, '../'))).toBeInstanceOf(InvalidKeyError);
    });

    it('refuses invalid keys in every method, touching nothing', async () => {
      for (const key of INVALID_BLOB_KEYS) {
        expect(await failureOf(() => store.write(key, sourceOf(Buffer.from('x'))))).toBeInstanceOf(InvalidKeyError);
        expect(await failureOf(() => store.writeIfAbsent(key, sourceOf(Buffer.from('x'))))).toBeInstanceOf(InvalidKeyError);
        expect(await failureOf(() => store.replaceIfUnchanged(key, Buffer.from('x'), Buffer.from('y')))).toBeInstanceOf(InvalidKeyError);
        expect(await failureOf(() => store.read(key))).toBeInstanceOf(InvalidKeyError);
        expect(await failureOf(() => store.stat(key))).toBeInstanceOf(InvalidKeyError);
        expect(await failureOf(() => store.delete(key))).toBeInstanceOf(InvalidKeyError);
      }
      expect(await keysOf(store, '')).toEqual([]);
    });

    it('accepts the whole key alphabet and long keys', async () => {
      const keys = ['0-9_a.z/x', `${'s'.repeat(200)}/${'t'.repeat(200)}`, `${'abcdefghi/'.repeat(102)}xyz`];
      for (const key of keys) await store.write(key, sourceOf(Buffer.from('ok')));
      expect(await keysOf(store, '')).toEqual([...keys].sort());
    });

    it('closes a read that is abandoned halfway', async () => {
      await store.write('abandoned', sourceOf(testBytes(1_000_000)));
      const stream = await store.read('abandoned');
      await abandonAfterFirstPiece(stream);
      await store.delete('abandoned');
      expect(await store.stat('abandoned')).toBeUndefined();
    });
  });
}

import { constants as fsConstants } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { alignedBuffersAlive, giveBackAlignedBuffers, MAX_ALIGNED_BUFFERS, takeAlignedBuffers } from './aligned-buffers';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { describeBlobStoreContract } from './testing/blob-store.contract';
import { abandonAfterFirstPiece, failingSource, gatedSource, readAllBytes, sourceOf, testBytes } from './testing/streams';

/** Every file under `dir`, relative, with its mode. */
async function tree(dir: string): Promise<{ path: string; mode: number; dir: boolean }[]> {
  const out: { path: string; mode: number; dir: boolean }[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    out.push({ path: full.slice(dir.length + 1), mode: (await stat(full)).mode & 0o777, dir: entry.isDirectory() });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describeBlobStoreContract('FilesystemBlobStore', {
  make: async () => {
    const root = await mkdtemp(join(tmpdir(), 'dsar-blob-contract-'));
    roots.push(root);
    return new FilesystemBlobStore(join(root, 'store'));
  },
  dispose: async (store) => rm((store as FilesystemBlobStore).rootDir, { recursive: true, force: true }),
});

/** The `flags` (octal, as /proc gives them) of every descriptor of this process open on `path`. */
async function openFlagsOf(path: string): Promise<number[]> {
  const flags: number[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target !== path) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
    const match = /^flags:\s+([0-7]+)$/m.exec(info);
    if (match) flags.push(parseInt(match[1], 8));
  }
  return flags;
}

/** The path of the one temporary file being written in `dir` once a descriptor of this process is open on it. */
async function openTempFile(dir: string): Promise<string> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(5)) {
    const temp = (await readdir(dir).catch(() => [] as string[])).find((name) => name.startsWith('~tmp-'));
    if (temp && (await openFlagsOf(join(dir, temp))).length > 0) return join(dir, temp);
  }
  throw new Error(`no temporary file open in ${dir}`);
}

describe('FilesystemBlobStore', () => {
  let root: string;
  let store: FilesystemBlobStore;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dsar-blob-fs-'));
    store = new FilesystemBlobStore(join(root, 'storage'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps files 0600 and directories 0700, one file per key', async () => {
    await store.write('a/b/c', sourceOf(Buffer.from('x')));
    expect(await store.writeIfAbsent('keys/t.key', sourceOf(Buffer.from('k')))).toBe(true);
    expect(await tree(store.rootDir)).toEqual([
      { path: 'a', mode: 0o700, dir: true },
      { path: 'a/b', mode: 0o700, dir: true },
      { path: 'a/b/c', mode: 0o600, dir: false },
      { path: 'keys', mode: 0o700, dir: true },
      { path: 'keys/t.key', mode: 0o600, dir: false },
    ]);
  });

  it('leaves no temporary file after a failed write or a lost create-if-absent', async () => {
    await expect(store.write('x/y', failingSource(testBytes(500_000), new Error('broke')))).rejects.toThrow('broke');
    await store.writeIfAbsent('x/k', sourceOf(Buffer.from('first')));
    expect(await store.writeIfAbsent('x/k', sourceOf(Buffer.from('second')))).toBe(false);
    expect((await tree(store.rootDir)).map((f) => f.path)).toEqual(['x', 'x/k']);
  });

  it('leaves no lock nor temporary file after swaps and deletes, and makes no directory for an absent key', async () => {
    await store.write('keys/t.key', sourceOf(Buffer.from('a')));
    expect(await store.replaceIfUnchanged('keys/t.key', Buffer.from('a'), Buffer.from('b'))).toBe(true);
    expect(await store.replaceIfUnchanged('keys/t.key', Buffer.from('a'), Buffer.from('c'))).toBe(false);
    expect(await store.replaceIfUnchanged('other/dir/k', Buffer.from('a'), Buffer.from('c'))).toBe(false);
    expect(await tree(store.rootDir)).toEqual([
      { path: 'keys', mode: 0o700, dir: true },
      { path: 'keys/t.key', mode: 0o600, dir: false },
    ]);
    await store.delete('keys/t.key');
    expect((await tree(store.rootDir)).map((f) => f.path)).toEqual(['keys']);
  });

  it('makes every change of a key wait for its lock, and breaks a lock left by a process that died', async () => {
    const content = async () => (await readAllBytes(await store.read('keys/t.key'))).toString();
    await store.write('keys/t.key', sourceOf(Buffer.from('a')));
    const lock = join(store.rootDir, 'keys', 't.key~lock');
    await writeFile(lock, '');
    const writing = store.write('keys/t.key', sourceOf(Buffer.from('b')));
    await sleep(150);
    expect(await content()).toBe('a');
    const keys: string[] = [];
    for await (const key of store.list('')) keys.push(key);
    expect(keys).toEqual(['keys/t.key']); // the lock is no key
    await unlink(lock);
    await writing;
    expect(await content()).toBe('b');

    // A swap and a delete waiting together: in either order, the key ends deleted.
    await writeFile(lock, '');
    const changes = Promise.all([store.replaceIfUnchanged('keys/t.key', Buffer.from('b'), Buffer.from('c')), store.delete('keys/t.key')]);
    await sleep(150);
    expect(await content()).toBe('b');
    await unlink(lock);
    await changes;
    expect(await store.stat('keys/t.key')).toBeUndefined();

    // Older than 30 seconds: its holder is gone, and the next change breaks it.
    await store.write('keys/t.key', sourceOf(Buffer.from('d')));
    await writeFile(lock, '');
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lock, longAgo, longAgo);
    await store.delete('keys/t.key');
    expect((await tree(store.rootDir)).map((f) => f.path)).toEqual(['keys']);
  });

  it('skips leftover temporary files (a crash mid-write) when listing', async () => {
    await store.write('d/real', sourceOf(Buffer.from('x')));
    await writeFile(join(store.rootDir, 'd', '~tmp-0123456789abcdef01234567'), 'partial');
    const keys: string[] = [];
    for await (const key of store.list('')) keys.push(key);
    expect(keys).toEqual(['d/real']);
  });

  it('answers not found for a key that is a folder of other keys, and for a key below an object', async () => {
    await store.write('folder/inner', sourceOf(Buffer.from('x')));
    await expect(store.read('folder')).rejects.toMatchObject({ name: 'BlobNotFoundError' });
    expect(await store.stat('folder')).toBeUndefined();
    await store.delete('folder');
    await expect(store.read('folder/inner/deeper')).rejects.toMatchObject({ name: 'BlobNotFoundError' });
    expect(await store.stat('folder/inner/deeper')).toBeUndefined();
    await store.deletePrefix('folder/inner/');
    expect((await readAllBytes(await store.read('folder/inner'))).toString()).toBe('x');
  });

  it('reads nothing from a root that does not exist yet', async () => {
    const fresh = new FilesystemBlobStore(join(root, 'not', 'yet'));
    expect(await fresh.stat('a')).toBeUndefined();
    const keys: string[] = [];
    for await (const key of fresh.list('')) keys.push(key);
    expect(keys).toEqual([]);
  });

  it('reads a large range past the page cache (O_DIRECT), exactly its bytes at bounds that fall inside blocks', async () => {
    const bytes = testBytes(20 * 1024 * 1024 + 123);
    await store.write('big/file', sourceOf(bytes));
    const path = join(store.rootDir, 'big', 'file');
    const range = { start: 4097 + 13, end: bytes.length - 1 - 4099 };
    const stream = await store.read('big/file', range, { pieceSize: 1024 * 1024 + 16 });
    expect((await openFlagsOf(path)).map((f) => (f & fsConstants.O_DIRECT) !== 0)).toEqual([true]);
    expect((await readAllBytes(stream)).equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
    expect(await openFlagsOf(path)).toEqual([]);
    // To the end of the file, whose last block is a short read.
    expect((await readAllBytes(await store.read('big/file', { start: 9 * 1024 * 1024 + 1, end: bytes.length + 5000 }))).equals(bytes.subarray(9 * 1024 * 1024 + 1))).toBe(true);
  });

  it('reads small ranges and whole files through the page cache', async () => {
    const bytes = testBytes(9 * 1024 * 1024);
    await store.write('f', sourceOf(bytes));
    const path = join(store.rootDir, 'f');
    for (const range of [{ start: 0, end: 1023 }, undefined]) {
      const stream = await store.read('f', range);
      expect((await openFlagsOf(path)).map((f) => (f & fsConstants.O_DIRECT) !== 0)).toEqual([false]);
      expect((await readAllBytes(stream)).equals(range ? bytes.subarray(0, 1024) : bytes)).toBe(true);
    }
  });

  it('closes a direct read abandoned halfway', async () => {
    await store.write('big', sourceOf(testBytes(12 * 1024 * 1024)));
    const stream = await store.read('big', { start: 0, end: 12 * 1024 * 1024 - 1 });
    await abandonAfterFirstPiece(stream);
    expect(await openFlagsOf(join(store.rootDir, 'big'))).toEqual([]);
  });

  it('reads through the page cache while every aligned buffer of the process is taken, and reuses its buffers', async () => {
    const bytes = testBytes(9 * 1024 * 1024);
    await store.write('f', sourceOf(bytes));
    const path = join(store.rootDir, 'f');
    const range = { start: 0, end: bytes.length - 1 };
    const all = takeAlignedBuffers(MAX_ALIGNED_BUFFERS, 4096);
    expect(all).toBeDefined();
    try {
      const stream = await store.read('f', range);
      expect((await openFlagsOf(path)).map((f) => (f & fsConstants.O_DIRECT) !== 0)).toEqual([false]);
      expect((await readAllBytes(stream)).equals(bytes)).toBe(true);
    } finally {
      giveBackAlignedBuffers(all as Buffer[]);
    }
    for (let i = 0; i < 5; i++) expect((await readAllBytes(await store.read('f', range, { pieceSize: 1024 * 1024 + 16 }))).equals(bytes)).toBe(true);
    expect(alignedBuffersAlive()).toBeLessThanOrEqual(4);
  });

  it('writes a large file past the page cache (O_DIRECT), exactly its bytes, 0600, and gives its buffers back', async () => {
    const bytes = testBytes(20 * 1024 * 1024 + 123);
    const gated = gatedSource(bytes.subarray(0, 6 * 1024 * 1024), bytes.subarray(6 * 1024 * 1024));
    const writing = store.write('big/file', gated.source);
    const temp = await openTempFile(join(store.rootDir, 'big'));
    expect((await openFlagsOf(temp)).map((f) => (f & fsConstants.O_DIRECT) !== 0)).toEqual([true]);
    gated.release();
    await writing;
    const path = join(store.rootDir, 'big', 'file');
    expect((await readFile(path)).equals(bytes)).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(store.rootDir, 'big'))).toEqual(['file']);
    // Every aligned buffer of the process is free again.
    const all = takeAlignedBuffers(MAX_ALIGNED_BUFFERS, 4096);
    expect(all).toBeDefined();
    giveBackAlignedBuffers(all as Buffer[]);
  });

  it('writes a file of whole blocks and one of a single window and a byte directly, and one of a window through the page cache', async () => {
    for (const length of [8 * 1024 * 1024, 4 * 1024 * 1024 + 1, 4 * 1024 * 1024]) {
      const bytes = testBytes(length, length);
      await store.write(`f${length}`, sourceOf(bytes, 64 * 1024 + 3));
      expect((await readFile(join(store.rootDir, `f${length}`))).equals(bytes)).toBe(true);
    }
  });

  it('writes through the page cache while every aligned buffer of the process is taken', async () => {
    const bytes = testBytes(9 * 1024 * 1024);
    const all = takeAlignedBuffers(MAX_ALIGNED_BUFFERS, 4096);
    expect(all).toBeDefined();
    try {
      const gated = gatedSource(bytes.subarray(0, 6 * 1024 * 1024), bytes.subarray(6 * 1024 * 1024));
      const writing = store.write('f', gated.source);
      const temp = await openTempFile(store.rootDir);
      expect((await openFlagsOf(temp)).map((f) => (f & fsConstants.O_DIRECT) !== 0)).toEqual([false]);
      gated.release();
      await writing;
    } finally {
      giveBackAlignedBuffers(all as Buffer[]);
    }
    expect((await readFile(join(store.rootDir, 'f'))).equals(bytes)).toBe(true);
  });

  it('leaves nothing of a direct write whose source fails halfway, keeps the previous version, and gives its buffers back', async () => {
    await store.write('big', sourceOf(Buffer.from('previous')));
    await expect(store.write('big', failingSource(testBytes(10 * 1024 * 1024), new Error('client went away')))).rejects.toThrow('client went away');
    expect(await readdir(store.rootDir)).toEqual(['big']);
    expect(await readFile(join(store.rootDir, 'big'), 'utf8')).toBe('previous');
    const all = takeAlignedBuffers(MAX_ALIGNED_BUFFERS, 4096);
    expect(all).toBeDefined();
    giveBackAlignedBuffers(all as Buffer[]);
  });
});

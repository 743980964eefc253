import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, databaseFields, everyProblem, loadConfig } from '@dsar/platform/config';
import { EncryptedStorage } from './encrypted-storage';
import { StorageUnavailableError } from './errors';
import { UnavailableStorage } from './file-storage';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { MemoryBlobStore } from './memory-blob-store';
import { S3BlobStore } from './s3-blob-store';
import {
  blobStoreFrom,
  ensureDevStorageMasterKey,
  parsePreviousMasterKeys,
  parseStorageMasterKey,
  requireStorageSettings,
  storageDirFrom,
  storageFields,
  storageFromConfig,
  storageMasterKeyFrom,
  storagePreviousMasterKeysFrom,
} from './storage-config';
import { readObject } from './testing/encrypted-storage.contract';
import { sourceOf } from './testing/streams';

const schema = z.object({ DATA_DIR: databaseFields.DATA_DIR, ...storageFields }).superRefine(requireStorageSettings, everyProblem);
const load = (env: Record<string, string>) => loadConfig('test-service', schema, env);
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    load(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
};

describe('storage configuration', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsar-storage-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('defaults to the file system under DATA_DIR, and to no master key', () => {
    const config = load({ DATA_DIR: dir });
    expect(config).toEqual({ DATA_DIR: dir, STORAGE_DRIVER: 'filesystem', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });
    expect(storageDirFrom(config)).toBe(join(dir, 'storage'));
    expect(storageDirFrom({ DATA_DIR: './.data' })).toBe(resolve('.data/storage'));
    expect(storageDirFrom({ DATA_DIR: dir, STORAGE_DIR: 'elsewhere' })).toBe(resolve('elsewhere'));
    expect(storageDirFrom({ DATA_DIR: 'memory://test' })).toBeUndefined();
    expect(storageMasterKeyFrom(config)).toBeUndefined();
  });

  it('accepts the base64 of exactly 32 bytes, standard or URL-safe, padded or not', () => {
    const key = randomBytes(32);
    for (const text of [key.toString('base64'), key.toString('base64url'), key.toString('base64').replace(/=+$/, ''), ` ${key.toString('base64')}\n`]) {
      expect(parseStorageMasterKey(text)?.equals(key)).toBe(true);
      expect(storageMasterKeyFrom(load({ DATA_DIR: dir, STORAGE_MASTER_KEY: text }))?.equals(key)).toBe(true);
    }
  });

  it.each([
    ['too short', randomBytes(16).toString('base64')],
    ['too long', randomBytes(33).toString('base64')],
    ['not base64', `${'!'.repeat(43)}=`],
    ['hex', randomBytes(32).toString('hex')],
    ['a passphrase', 'correct horse battery staple correct horse'],
  ])('refuses a master key that is %s, saying how to make one', (_what, text) => {
    expect(parseStorageMasterKey(text)).toBeUndefined();
    const problems = problemsOf({ DATA_DIR: dir, STORAGE_MASTER_KEY: text });
    expect(problems).toEqual([`STORAGE_MASTER_KEY: must be the base64 of exactly 32 bytes; make one with: openssl rand -base64 32`]);
    // The refused value itself is never echoed.
    expect(problems.join()).not.toContain(text);
  });

  it('reads the master key from a mounted secret file', async () => {
    const key = randomBytes(32);
    const file = join(dir, 'master-key');
    await writeFile(file, `${key.toString('base64')}\n`);
    const config = load({ DATA_DIR: dir, STORAGE_MASTER_KEY_FILE: file });
    expect(storageMasterKeyFrom(config)?.equals(key)).toBe(true);
    const storage = await storageFromConfig(config);
    expect(storage).toBeInstanceOf(EncryptedStorage);
    expect((storage as EncryptedStorage).store).toBeInstanceOf(FilesystemBlobStore);
    expect(((storage as EncryptedStorage).store as FilesystemBlobStore).rootDir).toBe(join(dir, 'storage'));
  });

  it('reports a missing or unusable secret file at start-up with the other problems', async () => {
    const bad = join(dir, 'bad-key');
    await writeFile(bad, 'short\n');
    expect(problemsOf({ DATA_DIR: dir, STORAGE_MASTER_KEY_FILE: join(dir, 'absent'), STORAGE_DRIVER: 'ftp' })).toEqual([
      expect.stringMatching(/^STORAGE_DRIVER: /),
      `STORAGE_MASTER_KEY_FILE: ${join(dir, 'absent')} cannot be read: ENOENT`,
    ]);
    expect(problemsOf({ DATA_DIR: dir, STORAGE_MASTER_KEY_FILE: bad })).toEqual([`STORAGE_MASTER_KEY_FILE: ${bad} must be the base64 of exactly 32 bytes; make one with: openssl rand -base64 32`]);
  });

  it('prefers the variable to the file', async () => {
    const key = randomBytes(32);
    const file = join(dir, 'other');
    await writeFile(file, randomBytes(32).toString('base64'));
    expect(storageMasterKeyFrom({ STORAGE_MASTER_KEY: key.toString('base64'), STORAGE_MASTER_KEY_FILE: file })?.equals(key)).toBe(true);
  });

  describe('previous master keys', () => {
    const keys = [randomBytes(32), randomBytes(32), randomBytes(32)];

    it('reads them comma-separated from the variable, or one a line from a mounted file', async () => {
      const listed = ` ${keys[0].toString('base64')}, ${keys[1].toString('base64url')},${keys[2].toString('base64').replace(/=+$/, '')} ,`;
      expect(parsePreviousMasterKeys(listed)).toEqual(keys);
      expect(storagePreviousMasterKeysFrom(load({ DATA_DIR: dir, STORAGE_PREVIOUS_MASTER_KEYS: listed }))).toEqual(keys);
      const file = join(dir, 'previous-keys');
      await writeFile(file, `${keys[0].toString('base64')}\n\n${keys[1].toString('base64')}\r\n${keys[2].toString('base64')}\n`);
      expect(storagePreviousMasterKeysFrom(load({ DATA_DIR: dir, STORAGE_PREVIOUS_MASTER_KEYS_FILE: file }))).toEqual(keys);
      // The variable wins over the file, as for the master key; neither set is none.
      expect(storagePreviousMasterKeysFrom({ STORAGE_PREVIOUS_MASTER_KEYS: keys[2].toString('base64'), STORAGE_PREVIOUS_MASTER_KEYS_FILE: file })).toEqual([keys[2]]);
      expect(storagePreviousMasterKeysFrom(load({ DATA_DIR: dir }))).toEqual([]);
    });

    it('refuses an unusable entry, naming its position and never a key', async () => {
      const good = keys[0].toString('base64');
      const bad = randomBytes(16).toString('base64');
      const worse = `${keys[1].toString('hex')}`;
      expect(problemsOf({ DATA_DIR: dir, STORAGE_PREVIOUS_MASTER_KEYS: `${good},${bad}` })).toEqual([
        'STORAGE_PREVIOUS_MASTER_KEYS: entry 2 of 2 is not the base64 of exactly 32 bytes (a storage master key)',
      ]);
      expect(problemsOf({ DATA_DIR: dir, STORAGE_PREVIOUS_MASTER_KEYS: `${bad},${good},${worse}` })).toEqual([
        'STORAGE_PREVIOUS_MASTER_KEYS: entries 1, 3 of 3 are not the base64 of exactly 32 bytes (a storage master key)',
      ]);
      expect(problemsOf({ DATA_DIR: dir, STORAGE_PREVIOUS_MASTER_KEYS: ' , ' })).toEqual([
        'STORAGE_PREVIOUS_MASTER_KEYS: must list at least one key (the base64 of 32 bytes), separated by commas or line breaks',
      ]);
      const file = join(dir, 'previous-keys');
      await writeFile(file, `${good}\n${bad}\n`);
      const problems = problemsOf({ DATA_DIR: dir, STORAGE_PREVIOUS_MASTER_KEYS_FILE: file, STORAGE_MASTER_KEY_FILE: join(dir, 'absent') });
      expect(problems).toEqual([
        `STORAGE_MASTER_KEY_FILE: ${join(dir, 'absent')} cannot be read: ENOENT`,
        `STORAGE_PREVIOUS_MASTER_KEYS_FILE: ${file} entry 2 of 2 is not the base64 of exactly 32 bytes (a storage master key)`,
      ]);
      expect(() => storagePreviousMasterKeysFrom({ STORAGE_PREVIOUS_MASTER_KEYS_FILE: file })).toThrow(`${file} entry 2 of 2 is not`);
      for (const secret of [good, bad, worse]) expect(problems.join()).not.toContain(secret);
    });

    it('opens a storage that reads what the previous key stored and rewraps it under the new one', async () => {
      const before = (await storageFromConfig({ DATA_DIR: dir, STORAGE_MASTER_KEY: keys[0].toString('base64') })) as EncryptedStorage;
      await before.put('t', 'doc', sourceOf(Buffer.from('stored before the rotation')), { maxBytes: 100 });
      const file = join(dir, 'previous-keys');
      await writeFile(file, `${keys[0].toString('base64')}\n`);
      const config = load({ DATA_DIR: dir, STORAGE_MASTER_KEY: keys[1].toString('base64'), STORAGE_PREVIOUS_MASTER_KEYS_FILE: file });
      const after = (await storageFromConfig(config)) as EncryptedStorage;
      expect(after.previousMasterKeyIds).toEqual([before.masterKeyId]);
      expect(await after.rewrapTenantKeys()).toEqual({ rewrapped: 1, alreadyCurrent: 0, failed: 0, failures: [] });
      const newOnly = (await storageFromConfig({ DATA_DIR: dir, STORAGE_MASTER_KEY: keys[1].toString('base64') })) as EncryptedStorage;
      expect((await readObject(newOnly, 't', 'doc')).toString()).toBe('stored before the rotation');
    });
  });

  it('without a master key, is unavailable rather than failing the start', async () => {
    const storage = await storageFromConfig(load({ DATA_DIR: dir }));
    expect(storage).toBeInstanceOf(UnavailableStorage);
    expect(storage.available).toBe(false);
    expect(storage.unavailableReason).toMatch(/STORAGE_MASTER_KEY/);
    const kept = sourceOf(Buffer.from('x'));
    await expect(storage.put('t', 'k', kept, { maxBytes: 10, destroySourceOnError: false })).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(kept.destroyed).toBe(false);
    const dropped = sourceOf(Buffer.from('x'));
    await expect(storage.put('t', 'k', dropped, { maxBytes: 10 })).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(dropped.destroyed).toBe(true);
    await expect(storage.get('t', 'k')).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(storage.delete('t', 'k')).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    await expect(storage.destroyTenantKey('t')).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('in development, makes a master key under DATA_DIR once and reuses it', async () => {
    const config = load({ DATA_DIR: dir });
    const first = await storageFromConfig(config, { devMasterKey: true });
    expect(first.available).toBe(true);
    await first.put('t', 'doc', sourceOf(Buffer.from('kept across restarts')), { maxBytes: 100 });
    const path = join(dir, 'storage-master-key');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(parseStorageMasterKey(await readFile(path, 'utf8'))).toBeDefined();
    const second = await storageFromConfig(config, { devMasterKey: true });
    expect((await readObject(second as EncryptedStorage, 't', 'doc')).toString()).toBe('kept across restarts');
    // A configured key wins over the development one.
    const configured = await storageFromConfig({ ...config, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') }, { devMasterKey: true });
    expect((configured as EncryptedStorage).masterKeyId).not.toBe((second as EncryptedStorage).masterKeyId);
  });

  it('refuses a hand-edited development key file', async () => {
    await writeFile(join(dir, 'storage-master-key'), 'not a key\n');
    await expect(ensureDevStorageMasterKey(dir)).rejects.toThrow(/storage-master-key must be the base64 of exactly 32 bytes.*or delete it/);
  });

  it('keeps everything in memory for a memory:// DATA_DIR', async () => {
    const storage = (await storageFromConfig({ DATA_DIR: `memory://${dir}` }, { devMasterKey: true })) as EncryptedStorage;
    expect(storage.store).toBeInstanceOf(MemoryBlobStore);
    await storage.put('t', 'doc', sourceOf(Buffer.from('x')), { maxBytes: 10 });
    await expect(stat(join(dir, 'storage'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await ensureDevStorageMasterKey(`memory://${dir}`)).path).toBeUndefined();
  });

  describe('the s3 driver', () => {
    const s3Env = { STORAGE_DRIVER: 's3', S3_BUCKET: 'dsar-evidence' };

    it('reads its settings, with their defaults, and makes an S3BlobStore', async () => {
      const defaults = load({ DATA_DIR: dir, ...s3Env });
      expect(defaults).toEqual({ DATA_DIR: dir, STORAGE_DRIVER: 's3', S3_BUCKET: 'dsar-evidence', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });
      const plain = (await blobStoreFrom(defaults)) as S3BlobStore;
      expect(plain).toBeInstanceOf(S3BlobStore);
      expect(plain.bucket).toBe('dsar-evidence');
      expect(plain.keyPrefix).toBe('');
      expect(await plain.client.config.region()).toBe('us-east-1');
      expect(plain.client.config.forcePathStyle).toBe(false);
      expect(plain.client.config.endpoint).toBeUndefined(); // AWS S3's own, from the region
      plain.destroy();

      const config = load({
        DATA_DIR: dir,
        ...s3Env,
        S3_REGION: 'eu-central-1',
        S3_ENDPOINT: 'https://s3.internal.example:9443',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'dsar/prod',
      });
      expect(config).toMatchObject({ S3_REGION: 'eu-central-1', S3_ENDPOINT: 'https://s3.internal.example:9443', S3_FORCE_PATH_STYLE: true, S3_PREFIX: 'dsar/prod' });
      const store = (await blobStoreFrom(config)) as S3BlobStore;
      expect(store.keyPrefix).toBe('dsar/prod/');
      expect(store.objectKey('keys/t.key')).toBe('dsar/prod/keys/t.key');
      expect(await store.client.config.region()).toBe('eu-central-1');
      expect(store.client.config.forcePathStyle).toBe(true);
      expect(await store.client.config.endpoint?.()).toMatchObject({ protocol: 'https:', hostname: 's3.internal.example', port: 9443 });
      store.destroy();
    });

    it.each([
      ['1', true],
      ['yes', true],
      ['false', false],
      ['0', false],
    ])('reads S3_FORCE_PATH_STYLE=%s', (text, value) => {
      expect(load({ DATA_DIR: dir, ...s3Env, S3_FORCE_PATH_STYLE: text }).S3_FORCE_PATH_STYLE).toBe(value);
    });

    it('puts an EncryptedStorage over it when a master key is set, without calling S3 yet', async () => {
      const storage = await storageFromConfig({ ...load({ DATA_DIR: dir, ...s3Env, S3_PREFIX: '/dsar/' }), STORAGE_MASTER_KEY: randomBytes(32).toString('base64') });
      expect(storage).toBeInstanceOf(EncryptedStorage);
      const store = (storage as EncryptedStorage).store as S3BlobStore;
      expect(store).toBeInstanceOf(S3BlobStore);
      expect(store.keyPrefix).toBe('dsar/');
      store.destroy();
      // STORAGE_DIR is the filesystem driver's: nothing is made there.
      await expect(stat(join(dir, 'storage'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('needs S3_BUCKET, reported with the other problems', async () => {
      expect(problemsOf({ DATA_DIR: dir, STORAGE_DRIVER: 's3' })).toEqual(['S3_BUCKET: required when STORAGE_DRIVER=s3']);
      expect(problemsOf({ DATA_DIR: dir, STORAGE_DRIVER: 's3', S3_ENDPOINT: 'not a url' })).toEqual([expect.stringMatching(/^S3_ENDPOINT: /), 'S3_BUCKET: required when STORAGE_DRIVER=s3']);
      // Without the rule in the schema, opening the store refuses it.
      await expect(blobStoreFrom({ DATA_DIR: dir, STORAGE_DRIVER: 's3' })).rejects.toThrow('S3_BUCKET is required when STORAGE_DRIVER=s3');
      // The filesystem driver does not need it.
      expect(problemsOf({ DATA_DIR: dir })).toEqual([]);
    });

    it.each([
      ['S3_BUCKET', 'My_Bucket'],
      ['S3_BUCKET', 'ab'],
      ['S3_BUCKET', '-dsar'],
      ['S3_REGION', 'EU Central'],
      ['S3_ENDPOINT', 'ftp://files.example'],
      ['S3_ENDPOINT', 's3.example.com'],
      ['S3_FORCE_PATH_STYLE', 'maybe'],
      ['S3_PREFIX', '../up'],
      ['S3_PREFIX', 'Upper/Case'],
      ['S3_PREFIX', 'a//b'],
    ])('refuses %s=%s', (name, value) => {
      expect(problemsOf({ DATA_DIR: dir, ...s3Env, [name]: value })).toEqual([expect.stringMatching(new RegExp(`^${name}: `))]);
    });
  });
});

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EncryptedStorage, FilesystemBlobStore } from '@dsar/platform/storage';
import { readAllBytes, sourceOf } from '@dsar/platform/storage/testing';

/** `npm run storage:rewrap` (tools/scripts/storage-rewrap.ts) as an operator runs it, against a store on disk. */
const root = path.resolve(__dirname, '../..');

/**
 * Each test runs the script several times, and each run compiles its TypeScript at start: seconds apiece on a busy
 * two-core machine, so Jest's default 5 s is far too short. A run of the script that hangs is killed.
 */
jest.setTimeout(120_000);
const SCRIPT_TIMEOUT_MS = 60_000;

/** Runs the script with only `env` (and PATH) set: its exit code and output. */
function rewrap(env: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['tools/scripts/run-ts.cjs', 'tools/scripts/storage-rewrap.ts', ...args],
      { cwd: root, timeout: SCRIPT_TIMEOUT_MS, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

describe('storage:rewrap', () => {
  let dir: string;
  const [oldKey, newKey, strangerKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const base64 = (key: Buffer) => key.toString('base64');
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dsar-rewrap-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const store = () => new FilesystemBlobStore(path.join(dir, 'storage'));
  const put = (key: Buffer, tenantId: string) => new EncryptedStorage(store(), key).put(tenantId, 'doc', sourceOf(Buffer.from(`file of ${tenantId}`)), { maxBytes: 100 });

  it('rewraps every tenant key under the new master key, with the previous one from a mounted file, and prints the counts', async () => {
    await put(oldKey, 'default');
    await put(oldKey, 'Acme Corp');
    const previousFile = path.join(dir, 'previous-keys');
    await writeFile(previousFile, `${base64(oldKey)}\n`);
    const env = { DATA_DIR: dir, STORAGE_MASTER_KEY: base64(newKey), STORAGE_PREVIOUS_MASTER_KEYS_FILE: previousFile };

    const first = await rewrap(env);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`store: directory ${path.join(dir, 'storage')}\n`);
    expect(first.stdout).toContain(`master key: ${new EncryptedStorage(store(), newKey).masterKeyId}\n`);
    expect(first.stdout).toContain(`previous master keys: ${new EncryptedStorage(store(), oldKey).masterKeyId}\n`);
    expect(first.stdout).toMatch(/rewrapped: 2\nalready current: 0\nfailed: 0\n$/);
    for (const key of [oldKey, newKey]) expect(first.stdout).not.toContain(base64(key).slice(0, 12));

    // Then the previous key goes: the new one alone reads every file, and a run finds nothing left to do.
    const newOnly = new EncryptedStorage(store(), newKey);
    expect((await readAllBytes((await newOnly.get('Acme Corp', 'doc')).stream)).toString()).toBe('file of Acme Corp');
    const again = await rewrap({ DATA_DIR: dir, STORAGE_MASTER_KEY: base64(newKey) });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/previous master keys: none .*\n[^]*rewrapped: 0\nalready current: 2\nfailed: 0\n$/);
  });

  it('exits 1 naming each key it could not rewrap, and 78 without a usable configuration', async () => {
    await put(oldKey, 'default');
    await put(strangerKey, 'other');
    const failed = await rewrap({ DATA_DIR: dir, STORAGE_MASTER_KEY: base64(newKey), STORAGE_PREVIOUS_MASTER_KEYS: base64(oldKey) });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/rewrapped: 1\nalready current: 0\nfailed: 1\n$/);
    expect(failed.stderr).toMatch(/^failed: keys\/other\.key \(tenant "other"\): The data key of tenant other is wrapped by master key [0-9a-f]{16}, .*STORAGE_PREVIOUS_MASTER_KEYS\n$/);

    expect(await rewrap({ DATA_DIR: dir })).toMatchObject({ code: 78, stderr: expect.stringContaining('no master key is configured') });
    const refused = await rewrap({ DATA_DIR: dir, STORAGE_MASTER_KEY: base64(newKey), STORAGE_PREVIOUS_MASTER_KEYS: `${base64(oldKey)},not-a-key` });
    expect(refused).toMatchObject({ code: 78, stderr: expect.stringContaining('STORAGE_PREVIOUS_MASTER_KEYS: entry 2 of 2 is not the base64 of exactly 32 bytes') });
    expect(refused.stderr).not.toContain(base64(oldKey));
    expect(await rewrap({ DATA_DIR: dir, STORAGE_MASTER_KEY: base64(newKey) }, ['--everything'])).toMatchObject({ code: 64 });
  });
});

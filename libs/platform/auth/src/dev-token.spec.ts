import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevToken, ensureReviewerToken, leftoverDevTokenFile } from './dev-token';

describe('ensureDevToken', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dsar-dev-token-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the data directory and a 0600 token file, then reads the same token back', async () => {
    const dataDir = join(root, 'nested', 'data');
    const first = await ensureDevToken(dataDir);
    expect(first).toEqual({ token: expect.stringMatching(/^dsar_dev_[A-Za-z0-9_-]{43}$/), path: join(dataDir, 'dev-token'), created: true });
    expect((await stat(first.path!)).mode & 0o777).toBe(0o600);
    expect((await readFile(first.path!, 'utf8')).trim()).toBe(first.token);

    const second = await ensureDevToken(dataDir);
    expect(second).toEqual({ token: first.token, path: first.path, created: false });
  });

  it('uses a token an operator put into the file, trimmed', async () => {
    const token = 'my-own-dev-token-0123456789';
    await writeFile(join(root, 'dev-token'), `  ${token}\n`);
    expect(await ensureDevToken(root)).toEqual({ token, path: join(root, 'dev-token'), created: false });
  });

  it('refuses a file holding a token too short to be a safe admin key', async () => {
    await writeFile(join(root, 'dev-token'), 'admin\n');
    await expect(ensureDevToken(root)).rejects.toThrow(/shorter than 24 characters/);
  });

  it('writes nothing for in-memory data and makes a fresh token each time', async () => {
    const first = await ensureDevToken('memory://x');
    const second = await ensureDevToken('memory://x');
    expect(first).toEqual({ token: expect.stringMatching(/^dsar_dev_/), created: true });
    expect(first.path).toBeUndefined();
    expect(second.token).not.toBe(first.token);
    expect(await readdir(root)).toEqual([]);
    await expect(stat('memory:')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('ensureReviewerToken', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dsar-reviewer-token-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps a second key beside dev-token in a 0600 file, another token than the admin key, read back on the next start', async () => {
    const admin = await ensureDevToken(root);
    const first = await ensureReviewerToken(root);
    expect(first).toEqual({ token: expect.stringMatching(/^dsar_reviewer_[A-Za-z0-9_-]{43}$/), path: join(root, 'reviewer-token'), created: true });
    expect(first.token).not.toBe(admin.token);
    expect((await stat(first.path!)).mode & 0o777).toBe(0o600);
    expect(await ensureReviewerToken(root)).toEqual({ token: first.token, path: first.path, created: false });
    expect((await readdir(root)).sort()).toEqual(['dev-token', 'reviewer-token']);
  });

  it('writes nothing for in-memory data', async () => {
    expect((await ensureReviewerToken('memory://x')).path).toBeUndefined();
    expect(await readdir(root)).toEqual([]);
  });
});

describe('leftoverDevTokenFile', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'dsar-dev-token-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('names the dev-token file a data directory holds, and leaves it in place', async () => {
    await writeFile(join(root, 'dev-token'), 'dsar_dev_an-earlier-development-key-0123\n');
    expect(await leftoverDevTokenFile(root)).toBe(join(root, 'dev-token'));
    expect(await readdir(root)).toEqual(['dev-token']);
  });

  it('names nothing when there is no such file, or the data is in memory', async () => {
    expect(await leftoverDevTokenFile(root)).toBeUndefined();
    expect(await leftoverDevTokenFile(join(root, 'not-made-yet'))).toBeUndefined();
    expect(await leftoverDevTokenFile('memory://x')).toBeUndefined();
  });

  it('names a reviewer-token file as well', async () => {
    await writeFile(join(root, 'reviewer-token'), 'dsar_reviewer_an-earlier-development-key\n');
    expect(await leftoverDevTokenFile(root, 'reviewer-token')).toBe(join(root, 'reviewer-token'));
    expect(await leftoverDevTokenFile(root)).toBeUndefined();
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config-error';
import { ensureDevIdentityIndexKey, identityIndexKeyFields, identityIndexKeysFrom, requireIdentityIndexKey } from './identity-index-key';
import { loadConfig } from './load-config';
import { everyProblem } from './schemas';

const schema = z.object(identityIndexKeyFields).superRefine(requireIdentityIndexKey, everyProblem);
const CURRENT = 'c'.repeat(33);
const EARLIER = 'e'.repeat(48);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig('probe', schema, env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('the identity index key', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dsar-identity-index-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is required, as IDENTITY_INDEX_KEY or IDENTITY_INDEX_KEY_FILE, not both', () => {
    expect(problemsOf({})).toEqual([expect.stringMatching(/^IDENTITY_INDEX_KEY: required/)]);
    const file = join(dir, 'key');
    writeFileSync(file, `${CURRENT}\n`);
    expect(problemsOf({ IDENTITY_INDEX_KEY: CURRENT, IDENTITY_INDEX_KEY_FILE: file })).toEqual([expect.stringMatching(/^IDENTITY_INDEX_KEY_FILE: give/)]);
  });

  it('takes a list, the current key first, each of 32 bytes or more, and never quotes a key in a problem', () => {
    const config = loadConfig('probe', schema, { IDENTITY_INDEX_KEY: `\n${CURRENT} , ${EARLIER}\n` });
    expect(identityIndexKeysFrom(config)).toEqual([CURRENT, EARLIER]);
    const problems = problemsOf({ IDENTITY_INDEX_KEY: `too-short-to-use,${CURRENT},also-short` });
    expect(problems).toEqual([expect.stringContaining('key 1, 3 of 3 are shorter than 32 bytes')]);
    expect(problems.join('\n')).not.toMatch(/too-short-to-use|also-short/);
    expect(problemsOf({ IDENTITY_INDEX_KEY: 'x'.repeat(31) })).toEqual([expect.stringContaining('the key is shorter than 32 bytes')]);
    expect(problemsOf({ IDENTITY_INDEX_KEY: '\n,\n' })).toEqual([expect.stringContaining('must hold a key')]);
  });

  it('counts bytes, not characters', () => {
    // 16 two-byte characters: 32 bytes.
    expect(identityIndexKeysFrom(loadConfig('probe', schema, { IDENTITY_INDEX_KEY: 'ß'.repeat(16) }))).toEqual(['ß'.repeat(16)]);
  });

  it('may come from a file, one key a line', () => {
    const file = join(dir, 'keys');
    writeFileSync(file, `${CURRENT}\r\n${EARLIER}\r\n`);
    expect(identityIndexKeysFrom(loadConfig('probe', schema, { IDENTITY_INDEX_KEY_FILE: file }))).toEqual([CURRENT, EARLIER]);
    writeFileSync(join(dir, 'weak'), 'abc\n');
    expect(problemsOf({ IDENTITY_INDEX_KEY_FILE: join(dir, 'weak') })).toEqual([expect.stringMatching(/^IDENTITY_INDEX_KEY_FILE: .*shorter than 32 bytes/)]);
    expect(problemsOf({ IDENTITY_INDEX_KEY_FILE: join(dir, 'absent') })).toEqual([expect.stringMatching(/^IDENTITY_INDEX_KEY_FILE: .*cannot be read: ENOENT/)]);
    expect(identityIndexKeysFrom({})).toEqual([]);
  });

  it('is made once under DATA_DIR for the embedded runner (mode 0600) and read back after', async () => {
    const made = await ensureDevIdentityIndexKey(dir);
    expect(made.key.length).toBeGreaterThanOrEqual(32);
    expect(made.path).toBe(join(dir, 'identity-index-key'));
    expect(statSync(made.path!).mode & 0o777).toBe(0o600);
    expect((await ensureDevIdentityIndexKey(dir)).key).toBe(made.key);
    expect(readFileSync(made.path!, 'utf8').trim()).toBe(made.key);
    writeFileSync(made.path!, 'not-long-enough\n');
    await expect(ensureDevIdentityIndexKey(dir)).rejects.toThrow(/shorter than 32 bytes.*, or delete it to get a new one/);
  });

  it('is a fresh one each time with in-memory data', async () => {
    const first = await ensureDevIdentityIndexKey('memory://probe');
    expect(first.path).toBeUndefined();
    expect((await ensureDevIdentityIndexKey('memory://probe')).key).not.toBe(first.key);
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config-error';
import { loadConfig } from './load-config';
import { everyProblem } from './schemas';
import { ensureDevRequestReferenceKey, requestReferenceKeyFields, requestReferenceKeysFrom, requireRequestReferenceKey } from './request-reference-key';

const schema = z.object(requestReferenceKeyFields).superRefine(requireRequestReferenceKey, everyProblem);
const KEY = 'r'.repeat(32);
const OLD = 'o'.repeat(40);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig('probe', schema, env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('the request reference key', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dsar-reference-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is required, as REQUEST_REFERENCE_KEY or REQUEST_REFERENCE_KEY_FILE, not both', () => {
    expect(problemsOf({})).toEqual([expect.stringMatching(/^REQUEST_REFERENCE_KEY: required/)]);
    const file = join(dir, 'key');
    writeFileSync(file, `${KEY}\n`);
    expect(problemsOf({ REQUEST_REFERENCE_KEY: KEY, REQUEST_REFERENCE_KEY_FILE: file })).toEqual([expect.stringMatching(/^REQUEST_REFERENCE_KEY_FILE: give/)]);
  });

  it('takes a list, the current key first, each of 32 bytes or more, and never quotes a key in a problem', () => {
    const config = loadConfig('probe', schema, { REQUEST_REFERENCE_KEY: ` ${KEY} ,${OLD},` });
    expect(requestReferenceKeysFrom(config)).toEqual([KEY, OLD]);
    const problems = problemsOf({ REQUEST_REFERENCE_KEY: `${KEY},short-secret-value` });
    expect(problems).toEqual([expect.stringContaining('key 2 of 2 is shorter than 32 bytes')]);
    expect(problems.join('\n')).not.toContain('short-secret-value');
    expect(problemsOf({ REQUEST_REFERENCE_KEY: ' , ' })).toEqual([expect.stringContaining('must hold a key')]);
  });

  it('may come from a file, one key a line', () => {
    const file = join(dir, 'keys');
    writeFileSync(file, `${KEY}\n${OLD}\n`);
    expect(requestReferenceKeysFrom(loadConfig('probe', schema, { REQUEST_REFERENCE_KEY_FILE: file }))).toEqual([KEY, OLD]);
    writeFileSync(join(dir, 'weak'), 'abc\n');
    expect(problemsOf({ REQUEST_REFERENCE_KEY_FILE: join(dir, 'weak') })).toEqual([expect.stringMatching(/^REQUEST_REFERENCE_KEY_FILE: .*shorter than 32 bytes/)]);
    expect(requestReferenceKeysFrom({})).toEqual([]);
  });

  it('is made once under DATA_DIR for the embedded runner (mode 0600) and read back after', async () => {
    const made = await ensureDevRequestReferenceKey(dir);
    expect(made.key.length).toBeGreaterThanOrEqual(32);
    expect(statSync(made.path!).mode & 0o777).toBe(0o600);
    expect((await ensureDevRequestReferenceKey(dir)).key).toBe(made.key);
    expect(readFileSync(made.path!, 'utf8').trim()).toBe(made.key);
    writeFileSync(made.path!, 'too-short\n');
    await expect(ensureDevRequestReferenceKey(dir)).rejects.toThrow(/shorter than 32 bytes.*, or delete it to get a new one/);
  });
});

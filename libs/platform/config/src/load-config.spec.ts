import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { internalAuthKeyFrom } from './internal-auth';
import { loadConfig } from './load-config';
import { serviceConfigSchema } from './schemas';

/** How an operator meets the configuration: the problems a bad environment reports, and the defaults of a bare one. */
const schema = serviceConfigSchema(3002);

/** Every service process needs the internal auth key; the tests below are about the other settings. */
const KEY = { INTERNAL_AUTH_KEY: 'k'.repeat(32) };

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig('probe', schema, { ...KEY, ...env });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected the configuration to be rejected');
}

const keysOf = (problems: string[]) => problems.map((p) => p.slice(0, p.indexOf(':'))).sort();

describe('loadConfig lists every problem at once', () => {
  it('names each bad variable in ConfigError.problems, not only the first', () => {
    const problems = problemsOf({ PORT: 'eighty', LOG_LEVEL: 'loud', DB_DRIVER: 'mysql', OUTBOX_BATCH_SIZE: '5000' });
    expect(keysOf(problems)).toEqual(['DB_DRIVER', 'LOG_LEVEL', 'OUTBOX_BATCH_SIZE', 'PORT']);
  });

  it('takes HEAP_GROWING_PERCENT as an integer from 0 to 400', () => {
    expect(loadConfig('probe', schema, { ...KEY, HEAP_GROWING_PERCENT: '0' }).HEAP_GROWING_PERCENT).toBe(0);
    for (const bad of ['-1', '401', '1.5', 'lots']) expect(keysOf(problemsOf({ HEAP_GROWING_PERCENT: bad }))).toEqual(['HEAP_GROWING_PERCENT']);
  });

  it('reports the cross-field rules together with bad single fields', () => {
    const problems = problemsOf({ PORT: 'eighty', LOG_LEVEL: 'loud', DB_DRIVER: 'postgres', BUS_DRIVER: 'kafka' });
    expect(keysOf(problems)).toEqual(['DATABASE_URL', 'KAFKA_BROKERS', 'LOG_LEVEL', 'PORT']);
  });

  it('puts the app name and every problem into the error message', () => {
    let error: unknown;
    try {
      loadConfig('lifecycle-clock', schema, { PORT: 'x', KAFKA_BROKERS: 'no-port' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, app } = error as ConfigError;
    expect(app).toBe('lifecycle-clock');
    expect(message).toContain('Invalid configuration for lifecycle-clock');
    expect(message).toMatch(/- PORT: /);
    expect(message).toMatch(/- KAFKA_BROKERS: a comma list of host:port/);
  });
});

describe('empty strings count as unset', () => {
  it('falls back to the defaults for variables set to ""', () => {
    const cfg = loadConfig('probe', schema, { ...KEY, PORT: '', DATA_DIR: '', BUS_DRIVER: '', DB_DRIVER: '', LOG_LEVEL: '' });
    expect(cfg).toMatchObject({ PORT: 3002, DATA_DIR: './.data', BUS_DRIVER: 'memory', DB_DRIVER: 'pglite', LOG_LEVEL: 'info' });
  });

  it('treats an empty DATABASE_URL as missing when the postgres driver needs it', () => {
    expect(keysOf(problemsOf({ DB_DRIVER: 'postgres', DATABASE_URL: '' }))).toEqual(['DATABASE_URL']);
  });
});

describe('serviceConfigSchema driver settings', () => {
  it('requires DATABASE_URL when DB_DRIVER=postgres', () => {
    expect(problemsOf({ DB_DRIVER: 'postgres' })).toEqual(['DATABASE_URL: required when DB_DRIVER=postgres']);
  });

  it('accepts DB_DRIVER=postgres with a postgres URL', () => {
    const cfg = loadConfig('probe', schema, { ...KEY, DB_DRIVER: 'postgres', DATABASE_URL: 'postgres://u:p@db:5432/dsar' });
    expect(cfg.DB_DRIVER).toBe('postgres');
    expect(cfg.DATABASE_URL).toBe('postgres://u:p@db:5432/dsar');
  });

  it('rejects a DATABASE_URL that is not a postgres URL', () => {
    expect(keysOf(problemsOf({ DB_DRIVER: 'postgres', DATABASE_URL: 'mysql://db/dsar' }))).toEqual(['DATABASE_URL']);
  });

  it('requires KAFKA_BROKERS when BUS_DRIVER=kafka', () => {
    expect(problemsOf({ BUS_DRIVER: 'kafka' })).toEqual(['KAFKA_BROKERS: required when BUS_DRIVER=kafka']);
  });

  it('accepts BUS_DRIVER=kafka with a host:port list', () => {
    const cfg = loadConfig('probe', schema, { ...KEY, BUS_DRIVER: 'kafka', KAFKA_BROKERS: 'k1:9092,k2:9092' });
    expect(cfg.KAFKA_BROKERS).toBe('k1:9092,k2:9092');
  });
});

describe('serviceConfigSchema defaults', () => {
  it('runs embedded with nothing set: the app port, ./.data, the in-memory bus and PGlite', () => {
    const cfg = loadConfig('probe', schema, KEY);
    expect(cfg).toMatchObject({
      PORT: 3002,
      HOST: '0.0.0.0',
      DATA_DIR: './.data',
      BUS_DRIVER: 'memory',
      DB_DRIVER: 'pglite',
      HTTP_BODY_LIMIT: '1mb',
      HEAP_GROWING_PERCENT: 50,
    });
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.KAFKA_BROKERS).toBeUndefined();
  });

  it('uses the default port of the app it was built for, and coerces a set PORT to a number', () => {
    expect(loadConfig('probe', serviceConfigSchema(3005), KEY).PORT).toBe(3005);
    expect(loadConfig('probe', schema, { ...KEY, PORT: '4000' }).PORT).toBe(4000);
  });
});

describe('the internal auth key', () => {
  const bare = (env: Record<string, string>) => {
    try {
      return loadConfig('probe', schema, env);
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
  };

  it('is required, as INTERNAL_AUTH_KEY or INTERNAL_AUTH_KEY_FILE', () => {
    expect(keysOf(bare({}) as string[])).toEqual(['INTERNAL_AUTH_KEY']);
  });

  it('must be at least 32 bytes, and the problem never quotes it', () => {
    const problems = bare({ INTERNAL_AUTH_KEY: 'short-secret-value' }) as string[];
    expect(keysOf(problems)).toEqual(['INTERNAL_AUTH_KEY']);
    expect(problems.join('\n')).not.toContain('short-secret-value');
  });

  it('may come from a file, which must exist and hold a long enough key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsar-key-'));
    const good = join(dir, 'good');
    const weak = join(dir, 'weak');
    writeFileSync(good, `${'x'.repeat(40)}\n`);
    writeFileSync(weak, 'abc\n');
    try {
      expect(bare({ INTERNAL_AUTH_KEY_FILE: good })).toMatchObject({ INTERNAL_AUTH_KEY_FILE: good });
      expect(internalAuthKeyFrom({ INTERNAL_AUTH_KEY_FILE: good })).toBe('x'.repeat(40));
      expect(keysOf(bare({ INTERNAL_AUTH_KEY_FILE: weak }) as string[])).toEqual(['INTERNAL_AUTH_KEY_FILE']);
      expect(keysOf(bare({ INTERNAL_AUTH_KEY_FILE: join(dir, 'missing') }) as string[])).toEqual(['INTERNAL_AUTH_KEY_FILE']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { apiKeyListSchema } from '@dsar/platform/auth';
import { quietHostConfig } from '@dsar/platform/host';
import { type RunningSystem, startSystem } from './system';

/**
 * Schemathesis (tools/scripts/schemathesis.sh) against a whole system in this process: the gateway's own OpenAPI
 * document, every check, every phase (examples, coverage, fuzzing, stateful), a fixed seed and a time budget.
 * Used by `npm run fuzz` (tools/embedded/src/fuzz.ts) and by schemathesis.e2e-spec.ts inside `npm test`.
 */
export const ROOT = path.resolve(__dirname, '../../..');

/** The admin key Schemathesis calls with (a test key, never a real one). */
export const FUZZ_ADMIN_TOKEN = 'schemathesis-admin-key-000000000000';

export interface SchemathesisSettings {
  /** Test cases per operation and phase (SCHEMATHESIS_MAX_EXAMPLES). */
  maxExamples: number;
  /** Seed of the generated data: a run is repeatable (SCHEMATHESIS_SEED). */
  seed: number;
  /** Time budget of the whole run, in seconds (SCHEMATHESIS_MAX_TIME). */
  maxTimeSeconds: number;
  /**
   * Concurrent workers (SCHEMATHESIS_WORKERS, default 1). Python 3.11 before 3.11.8 can fail in the coverage phase
   * with `SystemError: AST constructor recursion depth mismatch` when Hypothesis parses lambdas in several threads.
   */
  workers: number;
  /** Phases (SCHEMATHESIS_PHASES): all four by default. */
  phases: string;
  /** Where the JUnit report goes. */
  reportDir: string;
  /** More `schemathesis run` arguments. */
  extraArgs: string[];
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${value}`);
  return n;
}

/** The settings of a run: the defaults of `npm test`, overridden by SCHEMATHESIS_* variables. */
export function schemathesisSettingsFrom(env: NodeJS.ProcessEnv = process.env, defaults: Partial<SchemathesisSettings> = {}): SchemathesisSettings {
  return {
    maxExamples: intFrom(env, 'SCHEMATHESIS_MAX_EXAMPLES', defaults.maxExamples ?? 10),
    seed: intFrom(env, 'SCHEMATHESIS_SEED', defaults.seed ?? 20261125),
    maxTimeSeconds: intFrom(env, 'SCHEMATHESIS_MAX_TIME', defaults.maxTimeSeconds ?? 240),
    workers: intFrom(env, 'SCHEMATHESIS_WORKERS', defaults.workers ?? 1),
    phases: env['SCHEMATHESIS_PHASES'] || defaults.phases || 'examples,coverage,fuzzing,stateful',
    reportDir: env['SCHEMATHESIS_REPORT_DIR'] || defaults.reportDir || path.join(ROOT, '.reports', 'schemathesis'),
    extraArgs: defaults.extraArgs ?? [],
  };
}

/**
 * A system as Schemathesis sees it: embedded (PGlite in memory, in-memory bus), one admin key, no rate limits, quiet
 * logs, and signed audit checkpoints every few seconds (with a throwaway key) so that the checkpoint routes have data.
 */
export async function startFuzzTarget(dataDir = 'schemathesis'): Promise<RunningSystem> {
  return startSystem({
    ...quietHostConfig({ DATA_DIR: `memory://${dataDir}`, LOG_LEVEL: process.env.LOG_LEVEL || process.env.TEST_LOG_LEVEL || 'silent' }),
    DSAR_API_KEYS: apiKeyListSchema.parse([{ token: FUZZ_ADMIN_TOKEN, tenantId: 'schemathesis', roles: ['admin'] }]),
    RATE_LIMIT_PER_MINUTE: 0,
    // A fuzzer presents many wrong delivery tokens: the refusal budget's 429 is not what it tests.
    DOWNLOAD_REFUSALS_PER_HOUR: 1000,
    AUDIT_CHECKPOINT_INTERVAL_MS: 5_000,
    AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
}

export interface SchemathesisResult {
  exitCode: number;
  output: string;
  args: string[];
}

/**
 * Runs `schemathesis run` against the gateway of `system`. Asynchronous on purpose: the system answers from this
 * same process, so the event loop must keep running while the CLI works.
 */
export function runSchemathesis(gatewayUrl: string, settings: SchemathesisSettings, onOutput?: (chunk: string) => void): Promise<SchemathesisResult> {
  const args = [
    'run',
    `${gatewayUrl}/api/v1/openapi.json`,
    '--checks',
    'all',
    '--phases',
    settings.phases,
    '--max-examples',
    String(settings.maxExamples),
    '--seed',
    String(settings.seed),
    '--max-time',
    String(settings.maxTimeSeconds),
    '--workers',
    String(settings.workers),
    '--request-timeout',
    '30',
    '--wait-for-schema',
    '30',
    '--report',
    'junit',
    '--report-dir',
    settings.reportDir,
    ...settings.extraArgs,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(ROOT, 'tools/scripts/schemathesis.sh'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        NO_COLOR: '1',
        SCHEMATHESIS_TELEMETRY: 'false',
        PYTHONUNBUFFERED: '1',
        COLUMNS: '160',
        // The bearer token of tools/scripts/schemathesis.toml (the schema's bearerAuth scheme).
        SCHEMATHESIS_TOKEN: FUZZ_ADMIN_TOKEN,
        // A fresh Idempotency-Key per call, as a client sends one (see the file).
        SCHEMATHESIS_HOOKS: path.join(ROOT, 'tools/scripts/schemathesis-hooks.py'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      onOutput?.(text);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ exitCode: code ?? (signal ? 128 : 1), output, args }));
  });
}

/** Schemathesis' failures and summary (what a failing test shows): from its FAILURES section on, long lines cut. */
export function summaryOf(output: string, maxChars = 60_000): string {
  const start = output.search(/^={3,} (FAILURES|ERRORS|SUMMARY)/m);
  const lines = (start >= 0 ? output.slice(start) : output).split('\n').map((l) => (l.length > 400 ? `${l.slice(0, 400)}…` : l));
  const text = lines.join('\n');
  return text.length > maxChars ? `${text.slice(0, maxChars / 2)}\n…\n${text.slice(text.length - maxChars / 2)}` : text;
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort, waitFor } from '@dsar/platform/testing';
import { DSAR_BIN } from './e2e/cli-process';

/**
 * A new user's first start (issue [first-day]): `npm start` as a process on a fresh DATA_DIR, with its defaults. It
 * prints a short, readable start with two development keys; the README's walkthrough, run as written against it, takes
 * one access request from intake to the data subject's download; LOG_FORMAT=json still gives the JSON lines.
 */
const root = path.resolve(__dirname, '../../..');
/** The address the README's walkthrough sets, replaced by the test system's. */
const README_URL = 'http://127.0.0.1:8080';
/** Spawned processes on a busy 2-core machine: the start, and the walkthrough's two dozen commands. */
const START_TIMEOUT_MS = 90_000;

/** Settings a developer's shell may hold that would change what a new user sees: left unset (an empty value is unset). */
const UNSET = Object.fromEntries(
  ['DSAR_API_KEYS', 'AUTH_JWT_SECRET', 'AUTH_JWKS_URL', 'LOG_FORMAT', 'LOG_LEVEL', 'HOST', 'DB_DRIVER', 'BUS_DRIVER', 'DSAR_TOKEN', 'DSAR_BASE_URL', 'NODE_OPTIONS'].map((k) => [k, '']),
);

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** What `npm start` runs, started directly so that signals reach the process itself. */
function startEmbedded(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/embedded/src/main.ts'], { cwd: root, env: { ...process.env, ...UNSET, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function stop(started: Started | undefined): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  started.child.kill('SIGTERM');
  await started.exited;
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

/** Ready, and the banner printed to its last line (the reviewer key, or the listening line when there is no key). */
async function startedAndReady(started: Started, url: string, lastBannerLine: string): Promise<void> {
  await waitFor('the embedded system to be ready and print its banner', async () => (await ready(url)) && started.stdout().includes(lastBannerLine), {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 200,
  });
}

/** The README's walkthrough: the bash blocks marked `<!-- walkthrough -->`, in order. */
function walkthroughBlocks(readme: string): string[] {
  const blocks: string[] = [];
  const marker = '<!-- walkthrough -->\n```bash\n';
  for (let at = readme.indexOf(marker); at >= 0; at = readme.indexOf(marker, at + marker.length)) {
    const start = at + marker.length;
    const end = readme.indexOf('\n```', start);
    if (end < 0) throw new Error('an unclosed walkthrough block in README.md');
    blocks.push(readme.slice(start, end + 1));
  }
  return blocks;
}

function runBash(script: string, cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, LANG: 'C.UTF-8' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a first start of npm start, as the README tells it', () => {
  let work: string;
  let url: string;
  let app: Started | undefined;

  beforeAll(async () => {
    // The walkthrough runs "in the repository's directory": here a directory of its own whose .data is DATA_DIR.
    work = await mkdtemp(path.join(tmpdir(), 'dsar-first-start-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    app = startEmbedded({ PORT: String(port), DATA_DIR: path.join(work, '.data') });
    await startedAndReady(app, url, 'Authorization: Bearer dsar_reviewer_');
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await stop(app);
    await rm(work, { recursive: true, force: true });
  }, 60_000);

  it('prints a short, readable start: the banner with both development keys, no JSON log lines', async () => {
    const lines = app!.stdout().split('\n').filter(Boolean);
    expect(lines.length).toBeLessThan(20);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    const admin = (await readFile(path.join(work, '.data/dev-token'), 'utf8')).trim();
    const reviewer = (await readFile(path.join(work, '.data/reviewer-token'), 'utf8')).trim();
    expect(admin).not.toBe(reviewer);
    expect(lines).toContain(`  Authorization: Bearer ${admin}`);
    expect(lines).toContain(`  Authorization: Bearer ${reviewer}`);
    expect(lines.some((line) => line.startsWith('Development reviewer key for tenant "default", role operator') && line.includes('reviewer-token'))).toBe(true);
    expect(app!.stderr()).toBe('');
  });

  it('runs the README walkthrough as written: one access request from intake to the subject downloading the uploaded bytes', async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const blocks = walkthroughBlocks(readme);
    // The setup, intake, verification, fulfilment (with the reviewer's key) and delivery.
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const all = blocks.join('\n');
    expect(all).toContain(`export DSAR_URL=${README_URL}`);
    expect(all).toContain('--token "$REVIEWER_TOKEN"');
    expect(all).not.toContain('curl -F');
    // The only substitutions: the test system's address, and `npx dsar` as the package's bin (cli.e2e-spec.ts checks that npx runs it).
    const script = [
      'set -euo pipefail',
      `npx() { if [ "$1" = dsar ]; then shift; node ${JSON.stringify(DSAR_BIN)} "$@"; else echo "npx $1: not in the walkthrough" >&2; return 127; fi; }`,
      ...blocks.map((block, i) => `echo "walkthrough: block ${i + 1} of ${blocks.length}"\n${block.split(README_URL).join(url)}`),
      'echo "walkthrough: done"',
    ].join('\n');
    const run = await runBash(script, work, 240_000);
    if (run.code !== 0 || !run.output.includes('walkthrough: done')) throw new Error(`the README walkthrough stopped (exit ${run.code}):\n${run.output}`);
    // Every dsar command succeeded (exit 0 under set -e) and said so; curl --fail-with-body failed on any 4xx or 5xx.
    expect(run.output).not.toMatch(/^ {2}"ok": false/m);
    expect(run.output).toContain('The person has their data.');
    const uploaded = await readFile(path.join(work, 'export.csv'));
    expect(uploaded.length).toBeGreaterThan(0);
    expect(await readFile(path.join(work, 'my-data.csv'))).toEqual(uploaded);
    // The manifest was approved by the reviewer key, another principal than the admin key that uploaded it.
    const token = (await readFile(path.join(work, '.data/dev-token'), 'utf8')).trim();
    const list = (await (await fetch(`${url}/api/v1/requests?limit=5`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { id: string; status: string }[] };
    expect(list.items).toHaveLength(1);
    const manifest = (await (await fetch(`${url}/api/v1/requests/${list.items[0].id}/manifest`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      validationState: string;
      review: { by: string; action: string } | null;
      artifacts: { createdBy: string }[];
    };
    expect(manifest.validationState).toBe('approved');
    expect(manifest.review).toMatchObject({ action: 'approved', by: expect.stringMatching(/^key:/) });
    expect(manifest.review?.by).not.toBe(manifest.artifacts[0].createdBy);
  }, 300_000);
});

describe('the log format of npm start', () => {
  it(
    'LOG_FORMAT=json gives the JSON lines of the service processes, at info',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-json-logs-'));
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const app = startEmbedded({ PORT: String(port), DATA_DIR: dataDir, LOG_FORMAT: 'json' });
      try {
        await startedAndReady(app, url, 'Authorization: Bearer dsar_reviewer_');
        const json = app
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { level: number; service: string; msg: string });
        expect(json.length).toBeGreaterThan(20);
        expect(json.every((record) => typeof record.level === 'number' && record.service === 'dsar')).toBe(true);
        expect(json.some((record) => record.level === 30)).toBe(true);
      } finally {
        await stop(app);
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS + 60_000,
  );

  it(
    'with authentication configured makes no development key and names the dev-token and reviewer-token files left in DATA_DIR',
    async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-leftover-keys-'));
      const leftover = 'dsar_reviewer_a-key-from-a-start-without-authentication';
      await writeFile(path.join(dataDir, 'dev-token'), 'dsar_dev_a-key-from-a-start-without-authentication\n', { mode: 0o600 });
      await writeFile(path.join(dataDir, 'reviewer-token'), `${leftover}\n`, { mode: 0o600 });
      const configured = 'configured-operator-key-0123456789abcdef';
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const app = startEmbedded({ PORT: String(port), DATA_DIR: dataDir, DSAR_API_KEYS: JSON.stringify([{ token: configured, tenantId: 'default', roles: ['operator'] }]) });
      try {
        await startedAndReady(app, url, 'Listening on 127.0.0.1');
        await waitFor('the warnings', () => app.stderr().includes('reviewer-token is not accepted'), { timeoutMs: 10_000 });
        expect(app.stderr()).toContain(`warning: ${dataDir}/dev-token is not accepted: DSAR_API_KEYS is set`);
        expect(app.stderr()).toContain(`warning: ${dataDir}/reviewer-token is not accepted: DSAR_API_KEYS is set, so the development key in that file answers 401.`);
        expect(app.stdout()).not.toContain('Authorization: Bearer');
        const status = async (token: string) => (await fetch(`${url}/api/v1/requests`, { headers: { authorization: `Bearer ${token}` } })).status;
        expect(await status(leftover)).toBe(401);
        expect(await status(configured)).toBe(200);
        expect((await readFile(path.join(dataDir, 'reviewer-token'), 'utf8')).trim()).toBe(leftover);
      } finally {
        await stop(app);
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS + 60_000,
  );
});

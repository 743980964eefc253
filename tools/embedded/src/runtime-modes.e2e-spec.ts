import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '@dsar/platform/testing';

/**
 * The two runtime modes as a user starts them: the real commands, real
 * processes, the real HTTP surface.
 */
const root = path.resolve(__dirname, '../../..');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function launch(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The development admin key the runner made in DATA_DIR/dev-token. */
async function devToken(dataDir: string): Promise<string> {
  return (await readFile(path.join(dataDir, 'dev-token'), 'utf8')).trim();
}

async function api(base: string, method: string, apiPath: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/api/v1${apiPath}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * One request through the public API: captured (intake-gateway, then
 * lifecycle-clock for the legal deadline), read back from its owner. France,
 * access: one month from the provenance time, to the end of that day in Paris
 * (CEST). Returns the request's id.
 */
async function captureAndRead(base: string, token: string): Promise<string> {
  const created = await api(base, 'POST', '/requests/capture', token, {
    jurisdiction: 'FR',
    requestType: 'access',
    intakeSource: { channel: 'email', rawText: "Je demande l'accès à mes données.", receivedAt: '2026-05-04T09:00:00Z' },
  });
  expect(created.status).toBe(202);
  expect(created.body).toEqual(expect.objectContaining({ id: expect.any(String), status: 'received', dueAt: '2026-06-04T21:59:59.999Z' }));
  const id = String(created.body.id);
  const read = await api(base, 'GET', `/requests/${id}`, token);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(expect.objectContaining({ id, status: 'received', requestType: 'access', jurisdiction: 'FR', dueAt: '2026-06-04T21:59:59.999Z' }));
  return id;
}

async function readiness(url: string): Promise<{ status: number; body: { checks?: Record<string, string> } } | undefined> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) });
    return { status: res.status, body: (await res.json()) as { checks?: Record<string, string> } };
  } catch {
    return undefined;
  }
}

describe('embedded mode (npm start)', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-start-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  // What `npm start` runs, started directly so that signals reach the process itself.
  const start = () => launch(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/embedded/src/main.ts'], { PORT: '18080', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DB_DRIVER: '', BUS_DRIVER: '' });

  it('is ready within 20 s, stops on SIGTERM, and is ready again on the same data', async () => {
    for (const round of ['first start', 'restart']) {
      const app = start();
      try {
        const ready = await waitFor(
          `readiness (${round})`,
          async () => {
            const r = await readiness('http://127.0.0.1:18080');
            return r?.status === 200 ? r : undefined;
          },
          { timeoutMs: 20000, intervalMs: 200 },
        );
        expect(Object.keys(ready.body.checks ?? {})).toHaveLength(7);
        expect(Object.values(ready.body.checks ?? {}).every((s) => s === 'up')).toBe(true);
        if (round === 'first start') {
          // No authentication configured: the runner made a development key, printed it, and the API takes it.
          await waitFor('the runner to print the development key', () => app.output().includes('Authorization: Bearer'));
          const token = await devToken(dataDir);
          expect(app.output()).toContain(`Authorization: Bearer ${token}`);
          await captureAndRead('http://127.0.0.1:18080', token);
          // HOST left unset: bound to the loopback interface only, and the banner (from the bound address) says so.
          expect(app.output()).toContain('Listening on 127.0.0.1:18080: this machine only');
        }
      } finally {
        app.child.kill('SIGTERM');
      }
      expect(await app.exited).toBe(0);
    }
    // The embedded database lives under DATA_DIR and was reused, not recreated.
    expect(await readdir(path.join(dataDir, 'pg'))).toContain('PG_VERSION');
  });

  it('with HOST=0.0.0.0 listens on every interface; with DSAR_API_KEYS set it names the dev-token left in DATA_DIR, whose key answers 401', async () => {
    const ownDataDir = await mkdtemp(path.join(tmpdir(), 'dsar-start-keys-'));
    const leftover = 'dsar_dev_a-key-from-a-start-without-authentication';
    await writeFile(path.join(ownDataDir, 'dev-token'), `${leftover}\n`, { mode: 0o600 });
    const configured = 'configured-admin-key-0123456789abcdef';
    const app = launch(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/embedded/src/main.ts'], {
      PORT: '18081',
      HOST: '0.0.0.0',
      DATA_DIR: ownDataDir,
      LOG_LEVEL: 'warn',
      DB_DRIVER: '',
      BUS_DRIVER: '',
      DSAR_API_KEYS: JSON.stringify([{ token: configured, tenantId: 'default', roles: ['admin'] }]),
    });
    try {
      await waitFor('the runner to print its banner', () => app.output().includes('Listening on'), { timeoutMs: 20000, intervalMs: 200 });
      expect(app.output()).toContain('Listening on every interface (0.0.0.0:18081): other machines can reach it.');
      expect(app.output()).toContain(`warning: ${ownDataDir}/dev-token is not accepted: DSAR_API_KEYS is set, so the development key in that file answers 401.`);
      expect(app.output()).not.toContain('Authorization: Bearer');
      const base = 'http://127.0.0.1:18081';
      expect((await api(base, 'GET', '/requests', leftover)).status).toBe(401);
      expect((await api(base, 'GET', '/requests', configured)).status).toBe(200);
      // Named, not removed: the operator decides.
      expect(await devToken(ownDataDir)).toBe(leftover);
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
      await rm(ownDataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start on bad configuration and lists every problem', async () => {
    const app = launch('npm', ['start', '--silent'], { PORT: 'eighty', DB_DRIVER: 'postgres', DATABASE_URL: '', DATA_DIR: dataDir });
    const code = await app.exited;
    expect(code).not.toBe(0);
    expect(app.output()).toContain('PORT');
    expect(app.output()).toContain('DATABASE_URL: required when DB_DRIVER=postgres');
  });
});

describe('distributed mode (npm run start:distributed)', () => {
  it('starts the eight services as processes against PostgreSQL and Kafka; the gateway sees them all ready', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-dist-'));
    // What `npm run start:distributed` runs, started directly so that SIGTERM reaches the runner.
    const app = launch('bash', ['tools/scripts/start-distributed.sh'], { DATA_DIR: dataDir, PORT: '18090', LOG_LEVEL: 'warn' });
    try {
      const ready = await waitFor(
        'the distributed gateway to be ready',
        async () => {
          const r = await readiness('http://127.0.0.1:18090');
          return r?.status === 200 ? r : undefined;
        },
        { timeoutMs: 150000, intervalMs: 500 },
      );
      expect(Object.values(ready.body.checks ?? {})).toEqual(Array(7).fill('up'));
      for (const port of [3001, 3002, 3003, 3004, 3005, 3006, 3007]) {
        const r = await readiness(`http://127.0.0.1:${port}`);
        expect(r?.body.checks).toEqual({ database: 'up', bus: 'up' });
      }
      await waitFor('the runner to report the running system', () => app.output().includes('running in distributed mode'));

      // No authentication was configured: the gateway took the development key of DATA_DIR, and the runner printed it.
      const token = await devToken(dataDir);
      await waitFor('the runner to print the development key', () => app.output().includes('Authorization: Bearer'));
      expect(app.output()).toContain(`${dataDir}/dev-token`);
      expect(app.output()).toContain(`Authorization: Bearer ${token}`);
      const base = 'http://127.0.0.1:18090';
      expect((await api(base, 'GET', '/requests')).status).toBe(401);
      expect((await api(base, 'GET', '/requests', 'not-the-development-key-at-all-000')).status).toBe(401);

      // One request across the processes: gateway -> intake-gateway -> lifecycle-clock (HTTP), then
      // lifecycle-clock's outbox -> Kafka -> audit-ledger, whose timeline the gateway reads.
      const id = await captureAndRead(base, token);
      const timeline = await api(base, 'GET', `/requests/${id}/timeline`, token);
      expect(timeline.status).toBe(200);
      expect(timeline.body.requestId).toBe(id);
      const events = timeline.body.events as Array<{ eventType: string }>;
      expect(events[0]?.eventType).toBe('request_created');
      expect((await api(base, 'GET', `/requests/${id}`)).status).toBe(401);
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
    // Every service process went away with the runner.
    await waitFor('the services to stop', async () => (await readiness('http://127.0.0.1:3002')) === undefined, { timeoutMs: 30000 });
  });
});

describe('migrations (npm run migrate)', () => {
  it('applies every service schema on an embedded database and exits, and finds nothing pending the second time', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-migrate-'));
    try {
      for (const round of ['first', 'second']) {
        const run = launch('npm', ['run', '--silent', 'migrate'], { DB_DRIVER: 'pglite', DATA_DIR: dataDir });
        // The embedded database outlives its DataSources: a run that leaves it open never ends.
        const code = await Promise.race([run.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 90_000))]);
        if (code === 'running') run.child.kill('SIGKILL');
        expect({ round, code }).toEqual({ round, code: 0 });
        expect(run.output()).toMatch(/lifecycle-clock: schema lifecycle_clock up to date \(\d+ migrations applied\)/);
        expect(run.output().match(/up to date/g)).toHaveLength(7);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
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
  const start = () =>
    launch(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/embedded/src/main.ts'], { PORT: '18080', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DB_DRIVER: '', BUS_DRIVER: '' });

  it('is ready within 20 s, stops on SIGTERM, and is ready again on the same data', async () => {
    for (const round of ['first start', 'restart']) {
      const app = start();
      try {
        const ready = await waitFor(`readiness (${round})`, async () => {
          const r = await readiness('http://127.0.0.1:18080');
          return r?.status === 200 ? r : undefined;
        }, { timeoutMs: 20000, intervalMs: 200 });
        expect(Object.keys(ready.body.checks ?? {})).toHaveLength(7);
        expect(Object.values(ready.body.checks ?? {}).every((s) => s === 'up')).toBe(true);
      } finally {
        app.child.kill('SIGTERM');
      }
      expect(await app.exited).toBe(0);
    }
    // The embedded database lives under DATA_DIR and was reused, not recreated.
    expect(await readdir(path.join(dataDir, 'pg'))).toContain('PG_VERSION');
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
      const ready = await waitFor('the distributed gateway to be ready', async () => {
        const r = await readiness('http://127.0.0.1:18090');
        return r?.status === 200 ? r : undefined;
      }, { timeoutMs: 150000, intervalMs: 500 });
      expect(Object.values(ready.body.checks ?? {})).toEqual(Array(7).fill('up'));
      for (const port of [3001, 3002, 3003, 3004, 3005, 3006, 3007]) {
        const r = await readiness(`http://127.0.0.1:${port}`);
        expect(r?.body.checks).toEqual({ database: 'up', bus: 'up' });
      }
      await waitFor('the runner to report the running system', () => app.output().includes('running in distributed mode'));
    } finally {
      app.child.kill('SIGTERM');
      await app.exited;
      await rm(dataDir, { recursive: true, force: true });
    }
    // Every service process went away with the runner.
    await waitFor('the services to stop', async () => (await readiness('http://127.0.0.1:3002')) === undefined, { timeoutMs: 30000 });
  });
});

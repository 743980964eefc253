import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { Pool } from 'pg';

/**
 * The floor of the intake and reads benchmarks: a bare Node http server, run as its own process
 * (`node tools/scripts/run-ts.cjs tools/bench/harness/floor-server.ts`), that does per request the least the
 * product's route must do:
 *
 *   POST /requests     parses the JSON body and does one INSERT (uuid, tenant, jsonb, timestamptz), answers 202 {id};
 *   GET /requests/:id  reads that one row, answers 200 with it (404 when there is none).
 *
 * FLOOR_DRIVER=pg: `pg`, a pool of 10, on FLOOR_DATABASE_URL (the PostgreSQL the distributed system uses);
 * FLOOR_DRIVER=pglite: PGlite on disk under FLOOR_DATA_DIR (as embedded mode keeps its database), one session.
 * The table is bench_floor.requests. No authentication, no validation, no logging: a floor.
 * Prints `floor ready on <url>` once it listens on 127.0.0.1:PORT.
 */

interface Db {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

async function open(): Promise<Db> {
  if (process.env.FLOOR_DRIVER === 'pglite') {
    const dataDir = process.env.FLOOR_DATA_DIR;
    if (!dataDir) throw new Error('FLOOR_DATA_DIR is required with FLOOR_DRIVER=pglite');
    const db = await PGlite.create({ dataDir });
    return { query: async (sql, params) => ({ rows: (await db.query<Record<string, unknown>>(sql, params)).rows }) };
  }
  const url = process.env.FLOOR_DATABASE_URL;
  if (!url) throw new Error('FLOOR_DATABASE_URL is required with FLOOR_DRIVER=pg');
  const pool = new Pool({ connectionString: url, max: 10, application_name: 'dsar-bench-floor' });
  return { query: (sql, params) => pool.query(sql, params) };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

async function main(): Promise<void> {
  const db = await open();
  await db.query('CREATE SCHEMA IF NOT EXISTS bench_floor');
  await db.query(`CREATE TABLE IF NOT EXISTS bench_floor.requests (
    id uuid PRIMARY KEY, tenant_id text NOT NULL, body jsonb NOT NULL, received_at timestamptz NOT NULL)`);

  const server = createServer((req, res) => {
    const handle = async (): Promise<void> => {
      const tenant = String(req.headers['x-tenant-id'] ?? 'bench');
      if (req.method === 'POST' && req.url === '/requests') {
        const parsed: unknown = JSON.parse(await readBody(req));
        const id = randomUUID();
        await db.query('INSERT INTO bench_floor.requests (id, tenant_id, body, received_at) VALUES ($1, $2, $3, $4)', [id, tenant, JSON.stringify(parsed), new Date()]);
        return send(res, 202, { id });
      }
      const byId = req.method === 'GET' ? /^\/requests\/([0-9a-f-]{36})$/.exec(req.url ?? '') : null;
      if (byId) {
        const { rows } = await db.query('SELECT id, tenant_id, body, received_at FROM bench_floor.requests WHERE id = $1 AND tenant_id = $2', [byId[1], tenant]);
        return rows.length ? send(res, 200, rows[0]) : send(res, 404, { error: 'not found' });
      }
      if (req.method === 'GET' && req.url === '/health/ready') return send(res, 200, { status: 'ok' });
      send(res, 404, { error: 'no such route' });
    };
    handle().catch((e: unknown) => send(res, 500, { error: String(e) }));
  });
  server.keepAliveTimeout = 60_000;
  const port = Number(process.env.PORT ?? 0);
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stdout.write(`floor ready on http://127.0.0.1:${actual}\n`);
  });
  const stop = (): void => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

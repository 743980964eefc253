import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { TaskEventTypes } from '@dsar/contracts';
import { type Connector, type Logger, messageFeed, offerOf, pullFeed, runConnector, type TaskHandler, TaskError } from './index';

/**
 * The runner against a small stand-in of the task routes (the real ones are proven end to end in
 * tools/embedded/src/data-systems.e2e-spec.ts): what it claims, heartbeats, uploads and answers, and how it
 * behaves when the service refuses or fails.
 */

interface FakeTask {
  id: string;
  state: 'queued' | 'claimed' | 'answered';
  token?: string;
  answer?: unknown;
  attempts: number;
}

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

class FakeService {
  readonly tasks = new Map<string, FakeTask>();
  readonly calls: Seen[] = [];
  /** Answers to give instead of the normal one, consumed in order, per `METHOD /path-kind`. */
  readonly failures = new Map<string, Array<{ status: number; name?: string }>>();
  private server!: Server;
  url = '';

  add(state: FakeTask['state'] = 'queued'): FakeTask {
    const task: FakeTask = { id: randomUUID(), state, attempts: 0 };
    this.tasks.set(task.id, task);
    return task;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '';
        this.calls.push({ method: req.method ?? '', path, headers: req.headers, body });
        const send = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': status < 300 ? 'application/json' : 'application/problem+json' });
          res.end(JSON.stringify(json));
        };
        const problem = (status: number, name: string) => send(status, { status, name, code: `SVC-BE-${status}`, title: name });
        const kind = path.replace(/[0-9a-f-]{36}/, ':id').split('?')[0];
        const failure = this.failures.get(`${req.method} ${kind}`)?.shift();
        if (failure) return failure.name ? problem(failure.status, failure.name) : send(failure.status, { oops: true });
        if (req.headers.authorization !== 'Bearer key-1') return problem(401, 'UNAUTHENTICATED');
        if (req.method === 'GET' && kind === '/api/v1/data-systems/crm/tasks') {
          const items = [...this.tasks.values()].filter((t) => t.state === 'queued');
          return send(200, { items: items.map((t) => ({ taskId: t.id, requestId: t.id, action: 'access', dueAt: '2026-06-02T00:00:00.000Z', attempt: t.attempts })) });
        }
        const id = /\/api\/v1\/tasks\/([0-9a-f-]{36})\//.exec(path)?.[1];
        const task = id ? this.tasks.get(id) : undefined;
        if (!task) return problem(404, 'TASK_NOT_FOUND');
        if (kind === '/api/v1/tasks/:id/claim') {
          if (task.state !== 'queued') return problem(409, 'TASK_NOT_CLAIMABLE');
          task.state = 'claimed';
          task.attempts += 1;
          task.token = `dtt_${randomUUID().replace(/-/g, '')}abcdefghijk`;
          return send(200, {
            taskId: task.id,
            requestId: task.id,
            requestType: 'access',
            systemKey: 'crm',
            action: 'access',
            legalDueAt: '2026-07-01T00:00:00.000Z',
            dueAt: '2026-06-02T00:00:00.000Z',
            identities: [{ type: 'email', value: 'jane@example.org' }],
            dataCategories: [],
            attempt: task.attempts,
            leaseExpiresAt: '2026-06-01T00:05:00.000Z',
            token: task.token,
            tokenExpiresAt: '2026-06-08T00:00:00.000Z',
          });
        }
        if (req.headers['x-task-token'] !== task.token) return problem(403, 'TASK_TOKEN_INVALID');
        if (kind === '/api/v1/tasks/:id/heartbeat') return send(200, { taskId: task.id, leaseExpiresAt: '2026-06-01T00:10:00.000Z' });
        if (kind === '/api/v1/tasks/:id/rows' || kind === '/api/v1/tasks/:id/files') return send(202, { taskId: task.id, artifactId: randomUUID(), size: body.length, sha256: 'a'.repeat(64) });
        if (kind === '/api/v1/tasks/:id/answer') {
          task.state = 'answered';
          task.answer = JSON.parse(body.toString());
          return send(200, { id: task.id, state: 'complete' });
        }
        return problem(404, 'ROUTE_NOT_FOUND');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  callsTo(kind: string): Seen[] {
    return this.calls.filter((c) => c.path.replace(/[0-9a-f-]{36}/, ':id').split('?')[0] === kind);
  }
}

/** Collects the log lines, to show that no token reaches them. */
function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('runConnector', () => {
  let service: FakeService;
  let connector: Connector | undefined;
  const fast = { attempts: 3, baseMs: 5, maxMs: 20 };

  beforeEach(async () => {
    service = new FakeService();
    await service.start();
  });
  afterEach(async () => {
    await connector?.stop({ abandon: true });
    connector = undefined;
    await service.close();
  });

  const start = (handler: TaskHandler, extra: Partial<Parameters<typeof runConnector>[0]> = {}) =>
    runConnector({ baseUrl: service.url, apiKey: 'key-1', systemKey: 'crm', worker: 'w-1', feed: pullFeed({ intervalMs: 20 }), handler, backoff: fast, log: capturingLogger(), ...extra });

  it('claims a listed task, uploads rows and a file with the token, and answers; the token reaches no log line', async () => {
    const task = service.add();
    const log = capturingLogger();
    connector = await start(
      async (work, context) => {
        expect(work).not.toHaveProperty('token');
        expect(work.identities).toEqual([{ type: 'email', value: 'jane@example.org' }]);
        await context.uploadRows([{ id: 1 }], 'orders');
        await context.uploadFile('profile.json', 'application/json', Buffer.from('{"a":1}'), { title: 'Profil é' });
        await context.uploadFile('stream.txt', 'text/plain', () => Readable.from(['a', 'b']));
        return { outcome: 'complete', note: 'found' };
      },
      { log },
    );
    await until(() => connector!.stats.answered.complete === 1);
    expect(task.answer).toEqual({ outcome: 'complete', note: 'found' });
    const [claim] = service.callsTo('/api/v1/tasks/:id/claim');
    expect(JSON.parse(claim.body.toString())).toEqual({ worker: 'w-1', leaseSeconds: 300 });
    expect(claim.headers['user-agent']).toMatch(/^dsar-connector-sdk\/\d+\.\d+\.\d+/);
    expect(claim.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const [rows] = service.callsTo('/api/v1/tasks/:id/rows');
    expect(rows.headers['x-task-token']).toBe(task.token);
    expect(JSON.parse(rows.body.toString())).toEqual({ category: 'orders', rows: [{ id: 1 }] });
    const [file, streamed] = service.callsTo('/api/v1/tasks/:id/files');
    expect(file.headers).toMatchObject({ 'x-artifact-filename': 'profile.json', 'x-artifact-title': 'Profil%20%C3%A9', 'content-type': 'application/octet-stream' });
    expect(file.headers['x-content-sha256']).toBe('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862');
    expect(streamed.body.toString()).toBe('ab');
    expect(streamed.headers['x-content-sha256']).toBeUndefined();
    expect(connector.stats).toMatchObject({ claimed: 1, answered: { complete: 1 }, failed: 0 });
    expect(log.lines.join('\n')).not.toContain(task.token!);
  });

  it('passes over a task another instance holds (409 TASK_NOT_CLAIMABLE) without calling the handler', async () => {
    const held = service.add('claimed');
    const handler = jest.fn();
    connector = await runConnector({
      baseUrl: service.url,
      apiKey: 'key-1',
      systemKey: 'crm',
      handler,
      backoff: fast,
      log: capturingLogger(),
      feed: messageFeed({
        tenantId: 't',
        catchUpIntervalMs: false,
        subscribe: async (onMessage) => {
          await onMessage({ key: 't:crm', value: JSON.stringify({ type: TaskEventTypes.requested, tenantid: 't', data: { taskId: held.id, systemKey: 'crm' } }) });
          return { close: async () => undefined };
        },
      }),
    });
    await until(() => connector!.stats.notClaimable === 1);
    expect(handler).not.toHaveBeenCalled();
    expect(held.state).toBe('claimed');
  });

  it('retries a 503 problem and a bare 502 with backoff, with the same idempotency key, and answers once', async () => {
    const task = service.add();
    service.failures.set('POST /api/v1/tasks/:id/claim', [{ status: 503, name: 'SERVICE_UNAVAILABLE' }]);
    service.failures.set('POST /api/v1/tasks/:id/answer', [{ status: 502 }]);
    connector = await start(async () => ({ outcome: 'not_found' }));
    await until(() => task.state === 'answered');
    const answers = service.callsTo('/api/v1/tasks/:id/answer');
    expect(answers).toHaveLength(2);
    expect(answers[0].headers['idempotency-key']).toBe(answers[1].headers['idempotency-key']);
    expect(task.answer).toEqual({ outcome: 'not_found' });
  });

  it('answers a thrown error as retryable, a TaskError as it says, and an answer outside the contract as a fatal error', async () => {
    const [a, b, c] = [service.add(), service.add(), service.add()];
    const answers = new Map<string, () => unknown>([
      [
        a.id,
        () => {
          throw new Error('database unreachable');
        },
      ],
      [
        b.id,
        () => {
          throw new TaskError('legal hold', { retryable: false, code: 'HOLD' });
        },
      ],
      [c.id, () => ({ outcome: 'complete', erasure: { result: 'erased' } })],
    ]);
    connector = await start(async (work) => answers.get(work.taskId)!() as never, { concurrency: 3 });
    await until(() => [a, b, c].every((t) => t.state === 'answered'));
    expect(a.answer).toEqual({ outcome: 'error', retryable: true, message: 'database unreachable' });
    expect(b.answer).toEqual({ outcome: 'error', retryable: false, message: 'legal hold', code: 'HOLD' });
    expect(c.answer).toMatchObject({ outcome: 'error', retryable: false, code: 'CONNECTOR_INVALID_ANSWER', message: expect.stringContaining('erasure.recordsAffected') });
  });

  it('heartbeats while the handler works, and gives the task up without answering when the lease is lost', async () => {
    const task = service.add();
    let sawAbort = false;
    connector = await start(
      async (_work, context) => {
        await until(() => service.callsTo('/api/v1/tasks/:id/heartbeat').length >= 2);
        // Another instance claims it after the lease lapsed: this token is superseded.
        task.token = 'dtt_superseded';
        await until(() => context.signal.aborted);
        sawAbort = true;
        throw new Error('stopped');
      },
      { heartbeatSeconds: 0.05 },
    );
    await until(() => connector!.stats.lost === 1);
    // The handler saw its signal abort (the runner did not wait for it to notice).
    await until(() => sawAbort);
    expect(service.callsTo('/api/v1/tasks/:id/answer')).toHaveLength(0);
    expect(task.state).toBe('claimed');
  });

  it('finishes the task at hand on a graceful stop; abandons it (no answer) on a hard stop, even when its handler never returns', async () => {
    const first = service.add();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    connector = await start(async () => {
      await gate;
      return { outcome: 'not_found' };
    });
    await until(() => first.state === 'claimed');
    const stopping = connector.stop();
    release();
    await stopping;
    expect(first.state).toBe('answered');

    const second = service.add();
    // A handler that never heeds its signal: the hard stop does not wait for it.
    let handling = false;
    connector = await start(() => {
      handling = true;
      return new Promise(() => undefined);
    });
    // Claimed at the service is not yet at hand: the runner has the task once its handler runs.
    await until(() => second.state === 'claimed' && handling);
    await connector.stop({ abandon: true });
    expect(second.state).toBe('claimed');
    expect(connector.stats.abandoned).toBe(1);
    let resolved = false;
    await connector.done.then(() => (resolved = true));
    expect(resolved).toBe(true);
  });
});

describe('offerOf', () => {
  const event = (type: string, data: Record<string, unknown>, tenantid = 't1') => JSON.stringify({ type, tenantid, data });

  it('offers the requested and requeued tasks of its own tenant and system only', () => {
    expect(offerOf({ key: 't1:crm', value: event(TaskEventTypes.requested, { taskId: 'x', systemKey: 'crm' }) }, 't1', 'crm')).toEqual({ taskId: 'x', via: 'requested' });
    expect(offerOf({ key: 't1:crm', value: event(TaskEventTypes.requeued, { taskId: 'x', systemKey: 'crm' }) }, 't1', 'crm')).toEqual({ taskId: 'x', via: 'requeued' });
    expect(offerOf({ key: 't1:crm', value: event(TaskEventTypes.answered, { taskId: 'x', systemKey: 'crm' }) }, 't1', 'crm')).toBeUndefined();
    expect(offerOf({ key: 't2:crm', value: event(TaskEventTypes.requested, { taskId: 'x', systemKey: 'crm' }, 't2') }, 't1', 'crm')).toBeUndefined();
    expect(offerOf({ key: 't1:crm', value: event(TaskEventTypes.requested, { taskId: 'x', systemKey: 'crm' }, 't2') }, 't1', 'crm')).toBeUndefined();
    expect(offerOf({ key: 't1:billing', value: event(TaskEventTypes.requested, { taskId: 'x', systemKey: 'billing' }) }, 't1', 'crm')).toBeUndefined();
    expect(offerOf({ key: 't1:crm', value: 'not json' }, 't1', 'crm')).toBeUndefined();
  });

  it('passes over a task still waiting for the systems it comes after, and offers it once it is queued', () => {
    expect(offerOf({ key: 't1:crm', value: event(TaskEventTypes.requested, { taskId: 'x', systemKey: 'crm', state: 'waiting' }) }, 't1', 'crm')).toBeUndefined();
    expect(offerOf({ key: 't1:crm', value: event(TaskEventTypes.requested, { taskId: 'x', systemKey: 'crm', state: 'queued' }) }, 't1', 'crm')).toEqual({ taskId: 'x', via: 'requested' });
  });
});

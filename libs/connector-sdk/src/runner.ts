import { hostname } from 'node:os';
import { LEASE_SECONDS, TASK_OUTCOMES, type TaskAnswer, taskAnswer, type TaskWork } from '@dsar/contracts';
import type { Backoff } from './backoff';
import type { FeedContext, TaskFeed, TaskOffer } from './feeds';
import { jsonLogger, type Logger } from './logger';
import { TaskApi, TaskApiError, type TaskFileStored, type UploadBody } from './task-api';

/** A claimed task as the handler gets it: the work and the identities, without the token (the context uses it). */
export type Task = Omit<TaskWork, 'token'>;

/** What a handler can do while it works on a task; every call carries the task's token. */
export interface TaskContext {
  /** Aborted when the connector abandons the task (a hard stop) or its lease was lost: stop working, the answer would be refused. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Streams one file into the request's manifest (an access task's answer); bytes given whole are sent with their sha256. */
  uploadFile(filename: string, contentType: string, body: UploadBody, options?: { title?: string }): Promise<TaskFileStored>;
  /** Sends rows (objects) that the service packages into one JSON file of the manifest. */
  uploadRows(rows: Record<string, unknown>[], category?: string): Promise<TaskFileStored>;
  /** Extends the lease now (the runner also does it every `heartbeatSeconds`). */
  heartbeat(): Promise<void>;
}

/** Looks the person up (access) or erases them (erasure) in the system, and says how it went. */
export type TaskHandler = (task: Task, context: TaskContext) => Promise<TaskAnswer> | TaskAnswer;

/**
 * Thrown by a handler for an error with a code of its own, or one that trying again will not mend
 * (`retryable: false`: the task ends in `error` and the systems after it are blocked until an operator acts).
 * Any other exception is answered as a retryable error.
 */
export class TaskError extends Error {
  constructor(
    message: string,
    readonly options: { retryable?: boolean; code?: string } = {},
  ) {
    super(message);
    this.name = 'TaskError';
  }
}

export interface ConnectorOptions {
  /** The API's base URL, as for the CLI (DSAR_BASE_URL): `https://dsar.example.com/api/v1`. */
  baseUrl: string;
  /** An API key of the tenant with `tasks:work` (role `connector`): keep it in a secret store. */
  apiKey: string;
  /** The system this connector answers for, as registered (PUT /data-systems/{systemKey}). */
  systemKey: string;
  /** Who claims, as the task shows it (`claimedBy`): default `<host name>:<process id>`. */
  worker?: string;
  feed: TaskFeed;
  handler: TaskHandler;
  /** The lease asked for on each claim and heartbeat, 10–3600 s (the service caps it at TASK_LEASE_MAX_SECONDS). Default 300. */
  leaseSeconds?: number;
  /** How often the lease is extended while the handler works. Default a third of the lease. */
  heartbeatSeconds?: number;
  /** Tasks worked on at once. Default 1. */
  concurrency?: number;
  /** Tasks offered and not yet taken up, at most; beyond, offers are declined (the service keeps them queued). Default 1000. */
  maxQueued?: number;
  /** Aborting it stops the connector as `stop()` does. */
  signal?: AbortSignal;
  /** How each call is retried on a network failure, a 5xx or a 429. */
  backoff?: Partial<Backoff>;
  log?: Logger;
  /** Added to the User-Agent, e.g. `crm-connector/2.3.0`. */
  userAgent?: string;
}

export interface StopOptions {
  /**
   * Abandon the tasks being worked on instead of finishing them: their handlers' signal aborts and no answer is
   * sent; their leases lapse and the service queues them again. Default false.
   */
  abandon?: boolean;
  /** How long a graceful stop waits for the tasks being worked on before it abandons them. Default 30 000 ms. */
  timeoutMs?: number;
}

/** What the connector did so far. */
export interface ConnectorStats {
  offered: number;
  claimed: number;
  /** Claims refused: another instance holds the task, it is not queued (yet), or it is finished. */
  notClaimable: number;
  answered: Record<TaskAnswer['outcome'], number>;
  /** Claimed tasks whose lease was lost (the token was refused): another instance took them over. */
  lost: number;
  /** Claimed tasks left unanswered by a stop. */
  abandoned: number;
  /** Calls that failed after their retries (the task goes back to the queue when its lease lapses). */
  failed: number;
}

export interface Connector {
  readonly worker: string;
  readonly stats: Readonly<ConnectorStats>;
  /** Resolves once the connector has stopped. */
  readonly done: Promise<void>;
  /** Stops taking tasks, finishes (or abandons) those it works on, and disconnects. */
  stop(options?: StopOptions): Promise<void>;
}

const TOKEN_REFUSED = new Set(['TASK_TOKEN_INVALID', 'TASK_TOKEN_EXPIRED']);
const MAX_ERROR_MESSAGE = 2000;

class LeaseLost extends Error {
  constructor() {
    super('the lease of the task was lost');
  }
}

/**
 * Starts a connector: the feed offers tasks, each is claimed (a refused claim means another instance has it: it is
 * passed over), its lease is kept alive while the handler works, and the handler's outcome is sent as the answer.
 * Resolves once the feed listens.
 */
export async function runConnector(options: ConnectorOptions): Promise<Connector> {
  const log = options.log ?? jsonLogger();
  const api = new TaskApi({ baseUrl: options.baseUrl, apiKey: options.apiKey, backoff: options.backoff, userAgent: options.userAgent });
  const worker = options.worker ?? `${hostname()}:${process.pid}`;
  const leaseSeconds = Math.min(LEASE_SECONDS.max, Math.max(LEASE_SECONDS.min, options.leaseSeconds ?? LEASE_SECONDS.default));
  const heartbeatMs = Math.max(50, (options.heartbeatSeconds ?? leaseSeconds / 3) * 1000);
  const maxQueued = options.maxQueued ?? 1000;
  const stats: ConnectorStats = {
    offered: 0,
    claimed: 0,
    notClaimable: 0,
    answered: Object.fromEntries(TASK_OUTCOMES.map((o) => [o, 0])) as ConnectorStats['answered'],
    lost: 0,
    abandoned: 0,
    failed: 0,
  };

  const queue: string[] = [];
  /** Queued here or being worked on: an offer of one of these is declined. */
  const known = new Set<string>();
  let sleepers: Array<() => void> = [];
  let drainWaiters: Array<() => void> = [];
  let closing = false;
  const feedStop = new AbortController();
  /** Aborted by a hard stop: every task's work, claim and answer. */
  const hardStop = new AbortController();

  const wakeAll = () => {
    const woken = sleepers;
    sleepers = [];
    for (const wake of woken) wake();
  };
  const settleDrain = () => {
    if (known.size > 0 && !closing) return;
    const waiting = drainWaiters;
    drainWaiters = [];
    for (const resolve of waiting) resolve();
  };

  const context: FeedContext = {
    api,
    systemKey: options.systemKey,
    signal: feedStop.signal,
    log,
    offer(task: TaskOffer) {
      if (closing || known.has(task.taskId) || queue.length >= maxQueued) return false;
      known.add(task.taskId);
      queue.push(task.taskId);
      stats.offered += 1;
      log.debug('task offered', { taskId: task.taskId, via: task.via });
      wakeAll();
      return true;
    },
    drained() {
      return new Promise<void>((resolve) => {
        drainWaiters.push(resolve);
        settleDrain();
      });
    },
  };

  /** One task, from its claim to its answer. Never throws: what went wrong is logged and counted. */
  const work = async (taskId: string): Promise<void> => {
    let claimed: TaskWork;
    try {
      claimed = await api.claim(taskId, worker, leaseSeconds, hardStop.signal);
    } catch (e) {
      if (hardStop.signal.aborted) return;
      if (e instanceof TaskApiError && (e.problem === 'TASK_NOT_CLAIMABLE' || e.problem === 'TASK_NOT_FOUND')) {
        stats.notClaimable += 1;
        log.debug('task not claimable: another instance has it, it is not queued, or it is finished', { taskId, problem: e.problem });
        return;
      }
      stats.failed += 1;
      log.warn('claim failed', { taskId, error: (e as Error).message });
      return;
    }
    stats.claimed += 1;
    const { token, ...task } = claimed;
    log.info('task claimed', { taskId, requestId: task.requestId, action: task.action, attempt: task.attempt });

    const lease = new AbortController();
    const signal = AbortSignal.any([lease.signal, hardStop.signal]);
    let beating: Promise<void> | undefined;
    const heartbeat = (): Promise<void> =>
      (beating ??= api
        .heartbeat(taskId, token, leaseSeconds, signal)
        .then(
          () => undefined,
          (e: unknown) => {
            if (signal.aborted) return;
            // Refused: the token was superseded by another claim, or the task was settled meanwhile.
            if (e instanceof TaskApiError && (e.status === 403 || e.status === 404 || e.status === 409)) {
              log.warn('lease lost; the task is abandoned', { taskId, problem: e.problem });
              lease.abort(new LeaseLost());
              return;
            }
            log.warn('heartbeat failed; trying again at the next beat', { taskId, error: (e as Error).message });
          },
        )
        .finally(() => (beating = undefined)));
    const timer = setInterval(() => void heartbeat(), heartbeatMs);

    const taskContext: TaskContext = {
      signal,
      log,
      heartbeat,
      uploadFile: (filename, contentType, body, fileOptions) => api.uploadFile(taskId, token, { filename, contentType, title: fileOptions?.title, body }, signal),
      uploadRows: (rows, category) => api.uploadRows(taskId, token, rows, category, signal),
    };
    let answer: TaskAnswer;
    try {
      // A handler that does not heed its signal is not waited for once it aborts: the stop (or the lost lease) goes on without it.
      answer = checked(await Promise.race([Promise.resolve().then(() => options.handler(task, taskContext)), abortion(signal)]));
    } catch (e) {
      answer = errorAnswer(e);
    } finally {
      clearInterval(timer);
      await beating;
    }
    if (signal.aborted) {
      if (lease.signal.aborted) stats.lost += 1;
      else stats.abandoned += 1;
      log.warn(lease.signal.aborted ? 'task given up: its lease was lost' : 'task abandoned by the stop: its lease will lapse', { taskId });
      return;
    }
    try {
      await api.answer(taskId, token, answer, hardStop.signal);
      stats.answered[answer.outcome] += 1;
      log.info('task answered', { taskId, outcome: answer.outcome });
    } catch (e) {
      if (hardStop.signal.aborted) {
        stats.abandoned += 1;
        return;
      }
      if (e instanceof TaskApiError && e.problem !== undefined && TOKEN_REFUSED.has(e.problem)) {
        stats.lost += 1;
        log.warn('answer refused: the lease was lost to another claim, or the token expired', { taskId, problem: e.problem });
        return;
      }
      stats.failed += 1;
      log.error('answer not recorded', { taskId, error: (e as Error).message });
    }
  };

  const loop = async (): Promise<void> => {
    while (!closing) {
      const taskId = queue.shift();
      if (taskId === undefined) {
        await new Promise<void>((resolve) => sleepers.push(resolve));
        continue;
      }
      try {
        await work(taskId);
      } finally {
        known.delete(taskId);
        settleDrain();
      }
    }
  };

  let stopping: Promise<void> | undefined;
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  const workers: Promise<void>[] = [];

  const stop = (stopOptions: StopOptions = {}): Promise<void> =>
    (stopping ??= (async () => {
      closing = true;
      feedStop.abort();
      for (const id of queue.splice(0)) known.delete(id);
      wakeAll();
      settleDrain();
      await options.feed.stop().catch((e: unknown) => log.warn('the feed did not stop cleanly', { error: (e as Error).message }));
      if (stopOptions.abandon) hardStop.abort();
      const finished = Promise.all(workers);
      let timer: NodeJS.Timeout | undefined;
      const timeoutMs = stopOptions.timeoutMs ?? 30_000;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      if ((await Promise.race([finished, timedOut])) === 'timeout') {
        log.warn(`tasks still being worked on after ${timeoutMs} ms: abandoned`);
        hardStop.abort();
      }
      clearTimeout(timer);
      await finished;
      await api.close();
      log.info('connector stopped', { systemKey: options.systemKey, worker });
      stopped();
    })());

  try {
    await options.feed.start(context);
  } catch (e) {
    closing = true;
    feedStop.abort();
    await api.close();
    throw e;
  }
  for (let i = 0; i < Math.max(1, options.concurrency ?? 1); i++) workers.push(loop());
  if (options.signal) {
    if (options.signal.aborted) void stop();
    else options.signal.addEventListener('abort', () => void stop(), { once: true });
  }
  log.info('connector started', { systemKey: options.systemKey, worker, feed: options.feed.kind });
  return { worker, stats, done, stop };
}

/** Rejects when `signal` aborts (never resolves). */
function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The handler's answer, if it fits the contract; else an error answer saying so (a bug of the connector: not retried). */
function checked(answer: TaskAnswer): TaskAnswer {
  const parsed = taskAnswer.safeParse(answer);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ');
  return { outcome: 'error', retryable: false, code: 'CONNECTOR_INVALID_ANSWER', message: `the connector's answer does not fit the task contract: ${problems}`.slice(0, MAX_ERROR_MESSAGE) };
}

function errorAnswer(e: unknown): TaskAnswer {
  const message = (e instanceof Error ? e.message : String(e)).slice(0, MAX_ERROR_MESSAGE) || 'the connector failed';
  if (e instanceof TaskError) return { outcome: 'error', retryable: e.options.retryable ?? true, message, ...(e.options.code ? { code: e.options.code.slice(0, 100) } : {}) };
  return { outcome: 'error', retryable: true, message };
}

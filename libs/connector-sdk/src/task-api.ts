import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { ARTIFACT_UPLOAD_HEADERS, CONTENT_SHA256_HEADER, pendingTaskList, TASK_TOKEN_HEADER, type TaskAnswer, taskFileStored, taskLease, taskView, type TaskWork, taskWork } from '@dsar/contracts';
import { type Backoff, backoffDelay, DEFAULT_BACKOFF, sleep } from './backoff';
import { SDK_VERSION } from './version';

export type PendingTask = z.infer<typeof pendingTaskList>['items'][number];
export type TaskLease = z.infer<typeof taskLease>;
export type TaskFileStored = z.infer<typeof taskFileStored>;
export type AnsweredTask = z.infer<typeof taskView>;

/** What the API answered when it refused a call: the problem's status, `code` (`SVC-BE-1807`) and `name` (`TASK_NOT_CLAIMABLE`). */
export class TaskApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly problem: string | undefined,
    message: string,
    /** True for a network failure, a 5xx, a 429 or a call still in progress under its idempotency key. */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'TaskApiError';
  }
}

/** The body of a file upload: bytes (sent again on a retry), a function that opens the stream anew on each attempt, or one stream (tried once). */
export type UploadBody = Buffer | string | Readable | (() => Readable);

export interface TaskApiOptions {
  /** The API's base URL, as for the CLI (DSAR_BASE_URL): `https://dsar.example.com/api/v1`; a bare origin gets `/api/v1`. */
  baseUrl: string;
  /** An API key of the tenant with `tasks:work` (role `connector`). */
  apiKey: string;
  /** How calls are retried on a network failure, a 5xx or a 429. */
  backoff?: Partial<Backoff>;
  /** The deadline of one short call (not of an upload), in ms. Default 30 000. */
  timeoutMs?: number;
  /** Added to the User-Agent, e.g. `crm-connector/2.3.0`. */
  userAgent?: string;
}

interface Call {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  json?: unknown;
  headers?: Record<string, string>;
  upload?: UploadBody;
  signal?: AbortSignal;
}

const IN_PROGRESS = 'SVC-BE-1107'; // IDEMPOTENCY_REQUEST_IN_PROGRESS: the first call under the key still runs
const MAX_PROBLEM_TEXT = 300;

/**
 * The task routes of the DSAR API, one method per route, each retried with backoff where a retry is safe. Every
 * POST carries an Idempotency-Key that its retries repeat, so an upload or an answer that reached the service
 * before the connection broke is not recorded twice. Calls go through undici's `request` (a dependency of Node's
 * own fetch): its Node streams send an upload as it is read, never held whole. The task token goes in its header
 * and nowhere else: it is in no error message.
 */
export class TaskApi {
  private readonly baseUrl: string;
  private readonly backoff: Backoff;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: TaskApiOptions) {
    const url = new URL(options.baseUrl);
    if (url.pathname === '/' || url.pathname === '') url.pathname = '/api/v1';
    this.baseUrl = url.toString().replace(/\/+$/, '');
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.userAgent = `dsar-connector-sdk/${SDK_VERSION}${options.userAgent ? ` ${options.userAgent}` : ''}`;
    // Uploads may take long: no deadline on the answer's headers (it comes once the file is in); 60 s without a byte moving ends a call.
    this.dispatcher = new Agent({ keepAliveTimeout: 10_000, headersTimeout: 0, bodyTimeout: 60_000 });
  }

  /** GET /data-systems/{systemKey}/tasks: the system's queued tasks (and those whose lease lapsed), oldest first. */
  async listPending(systemKey: string, limit = 20, signal?: AbortSignal): Promise<PendingTask[]> {
    const body = await this.json({ method: 'GET', path: `/data-systems/${encodeURIComponent(systemKey)}/tasks?limit=${limit}`, signal });
    return pendingTaskList.parse(body).items;
  }

  /** POST /tasks/{id}/claim: the work, its identities and a new token (the previous claim's token stops working). */
  async claim(taskId: string, worker: string, leaseSeconds?: number, signal?: AbortSignal): Promise<TaskWork> {
    const body = await this.json({ method: 'POST', path: `/tasks/${encodeURIComponent(taskId)}/claim`, json: { worker, ...(leaseSeconds ? { leaseSeconds } : {}) }, signal });
    return taskWork.parse(body);
  }

  /** POST /tasks/{id}/heartbeat: extends the lease. */
  async heartbeat(taskId: string, token: string, leaseSeconds?: number, signal?: AbortSignal): Promise<TaskLease> {
    const body = await this.json({ method: 'POST', path: `/tasks/${encodeURIComponent(taskId)}/heartbeat`, token, json: leaseSeconds ? { leaseSeconds } : {}, signal });
    return taskLease.parse(body);
  }

  /** POST /tasks/{id}/rows: rows packaged by the service into one JSON file of the request's manifest. */
  async uploadRows(taskId: string, token: string, rows: Record<string, unknown>[], category?: string, signal?: AbortSignal): Promise<TaskFileStored> {
    const body = await this.json({ method: 'POST', path: `/tasks/${encodeURIComponent(taskId)}/rows`, token, json: { ...(category ? { category } : {}), rows }, signal });
    return taskFileStored.parse(body);
  }

  /** POST /tasks/{id}/files: one file, streamed into the service's encrypted storage; bytes given whole also carry their sha256. */
  async uploadFile(taskId: string, token: string, file: { filename: string; contentType: string; title?: string; body: UploadBody }, signal?: AbortSignal): Promise<TaskFileStored> {
    const headers: Record<string, string> = {
      [ARTIFACT_UPLOAD_HEADERS.filename]: encodeURIComponent(file.filename),
      [ARTIFACT_UPLOAD_HEADERS.contentType]: file.contentType,
      ...(file.title ? { [ARTIFACT_UPLOAD_HEADERS.title]: encodeURIComponent(file.title) } : {}),
    };
    if (typeof file.body === 'string' || Buffer.isBuffer(file.body)) headers[CONTENT_SHA256_HEADER] = createHash('sha256').update(file.body).digest('hex');
    const body = await this.json({ method: 'POST', path: `/tasks/${encodeURIComponent(taskId)}/files`, token, headers, upload: file.body, signal });
    return taskFileStored.parse(body);
  }

  /**
   * POST /tasks/{id}/answer: settles the task; the same answer again answers the same (a retry is safe). Its answer,
   * the task as operators see it, is read leniently: the answer is recorded by then, and a newer server's view must
   * not turn it into a failure that would be retried.
   */
  async answer(taskId: string, token: string, answer: TaskAnswer, signal?: AbortSignal): Promise<Partial<AnsweredTask>> {
    const body = await this.json({ method: 'POST', path: `/tasks/${encodeURIComponent(taskId)}/answer`, token, json: answer, signal });
    const parsed = taskView.safeParse(body);
    return parsed.success ? parsed.data : ((body ?? {}) as Partial<AnsweredTask>);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** One call, tried again with backoff while the failure is retryable and attempts are left; its JSON answer. */
  private async json(call: Call): Promise<unknown> {
    const key = call.method === 'POST' ? randomUUID() : undefined;
    // A stream given as is can be read once: its call is tried once.
    const attempts = call.upload instanceof Readable ? 1 : this.backoff.attempts;
    for (let attempt = 1; ; attempt++) {
      let failure: TaskApiError;
      let retryAfterMs: number | undefined;
      try {
        const res = await this.exchange(call, key);
        const text = await res.body.text();
        if (res.statusCode < 300) return text === '' ? null : (JSON.parse(text) as unknown);
        failure = problemOf(call, res.statusCode, text);
        const after = Number(res.headers['retry-after']);
        if (Number.isFinite(after) && after > 0) retryAfterMs = Math.min(after, 30) * 1000;
      } catch (e) {
        if (call.signal?.aborted) throw e;
        failure = new TaskApiError(0, undefined, undefined, `${call.method} ${pathOnly(call.path)} failed: ${networkCause(e)}`, true);
      }
      if (!failure.retryable || attempt >= attempts) throw failure;
      await sleep(retryAfterMs ?? backoffDelay(this.backoff, attempt), call.signal);
    }
  }

  private exchange(call: Call, key: string | undefined): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json', 'user-agent': this.userAgent, ...call.headers };
    if (key) headers['idempotency-key'] = key;
    if (call.token) headers[TASK_TOKEN_HEADER] = call.token;
    let body: string | Buffer | Readable | undefined;
    if (call.upload !== undefined) {
      body = typeof call.upload === 'function' ? call.upload() : call.upload;
      headers['content-type'] = 'application/octet-stream';
      if (!(body instanceof Readable)) headers['content-length'] = String(Buffer.byteLength(body));
    } else if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      headers['content-type'] = 'application/json';
    } else if (call.method === 'POST') {
      headers['content-length'] = '0';
    }
    // Short calls get a deadline; an upload takes as long as it moves (the dispatcher's idle timeout).
    const deadline = call.upload === undefined ? AbortSignal.timeout(this.timeoutMs) : undefined;
    const signal = deadline && call.signal ? AbortSignal.any([deadline, call.signal]) : (deadline ?? call.signal);
    return request(`${this.baseUrl}${call.path}`, { method: call.method, headers, body, signal, dispatcher: this.dispatcher });
  }
}

/** The error of a refused call, from its problem+json body (or the start of whatever it was). */
function problemOf(call: Call, status: number, text: string): TaskApiError {
  let problem: { code?: unknown; name?: unknown; title?: unknown; detail?: unknown } | undefined;
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    problem = undefined;
  }
  const code = typeof problem?.code === 'string' ? problem.code : undefined;
  const name = typeof problem?.name === 'string' ? problem.name : undefined;
  const said = String(problem?.detail ?? problem?.title ?? text).slice(0, MAX_PROBLEM_TEXT);
  const retryable = status >= 500 || status === 429 || code === IN_PROGRESS;
  return new TaskApiError(status, code, name, `${call.method} ${pathOnly(call.path)} answered ${status}${name ? ` ${name}` : ''}: ${said}`, retryable);
}

function pathOnly(path: string): string {
  return path.split('?')[0];
}

function networkCause(e: unknown): string {
  let cause: unknown = e;
  while (cause instanceof Error && cause.cause !== undefined && !(cause as NodeJS.ErrnoException).code) cause = cause.cause;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${message} (${code})` : message;
}

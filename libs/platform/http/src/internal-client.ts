import { Agent, request } from 'undici';
import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { type InternalAuthKey, requestTargetOf, signedIdentityHeaders } from './internal-identity';
import { assertNormalizedPath } from './request-path';

/** Base URLs of the internal services a service calls, by service name (`lifecycle-clock` → `http://…`). */
export const UPSTREAM_URLS = Symbol('UPSTREAM_URLS');
export type UpstreamUrls = Readonly<Record<string, string>>;

/** How long a call to another service may take before the caller gives up (504). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

/**
 * How long a streamed request body (an upload) may go without a byte moving
 * before the call is given up (504); see `InternalCall.bodyIdleTimeoutMs`.
 */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

export interface InternalCall {
  method: string;
  /** Path and query, starting with `/`. */
  path: string;
  headers?: Record<string, string>;
  /**
   * A JSON body as text, sent unchanged; or a stream (an upload), sent as it
   * is read and never held whole: the stream is only read as fast as the
   * service takes the bytes (backpressure). Pass `content-length` in `headers`
   * when it is known (else the body goes chunked). If the service answers
   * before it has read the whole stream (a 413, say), the rest is not sent:
   * the stream is cancelled and the connection to the service closed, never
   * ended as if the body were complete.
   */
  body?: string | ReadableStream<Uint8Array>;
  /**
   * The deadline of the call. With a text body or none: of the whole call
   * (`callService`) or of the response headers (`openServiceStream`). With a
   * stream body: from the body's last byte to the service's whole answer, so a
   * long upload is never cut off by it.
   */
  timeoutMs?: number;
  /**
   * With a stream body: how long the body may go without a byte moving (the
   * sender stalls, or the service stops reading) before the call is given up
   * (504 UPSTREAM_TIMEOUT). An idle deadline, not a total one: an upload takes
   * as long as it needs while it moves. Default DEFAULT_BODY_IDLE_TIMEOUT_MS.
   */
  bodyIdleTimeoutMs?: number;
  /** Aborts the call (say, the client of an upload went away): the service sees its connection close. */
  signal?: AbortSignal;
  /** The caller the call is made for: sent as identity headers signed with the shared key. */
  identity?: { key: InternalAuthKey; principal: Principal };
}

/**
 * The URL and headers of a call. The path must be in normalized form (no dot
 * segments, encoded or not), so the URL parser cannot turn it into another
 * one; the identity is signed over the request target as it goes on the wire.
 */
function prepared(baseUrl: string, call: InternalCall): { url: URL; headers: Record<string, string> } {
  assertNormalizedPath(call.path);
  const url = new URL(`${baseUrl}${call.path}`);
  const headers = { ...(call.headers ?? {}) };
  if (call.identity) Object.assign(headers, signedIdentityHeaders(call.identity.key, call.method, requestTargetOf(url), call.identity.principal));
  return { url, headers };
}

/**
 * The connections of the short calls (JSON in, JSON out): kept alive and reused between calls to each service.
 * They go through undici's `request` rather than `fetch`: the answer is read whole anyway, and fetch's WHATWG
 * streams, Request and Response objects cost about as much CPU per call as the rest of a gateway's forwarding
 * (profiled in docs/performance.md). Streamed bodies (uploads, downloads) keep fetch.
 */
const SHORT_CALLS = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, headersTimeout: 0, bodyTimeout: 0 });

/** The answer's headers as `Headers`, whatever the client gave (a list per repeated header). */
function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

export interface InternalResponse {
  status: number;
  headers: Headers;
  /** The body bytes, unchanged. */
  body: Buffer;
}

/**
 * One call to another service over internal HTTP. Connection failures become
 * 503 SERVICE_UNAVAILABLE and a missed deadline 504 UPSTREAM_TIMEOUT; any HTTP
 * answer, errors included, is returned as it came for the caller to pass on.
 * The answer is read whole: a short one (JSON). A stream body (an upload) is
 * sent as it is read; see `InternalCall.body`. When reading that stream
 * fails (its sender went away), its error is thrown as it is.
 */
export async function callService(service: string, baseUrl: string, call: InternalCall): Promise<InternalResponse> {
  const { url, headers } = prepared(baseUrl, call);
  const deadline = new Deadline(call.signal);
  if (typeof call.body !== 'object') return shortCall(service, url, headers, call, deadline);
  const upload = new WatchedBody(call.body, deadline, call);
  try {
    const res = await fetch(url, {
      method: call.method,
      headers,
      body: upload.stream,
      // An upload is never redirected: with `manual` (or `follow`) fetch keeps a copy of the streamed body for a
      // possible resend, which holds every chunk until the upload ends. Internal services do not redirect anyway.
      redirect: 'error',
      signal: deadline.signal,
      duplex: 'half',
      window: null,
    } as RequestInit);
    // An answer before the whole upload was read: the service decided (a 413, say) and reads no more.
    if (!upload.finished) deadline.set(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
    const body = Buffer.from(await res.arrayBuffer());
    upload.stop();
    return { status: res.status, headers: res.headers, body };
  } catch (e) {
    upload.stop();
    if (upload.failure !== undefined && deadline.reason === undefined) throw upload.failure;
    throw unreachable(service, deadline.reason ?? e);
  } finally {
    deadline.clear();
  }
}

/** A call with a text body or none, its answer read whole, within one deadline. */
async function shortCall(service: string, url: URL, headers: Record<string, string>, call: InternalCall, deadline: Deadline): Promise<InternalResponse> {
  deadline.set(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
  try {
    const res = await request(url, {
      method: call.method as 'GET',
      headers,
      body: call.body as string | undefined,
      signal: deadline.signal,
      dispatcher: SHORT_CALLS,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: headersOf(res.headers), body };
  } catch (e) {
    throw unreachable(service, deadline.reason ?? e);
  } finally {
    deadline.clear();
  }
}

export interface StreamedResponse {
  status: number;
  headers: Headers;
  /** The body as it arrives; read it to the end or cancel it. */
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Like `callService`, for an answer that may be long (a file): the timeout
 * covers the wait for the response headers only, and the body is handed on
 * unread, to be streamed. The request body, if any, is text.
 */
export async function openServiceStream(service: string, baseUrl: string, call: InternalCall & { body?: string }): Promise<StreamedResponse> {
  const { url, headers } = prepared(baseUrl, call);
  const deadline = new Deadline(call.signal);
  deadline.set(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS, 'headers timeout');
  try {
    const res = await fetch(url, { method: call.method, headers, body: call.body, redirect: 'manual', signal: deadline.signal });
    return { status: res.status, headers: res.headers, body: res.body };
  } catch (e) {
    throw unreachable(service, deadline.reason ?? e);
  } finally {
    deadline.clear();
  }
}

/**
 * The one timer of a call, reset as it goes (an idle deadline while a body
 * streams, then the wait for the answer), and the caller's own abort signal.
 */
class Deadline {
  private readonly abort = new AbortController();
  private timer?: NodeJS.Timeout;
  /** Why the call was aborted, when it was: the error to report, whatever fetch made of it. */
  reason?: Error;

  constructor(outer?: AbortSignal) {
    if (outer?.aborted) this.fire(outer.reason);
    else outer?.addEventListener('abort', () => this.fire(outer.reason), { once: true });
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  set(ms: number, what = 'deadline passed'): void {
    this.clear();
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => this.fire(new DOMException(what, 'TimeoutError')), ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  private fire(reason: unknown): void {
    this.clear();
    this.reason ??= reason instanceof Error ? reason : new DOMException('aborted', 'AbortError');
    this.abort.abort(this.reason);
  }
}

/**
 * A stream body as fetch reads it: one chunk at a time (no read-ahead, so the
 * service's pace is the sender's), each one resetting the idle deadline, and
 * the answer's deadline once the last byte is out. Stopped early, it errors
 * rather than ends, so the service never takes a cut-off body for a whole one.
 */
class WatchedBody {
  readonly stream: ReadableStream<Uint8Array>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  /** The source was read to its end, failed, or was stopped. */
  finished = false;
  /** Why reading the source failed, when it did (the sender went away): the caller's failure, not the service's. */
  failure?: unknown;

  constructor(source: ReadableStream<Uint8Array>, deadline: Deadline, call: InternalCall) {
    const idleMs = call.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
    this.reader = source.getReader();
    deadline.set(idleMs, 'upload idle');
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: async (controller) => {
          let next: Awaited<ReturnType<typeof this.reader.read>>;
          try {
            next = await this.reader.read();
          } catch (e) {
            this.finished = true;
            this.failure = e;
            throw e;
          }
          if (this.finished) return;
          if (next.done) {
            this.finished = true;
            deadline.set(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
            controller.close();
            return;
          }
          deadline.set(idleMs, 'upload idle');
          controller.enqueue(next.value);
        },
        cancel: (reason) => {
          this.finished = true;
          return this.reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** No more of the source is read or sent; a body not yet complete is failed, not ended. */
  stop(): void {
    if (this.finished) return;
    this.finished = true;
    this.controller?.error(new Error('the service answered before the whole body was sent'));
    this.reader.cancel().catch(() => undefined);
  }
}

/** 504 for a call that ran out of time, 503 for a service that could not be reached. */
function unreachable(service: string, e: unknown): ProblemError {
  const name = (e as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ProblemError('UPSTREAM_TIMEOUT', `The ${service} service did not answer in time.`);
  }
  return new ProblemError('SERVICE_UNAVAILABLE', `The ${service} service is not reachable.`, undefined, {}, { 'Retry-After': '5' });
}

import { type Readable, Transform } from 'node:stream';
import { Agent, request } from 'undici';
import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { REQUEST_ID_HEADER } from '@dsar/platform/observability';
import { connectInProcessOrTcp } from './in-process-connections';
import { type InternalAuthKey, requestTargetOf, signedIdentityHeaders } from './internal-identity';
import { currentRequestContext, type RequestContext, TRACEPARENT_HEADER } from './request-context';
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
   * the stream is unpiped (left open, never destroyed: its sender may still be
   * owed an answer) and the connection to the service closed, never ended as
   * if the body were complete. A stream that closes before its end fails the call.
   */
  body?: string | Readable;
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
  /**
   * The caller the call is made for: sent as identity headers signed with the shared key. Without it, the caller of
   * the request being served (its request context), if any; a job outside any request names its `system:<name>`
   * principal here.
   */
  identity?: { key: InternalAuthKey; principal: Principal };
}

/**
 * The request id and trace context of the request being served, for the headers the call does not set itself: a call
 * made while serving a request carries them on without its caller copying them.
 */
function contextHeaders(given: Record<string, string>, context: RequestContext | undefined): Record<string, string> {
  if (!context) return {};
  const named = new Set(Object.keys(given).map((name) => name.toLowerCase()));
  return {
    ...(named.has(REQUEST_ID_HEADER) ? {} : { [REQUEST_ID_HEADER]: context.requestId }),
    ...(context.traceparent === undefined || named.has(TRACEPARENT_HEADER) ? {} : { [TRACEPARENT_HEADER]: context.traceparent }),
  };
}

/**
 * The URL and headers of a call. The path must be in normalized form (no dot
 * segments, encoded or not), so the URL parser cannot turn it into another
 * one; the identity is signed over the request target as it goes on the wire.
 * What the call leaves out is taken from the request context (`contextHeaders`,
 * and its caller's identity).
 */
function prepared(baseUrl: string, call: InternalCall): { url: URL; headers: Record<string, string> } {
  assertNormalizedPath(call.path);
  const url = new URL(`${baseUrl}${call.path}`);
  const context = currentRequestContext();
  const given = call.headers ?? {};
  const headers = { ...contextHeaders(given, context), ...given };
  const identity = call.identity ?? context?.identity;
  if (identity) Object.assign(headers, signedIdentityHeaders(identity.key, call.method, requestTargetOf(url), identity.principal));
  return { url, headers };
}

/**
 * The connections of the short calls (JSON in, JSON out): kept alive and reused between calls to each service.
 * Every call goes through undici's `request` rather than `fetch`, with Node streams for the bodies that stream:
 * fetch's WHATWG streams, Request and Response objects cost about as much CPU per call as the rest of a gateway's
 * forwarding, and per chunk of a file several promises and copies (profiled in docs/performance.md). A service of
 * this process registered with `serveInProcess` is reached in memory, any other over TCP.
 */
const SHORT_CALLS = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, headersTimeout: 0, bodyTimeout: 0, connect: connectInProcessOrTcp });
/** The connections of the streamed calls (uploads, downloads), apart so that a long transfer never holds up a short call. */
const STREAMED_CALLS = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, headersTimeout: 0, bodyTimeout: 0, connect: connectInProcessOrTcp });

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
    const res = await request(url, {
      method: call.method as 'POST',
      headers,
      body: upload.stream,
      signal: deadline.signal,
      dispatcher: STREAMED_CALLS,
    });
    // An answer before the whole upload was read: the service decided (a 413, say) and reads no more.
    if (!upload.finished) deadline.set(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
    const body = Buffer.from(await res.body.arrayBuffer());
    upload.stop();
    return { status: res.statusCode, headers: headersOf(res.headers), body };
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
  /** The body as it arrives, unchanged (never decoded); read it to the end or destroy it. */
  body: Readable;
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
    const res = await request(url, { method: call.method as 'GET', headers, body: call.body, signal: deadline.signal, dispatcher: STREAMED_CALLS });
    return { status: res.statusCode, headers: headersOf(res.headers), body: res.body };
  } catch (e) {
    throw unreachable(service, deadline.reason ?? e);
  } finally {
    deadline.clear();
  }
}

/** A streamed answer's body read whole (a problem, not a file). */
export async function readStreamedBody(res: StreamedResponse): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of res.body) parts.push(part as Buffer);
  return Buffer.concat(parts);
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
 * Bytes of an upload buffered on each side of its pass-through: none, one chunk at a time, as the service takes
 * them. A chunk that waits in a buffer lives long enough to leave V8's young generation and is then freed only by a
 * full GC: with 256 KiB here a 512 MiB upload took 32 full GCs and ran at 90 MiB/s, with none 25 and 108 MiB/s.
 */
const STREAMED_BODY_BUFFER = 0;

/**
 * A stream body as it goes to the service: passed on chunk by chunk at the
 * service's pace (backpressure through the pipe), each chunk resetting the idle
 * deadline, and the answer's deadline once the last byte is out. Stopped early,
 * it errors rather than ends, so the service never takes a cut-off body for a
 * whole one; the source itself is only unpiped, never destroyed (its sender
 * may still be waiting for the answer on it).
 */
class WatchedBody {
  readonly stream: Transform;
  /** The source was read to its end, failed, or was stopped. */
  finished = false;
  /** Why reading the source failed, when it did (the sender went away): the caller's failure, not the service's. */
  failure?: unknown;
  private readonly onSourceError: (e: Error) => void;
  private readonly onSourceClose: () => void;

  constructor(
    private readonly source: Readable,
    deadline: Deadline,
    call: InternalCall,
  ) {
    const idleMs = call.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
    deadline.set(idleMs, 'upload idle');
    this.stream = new Transform({
      // Room for a few of the socket's 64 KiB reads: a smaller buffer pauses and resumes the source on every chunk.
      highWaterMark: STREAMED_BODY_BUFFER,
      transform: (chunk: Buffer, _encoding, done) => {
        deadline.set(idleMs, 'upload idle');
        done(null, chunk);
      },
      flush: (done) => {
        this.finished = true;
        this.unwatch();
        deadline.set(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
        done();
      },
    });
    this.onSourceError = (e: Error) => {
      if (this.finished) return;
      this.finished = true;
      this.failure = e;
      this.stream.destroy(e);
    };
    // A sender that goes away before the end of its body (a client's aborted upload) ends no stream: it closes one.
    this.onSourceClose = () => {
      if (!source.readableEnded) this.onSourceError(new Error('the sender closed the connection before the end of its body'));
    };
    // The pass-through's failures reach the call through undici (or `failure`); once undici let go of it, a stop
    // that fails it must not become an unhandled 'error' event.
    this.stream.on('error', () => undefined);
    source.on('error', this.onSourceError);
    source.once('close', this.onSourceClose);
    if (source.destroyed) this.onSourceClose();
    else source.pipe(this.stream);
  }

  /** No more of the source is read or sent; a body not yet complete is failed, not ended. */
  stop(): void {
    this.unwatch();
    if (this.finished) return;
    this.finished = true;
    this.source.unpipe(this.stream);
    this.stream.destroy(new Error('the service answered before the whole body was sent'));
  }

  private unwatch(): void {
    this.source.off('error', this.onSourceError);
    this.source.off('close', this.onSourceClose);
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

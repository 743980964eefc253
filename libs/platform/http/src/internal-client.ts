import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { type InternalAuthKey, requestTargetOf, signedIdentityHeaders } from './internal-identity';
import { assertNormalizedPath } from './request-path';

/** Base URLs of the internal services a service calls, by service name (`lifecycle-clock` → `http://…`). */
export const UPSTREAM_URLS = Symbol('UPSTREAM_URLS');
export type UpstreamUrls = Readonly<Record<string, string>>;

/** How long a call to another service may take before the caller gives up (504). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

export interface InternalCall {
  method: string;
  /** Path and query, starting with `/`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON body as text, sent unchanged. */
  body?: string;
  timeoutMs?: number;
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
 */
export async function callService(service: string, baseUrl: string, call: InternalCall): Promise<InternalResponse> {
  const { url, headers } = prepared(baseUrl, call);
  try {
    const res = await fetch(url, {
      method: call.method,
      headers,
      body: call.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS),
    });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  } catch (e) {
    throw unreachable(service, e);
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
 * unread, to be streamed.
 */
export async function openServiceStream(service: string, baseUrl: string, call: InternalCall): Promise<StreamedResponse> {
  const { url, headers } = prepared(baseUrl, call);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new DOMException('headers timeout', 'TimeoutError')), call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS);
  try {
    const res = await fetch(url, { method: call.method, headers, body: call.body, redirect: 'manual', signal: abort.signal });
    return { status: res.status, headers: res.headers, body: res.body };
  } catch (e) {
    throw unreachable(service, e);
  } finally {
    clearTimeout(timer);
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

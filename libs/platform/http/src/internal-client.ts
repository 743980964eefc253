import { ProblemError } from '@dsar/platform/errors';

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
  try {
    const res = await fetch(`${baseUrl}${call.path}`, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(call.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS),
    });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  } catch (e) {
    const name = (e as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new ProblemError('UPSTREAM_TIMEOUT', `The ${service} service did not answer in time.`);
    }
    throw new ProblemError('SERVICE_UNAVAILABLE', `The ${service} service is not reachable.`, undefined, {}, { 'Retry-After': '5' });
  }
}

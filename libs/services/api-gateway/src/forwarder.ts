import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { AWAIT_EVENT_HEADER, IDEMPOTENCY_FINGERPRINT_HEADER, IDEMPOTENCY_KEY_HEADER, INTERNAL_API_PREFIX, LAST_EVENT_HEADER, type Principal, PUBLIC_API_PREFIX } from '@dsar/contracts';
import { callService, DEFAULT_BODY_IDLE_TIMEOUT_MS, INTERNAL_AUTH, type InternalAuthKey, type InternalResponse, openServiceStream, readStreamedBody, type StreamedResponse } from '@dsar/platform/http';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import type { GatewaySettings } from './gateway-settings';
import type { GatewayRoute } from './route-types';
import { UPSTREAMS, type Upstreams } from './upstreams';

/** Response headers an internal service may pass to the client; everything else stays inside. */
const PASSED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'idempotent-replayed', 'location', 'content-disposition', 'etag', 'allow'];

/** Request headers of a download the service reads: the range asked for, and the version the client holds. */
export const DOWNLOAD_REQUEST_HEADERS = ['range', 'if-none-match', 'if-range'] as const;
/** Response headers of a download passed to the client, besides the route's own. */
const DOWNLOAD_RESPONSE_HEADERS = ['content-type', 'content-length', 'content-disposition', 'etag', 'accept-ranges', 'content-range', 'cache-control'];
/** The answers of a download that are the file (or, for 304 and 416, its absence): streamed as they come. */
const DOWNLOAD_STATUSES = new Set([200, 206, 304, 416]);

const PROBLEM_TYPE = /^application\/problem\+json\s*(?:;|$)/i;

/** Every mention of the internal prefix in a text, as the public one: the client never learns the internal paths. */
function publicText(text: string): string {
  return text.split(INTERNAL_API_PREFIX).join(PUBLIC_API_PREFIX);
}

/**
 * A problem from a service names the internal path it was raised on (in
 * `instance`, and in `detail` for a route the service does not know); the
 * client is shown the public one.
 */
export function publicProblem(contentType: string | undefined, body: Buffer): Buffer {
  if (!contentType?.startsWith('application/problem+json')) return body;
  try {
    const problem = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (typeof problem !== 'object' || problem === null) return body;
    let changed = false;
    for (const member of ['instance', 'detail', 'title']) {
      const value = problem[member];
      if (typeof value === 'string' && value.includes(INTERNAL_API_PREFIX)) {
        problem[member] = publicText(value);
        changed = true;
      }
    }
    return changed ? Buffer.from(JSON.stringify(problem)) : body;
  } catch {
    return body;
  }
}

export interface ForwardRequest {
  route: GatewayRoute;
  /** Path under /api/v1 with the query string, exactly as the client sent it. */
  pathAndQuery: string;
  principal: Principal;
  requestId: string;
  traceparent?: string;
  idempotencyKey?: string;
  fingerprint?: string;
  contentType?: string;
  body?: string;
  /** The client's headers the route passes on (`route.passHeaders`), by lower-case name. */
  headers?: Readonly<Record<string, string>>;
}

/** The call of a public route (a provider's webhook, the download page): no caller, so no identity goes with it. */
export type CallerlessRequest = Omit<ForwardRequest, 'principal'> & { principal?: undefined };

export interface ForwardedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A file the service streams; the gateway pipes it to the client. */
export interface ForwardedStream {
  status: number;
  headers: Record<string, string>;
  /** The service's body as it arrives (empty for an answer without one, a 304 say). */
  stream: Readable;
}

/** The body of an upload route, as it goes to the service. */
export interface UploadBody {
  /** The client's body, read only as fast as the service takes it, and never destroyed (the answer goes out on it). */
  stream: Readable;
  /** Content-Type, Content-Length (when the client sent one) and the route's declared headers. */
  headers: Record<string, string>;
  /** Aborted when the client goes away: the call to the service is dropped too. */
  signal: AbortSignal;
}

/** The call to make to the owning service, or the owner's refusal to answer with instead. */
type Prepared = { headers: Record<string, string> } | { refused: ForwardedResponse };

/**
 * Calls the owning service for a public route: the caller's identity goes as
 * headers signed with the internal auth key (tokens never leave the gateway;
 * ADR 0020), with the request id, trace context and idempotency key.
 */
@Injectable()
export class Forwarder {
  constructor(
    @Inject(UPSTREAMS) private readonly upstreams: Upstreams,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
    @Inject(INTERNAL_AUTH) private readonly internalAuth: InternalAuthKey,
  ) {}

  async forward(req: ForwardRequest | CallerlessRequest): Promise<ForwardedResponse> {
    const prepared = await this.prepare(req);
    if ('refused' in prepared) return prepared.refused;
    return this.reply(await this.call(req.route.service, req.route.method, req.pathAndQuery, req.principal, prepared.headers, req.body));
  }

  /**
   * A route's streamed file (`route.file`): the service's body is passed on as
   * it arrives. Any other answer (a problem) is read and returned as usual.
   * A file with `ranges` is served as a download: `conditions` (the client's
   * Range and validators) go to the service, and its 200, 206, 304 or 416
   * comes back with the download headers.
   */
  async forwardFile(req: ForwardRequest | CallerlessRequest, accept: string, conditions: Readonly<Record<string, string>> = {}): Promise<ForwardedResponse | ForwardedStream> {
    const file = req.route.file;
    if (!file) throw new Error(`${req.route.operationId} has no file answer`);
    const prepared = await this.prepare(req);
    if ('refused' in prepared) return prepared.refused;
    const headers = file.ranges ? { ...prepared.headers, ...conditions, accept, 'accept-encoding': 'identity' } : { ...prepared.headers, accept };
    const res = await openServiceStream(req.route.service, this.upstreams[req.route.service], {
      method: req.route.method,
      path: `${INTERNAL_API_PREFIX}${req.pathAndQuery}`,
      headers,
      ...this.identityOf(req),
      timeoutMs: this.settings.upstreamTimeoutMs,
    });
    if (file.ranges) return this.streamedFile(res, Object.keys(file.headers));
    if (res.status === file.status) {
      return { status: res.status, headers: this.passedHeaders(res.headers, Object.keys(file.headers)), stream: res.body };
    }
    return this.reply({ status: res.status, headers: res.headers, body: await readStreamedBody(res) });
  }

  /**
   * An upload route (`route.upload`): the body streams to the service as the
   * client sends it, at the service's pace, with an idle deadline instead of a
   * total one. The service's answer (a 413 before the body is complete, say)
   * is read and returned as usual; the rest of the body is not sent.
   */
  async forwardUpload(req: ForwardRequest | CallerlessRequest, upload: UploadBody): Promise<ForwardedResponse> {
    const prepared = await this.prepare(req);
    if ('refused' in prepared) return prepared.refused;
    const res = await callService(req.route.service, this.upstreams[req.route.service], {
      method: req.route.method,
      path: `${INTERNAL_API_PREFIX}${req.pathAndQuery}`,
      headers: { ...prepared.headers, ...upload.headers },
      ...this.identityOf(req),
      body: upload.stream,
      timeoutMs: this.settings.upstreamTimeoutMs,
      bodyIdleTimeoutMs: this.settings.uploadIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS,
      signal: upload.signal,
    });
    return this.reply(res);
  }

  /**
   * A download route (`route.download`): always the streamed path. The
   * client's range and validators go to the service; a 200, 206, 304 or 416
   * comes back streamed with the file's headers, any other answer (a
   * problem) is read and returned as usual.
   */
  async forwardDownload(req: ForwardRequest | CallerlessRequest, conditions: Readonly<Record<string, string>>): Promise<ForwardedResponse | ForwardedStream> {
    const download = req.route.download;
    if (!download) throw new Error(`${req.route.operationId} is not a download route`);
    const prepared = await this.prepare(req);
    if ('refused' in prepared) return prepared.refused;
    // The bytes as stored: a range counts bytes of the unencoded file, and Content-Length stays true.
    const headers = { ...prepared.headers, ...conditions, accept: '*/*', 'accept-encoding': 'identity' };
    const res = await openServiceStream(req.route.service, this.upstreams[req.route.service], {
      method: req.route.method,
      path: `${INTERNAL_API_PREFIX}${req.pathAndQuery}`,
      headers,
      ...this.identityOf(req),
      timeoutMs: this.settings.upstreamTimeoutMs,
    });
    return this.streamedFile(res, Object.keys(download.headers));
  }

  /** A download's answer: the file (200, 206, 304, 416) streamed with its headers and the route's, a problem read and returned. */
  private async streamedFile(res: StreamedResponse, routeHeaders: readonly string[]): Promise<ForwardedResponse | ForwardedStream> {
    const fileHeaders = [...DOWNLOAD_RESPONSE_HEADERS, ...routeHeaders];
    if (DOWNLOAD_STATUSES.has(res.status) && !PROBLEM_TYPE.test(res.headers.get('content-type') ?? '')) {
      // Should a service encode the body anyway, it is passed on as it came, with its Content-Encoding.
      const passed = this.passedHeaders(res.headers, [...fileHeaders, 'content-encoding']);
      // The file may be anything a client uploaded: a browser must never take it for another type (HTML, say).
      passed['x-content-type-options'] = 'nosniff';
      return { status: res.status, headers: passed, stream: res.body };
    }
    const answer = this.reply({ status: res.status, headers: res.headers, body: await readStreamedBody(res) });
    // A 416 problem still says how long the file is.
    const range = res.headers.get('content-range');
    if (res.status === 416 && range !== null) answer.headers['content-range'] = range;
    return answer;
  }

  /** The headers of the call to the owning service; or, for a derived view, the owner's refusal (404 for another tenant's request). */
  private async prepare(req: ForwardRequest | CallerlessRequest): Promise<Prepared> {
    const headers = this.baseHeaders(req);
    if (req.route.readYourWrites && req.principal) {
      // The view lives in another service and may lag: read the request from its owner first
      // (a request of another tenant is a 404 there), then have the view wait for its newest event.
      const id = /^\/requests\/([^/?]+)/.exec(req.pathAndQuery)?.[1] ?? '';
      const owner = await this.call('lifecycle-clock', 'GET', `/requests/${id}`, req.principal, headers);
      const purged = owner.status === 404 && req.route.outlivesRequest === true && req.principal.workspaceId === undefined;
      if (owner.status !== 200 && !purged) return { refused: this.reply(owner) };
      const lastEvent = owner.headers.get(LAST_EVENT_HEADER);
      if (lastEvent && !purged) headers[AWAIT_EVENT_HEADER] = lastEvent;
    }
    // The route's passed headers go to the owning service only, never to the owner's read above.
    Object.assign(headers, req.headers ?? {});
    if (req.contentType && req.body !== undefined) headers['content-type'] = req.contentType;
    if (req.idempotencyKey !== undefined) {
      headers[IDEMPOTENCY_KEY_HEADER] = req.idempotencyKey;
      if (req.fingerprint) headers[IDEMPOTENCY_FINGERPRINT_HEADER] = req.fingerprint;
    }
    return { headers };
  }

  private baseHeaders(req: ForwardRequest | CallerlessRequest): Record<string, string> {
    return {
      accept: 'application/json',
      'x-request-id': req.requestId,
      ...(req.traceparent ? { traceparent: req.traceparent } : {}),
    };
  }

  /** The caller's identity, signed for the call; none for a public route (a webhook, the download page). */
  private identityOf(req: { principal?: Principal }): { identity?: { key: InternalAuthKey; principal: Principal } } {
    return req.principal ? { identity: { key: this.internalAuth, principal: req.principal } } : {};
  }

  /** One call for the caller, its identity signed for exactly this method and path (none for a public route). */
  private call(service: string, method: string, pathAndQuery: string, principal: Principal | undefined, headers: Record<string, string>, body?: string): Promise<InternalResponse> {
    return callService(service, this.upstreams[service], {
      method,
      path: `${INTERNAL_API_PREFIX}${pathAndQuery}`,
      headers,
      ...this.identityOf({ principal }),
      body,
      timeoutMs: this.settings.upstreamTimeoutMs,
    });
  }

  private reply(res: InternalResponse): ForwardedResponse {
    const headers = this.passedHeaders(res.headers);
    return { status: res.status, headers, body: publicProblem(headers['content-type'], res.body) };
  }

  private passedHeaders(from: Headers, extra: readonly string[] = []): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const name of [...PASSED_RESPONSE_HEADERS, ...extra]) {
      const v = from.get(name);
      if (v !== null) headers[name] = v;
    }
    return headers;
  }
}

import { pipeline } from 'node:stream/promises';
import { All, Controller, Inject, Optional, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { IDEMPOTENCY_KEY_HEADER, type Principal, rolesAllow } from '@dsar/contracts';
import { AuthenticationError, Authenticator } from '@dsar/platform/auth';
import { type FieldProblem, ProblemError } from '@dsar/platform/errors';
import { acceptedMediaType, assertNormalizedPath, hasBody, JSON_MEDIA_TYPE as JSON_TYPE, pathOf, strictJsonBody, uploadBodyTypeProblem } from '@dsar/platform/http';
import { parseIdempotencyKey, requestFingerprint } from '@dsar/platform/idempotency';
import { requestIdOf } from '@dsar/platform/observability';
import { type CallerlessRequest, DOWNLOAD_REQUEST_HEADERS, type ForwardedResponse, type ForwardedStream, Forwarder, type ForwardRequest } from './forwarder';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import type { GatewaySettings } from './gateway-settings';
import { AddressRateLimiter, CallerRateLimiter, clientKeyOf } from './rate-limiter';
import { assertPublishedQuery } from './query-rules';
import { RouteMatcher } from './route-matcher';
import { routeTableProblems } from './route-table-checks';
import { type GatewayRoute, PUBLIC } from './route-types';
import { GATEWAY_SERVICE, sessionOf } from './session-routes';
import { ROUTES } from './routes';

/** The route table the gateway serves; ROUTES unless a test provides its own. */
export const GATEWAY_ROUTES = Symbol('GATEWAY_ROUTES');

/**
 * How long the rest of an upload is still read (and dropped) after the answer
 * went out early (an error, or the service's 413 before the whole body): the
 * client gets to read the answer rather than a connection reset in the middle
 * of its sending. Then the connection is closed.
 */
const UPLOAD_LINGER_MS = 2_000;

/**
 * The public REST surface under /api/v1. For each call, in this order: path
 * (400 for a path not in normalized form), route (404/405), authentication
 * (401), authorization (403), rate limit (429), query (400: only the
 * parameters the route publishes), body (415/400/413),
 * idempotency key (400), then the owning service. Nothing is read from the
 * body before the caller is known. HEAD is answered for every GET route like
 * the GET, without the body. An upload route streams its body to the service
 * (its headers are checked first, 400); a download route always streams the
 * service's file back. A provider's webhook (public) skips authentication,
 * authorization and the caller's rate limit: it counts against its client
 * address's webhook budget (429), and its bytes stream to the service, which
 * checks the provider's signature over them. A route of the person's download
 * page (public too) counts against its client address's portal budget (429)
 * and goes to the service with no caller, which checks the link's secrets. A request refused before its
 * caller is authenticated (400, 404, 405, 401) counts against its client
 * address's budget for unauthenticated requests, unless it carries a valid
 * token; once that is spent, such refusals are 429 instead.
 */
@Controller('api/v1')
export class GatewayController {
  private readonly matcher: RouteMatcher;
  private readonly authenticator: Authenticator;
  private readonly limiter: CallerRateLimiter;
  private readonly unauthenticated: AddressRateLimiter;
  private readonly webhooks: AddressRateLimiter;
  private readonly portal: AddressRateLimiter;
  private readonly readJson: (req: Request) => Promise<void>;

  constructor(
    private readonly forwarder: Forwarder,
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
    @Optional() @Inject(GATEWAY_ROUTES) routes: readonly GatewayRoute[] = ROUTES,
  ) {
    const problems = routeTableProblems(routes);
    if (problems.length > 0) throw new Error(`The gateway's route table is not valid:\n${problems.join('\n')}`);
    this.matcher = new RouteMatcher(routes);
    this.authenticator = new Authenticator(settings.auth);
    this.limiter = new CallerRateLimiter(settings.rateLimitPerMinute);
    this.unauthenticated = new AddressRateLimiter(settings.unauthenticatedRateLimitPerMinute ?? 0, 'requests without a valid token');
    this.webhooks = new AddressRateLimiter(settings.webhookRateLimitPerMinute ?? 0, 'webhook deliveries');
    this.portal = new AddressRateLimiter(settings.portalRateLimitPerMinute ?? 0, "calls of the person's download page");
    const parser = strictJsonBody(settings.bodyLimit);
    this.readJson = (req) => new Promise((resolve, reject) => parser(req, {} as Response, (err?: unknown) => (err ? reject(err) : resolve())));
  }

  @All(['', '*path'])
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    const client = clientKeyOf(req);
    const progress = { admitted: false };
    try {
      await this.serve(req, res, client, progress);
    } catch (e) {
      throw progress.admitted ? e : await this.refusedBeforeCaller(req, client, e);
    }
  }

  /**
   * The call, in the order the class comment gives. `progress.admitted` turns true once the request is counted
   * elsewhere than in the budget for unauthenticated requests: its caller is authenticated, or it is a webhook
   * delivery.
   */
  private async serve(req: Request, res: Response, client: string, progress: { admitted: boolean }): Promise<void> {
    // The path as the client sent it, checked before anything else: a dot segment (`..`, `%2e%2e`), an encoded
    // slash or a backslash would let the path that is authorized differ from the one the service receives.
    const target = req.originalUrl;
    assertNormalizedPath(target);
    if (!/^\/api\/v1(?:[/?]|$)/.test(target)) throw new ProblemError('ROUTE_NOT_FOUND', 'No endpoint answers this path.');
    const pathAndQuery = target.slice('/api/v1'.length);
    const apiPath = pathOf(pathAndQuery) || '/';
    const head = req.method === 'HEAD';
    const { route } = this.matcher.resolve(req.method, apiPath);
    if (route.upload || route.webhook) lingerOnUnreadBody(req, res);
    const requestId = String((req as Request & { id?: unknown }).id ?? requestIdOf(req));
    const traceparent = typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined;
    if (route.webhook) {
      progress.admitted = true;
      for (const [k, v] of Object.entries(await this.webhooks.consume(client))) res.setHeader(k, v);
      // Public: the provider's signature over the bytes authenticates the call, and the owning service checks it.
      const answer = await this.webhook(req, res, { route, pathAndQuery, requestId, traceparent }, route.webhook);
      if (answer) await send(res, answer, false);
      return;
    }
    if (route.portal) {
      progress.admitted = true;
      for (const [k, v] of Object.entries(await this.portal.consume(client))) res.setHeader(k, v);
      // Public: the link's credential or the session its code answered lets the call through, and the owning service checks it.
      assertPublishedQuery(route, req.query);
      return this.forwardJsonOrDownload(req, res, { route, pathAndQuery, requestId, traceparent, headers: passedHeaders(req, route) }, apiPath, head);
    }
    const principal = await this.authenticate(req);
    progress.admitted = true;
    authorize(route, principal);
    for (const [k, v] of Object.entries(await this.limiter.consume(principal))) res.setHeader(k, v);
    assertPublishedQuery(route, req.query);
    const call = { route, pathAndQuery, principal, requestId, traceparent, headers: passedHeaders(req, route) };
    if (route.upload) {
      const answer = await this.upload(req, res, call, apiPath, route.upload);
      if (answer) await send(res, answer, false);
      return;
    }
    if (route.service === GATEWAY_SERVICE) return send(res, gatewayAnswer(route, principal), head);
    return this.forwardJsonOrDownload(req, res, call, apiPath, head);
  }

  /** The call of a route whose body is JSON (or none): forwarded, its answer (JSON, a file, a download) sent back. */
  private async forwardJsonOrDownload(req: Request, res: Response, call: ForwardRequest | CallerlessRequest, apiPath: string, head: boolean): Promise<void> {
    const { route } = call;
    const body = route.body ? await this.readBody(req) : undefined;
    const idempotencyKey = route.method === 'POST' || route.method === 'PUT' ? parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER]) : undefined;
    const forward = {
      ...call,
      idempotencyKey,
      fingerprint: idempotencyKey !== undefined ? requestFingerprint(route.method, apiPath, body?.parsed) : undefined,
      contentType: body ? 'application/json' : undefined,
      body: body?.raw,
    };
    const accept = req.headers.accept;
    const wantsFile = route.file !== undefined && accept !== undefined && acceptedMediaType(accept, route.file.mediaTypes) !== undefined;
    const answer = route.download
      ? await this.forwarder.forwardDownload(forward, downloadConditions(req))
      : wantsFile
        ? await this.forwarder.forwardFile(forward, accept, route.file?.ranges ? downloadConditions(req) : {})
        : await this.forwarder.forward(forward);
    await send(res, answer, head);
  }

  /**
   * The call of an upload route: its headers are checked before a byte of the
   * body is read, then the body streams to the service. Undefined when the
   * client went away meanwhile (there is no one to answer).
   */
  private async upload(req: Request, res: Response, call: ForwardRequest, apiPath: string, upload: NonNullable<GatewayRoute['upload']>): Promise<ForwardedResponse | undefined> {
    // The file goes to the service as stored: decoding it here would hide its real size from the limits, and
    // passing it encoded would have every service decode untrusted input.
    if (contentCodings(req.headers['content-encoding']).length > 0) {
      throw new ProblemError('CONTENT_ENCODING_UNSUPPORTED', 'An upload is sent as it is stored, without a Content-Encoding.', undefined, {}, { 'Accept-Encoding': 'identity' });
    }
    // A body that is not the file itself (a JSON command, a multipart form) is refused before a byte is read,
    // rather than stored as an artifact or evidence. The owning service applies the same rule to a direct call.
    const contentType = req.headers['content-type'] || 'application/octet-stream';
    const typeHeader = Object.keys(upload.headers).find((name) => name.endsWith('-content-type')) ?? "the route's content-type header";
    const notAFile = uploadBodyTypeProblem(contentType, typeHeader);
    if (notAFile) throw notAFile;
    const declared = declaredHeaders(req, upload);
    const length = req.headers['content-length'] ?? (hasBody(req) ? undefined : '0');
    const idempotencyKey = call.route.method === 'POST' || call.route.method === 'PUT' ? parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER]) : undefined;
    // The fingerprint of an upload's head: the method, the path, the Content-Type, the Content-Length and the route's
    // declared headers. The owning service adds the SHA-256 of the bytes as they stream through (`streamedBody` of
    // `@Idempotent`), so that a retry with the same key and another body of the same length is a 422, not a replay.
    const fingerprint = idempotencyKey !== undefined ? requestFingerprint(call.route.method, apiPath, { upload: { contentType, contentLength: length ?? null, headers: declared } }) : undefined;
    return this.stream(req, res, { ...call, idempotencyKey, fingerprint }, declared);
  }

  /**
   * The call of a provider's webhook: a JSON body without a Content-Encoding (415 otherwise), streamed to the service
   * byte for byte with the webhook's headers, and no caller: the service checks the provider's signature over those
   * bytes. Undefined when the client went away meanwhile.
   */
  private async webhook(req: Request, res: Response, call: CallerlessRequest, webhook: NonNullable<GatewayRoute['webhook']>): Promise<ForwardedResponse | undefined> {
    if (contentCodings(req.headers['content-encoding']).length > 0) {
      throw new ProblemError('CONTENT_ENCODING_UNSUPPORTED', 'A webhook delivery is taken as it was signed, without a Content-Encoding.', undefined, {}, { 'Accept-Encoding': 'identity' });
    }
    const type = req.headers['content-type'];
    if (!type || !JSON_TYPE.test(type)) throw new ProblemError('UNSUPPORTED_MEDIA_TYPE', `A webhook delivery is application/json, not ${type ? type.split(';')[0] : 'untyped'}.`);
    const headers: Record<string, string> = {};
    for (const name of Object.keys(webhook.headers)) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return this.stream(req, res, call, headers);
  }

  /**
   * Streams the client's body to the owning service as `application/octet-stream` (an upload's file, a webhook's
   * signed bytes), with its Content-Length and the route's headers, at the service's pace. Undefined when the client
   * went away meanwhile (there is no one to answer).
   */
  private async stream(req: Request, res: Response, call: ForwardRequest | CallerlessRequest, headers: Record<string, string>): Promise<ForwardedResponse | undefined> {
    const length = req.headers['content-length'] ?? (hasBody(req) ? undefined : '0');
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort(new DOMException('the client went away', 'AbortError'));
    };
    res.once('close', onClose);
    try {
      return await this.forwarder.forwardUpload(call, {
        stream: req,
        // The bytes as sent whatever the client called them: a service parses JSON bodies before its handlers run, so a
        // body labelled application/json would never reach its handler as bytes. An upload's own type travels in the
        // route's declared header (x-evidence-content-type, x-artifact-content-type).
        headers: { 'content-type': 'application/octet-stream', ...(length !== undefined ? { 'content-length': length } : {}), ...headers },
        signal: gone.signal,
      });
    } catch (e) {
      // The client aborted its upload: the call to the service was dropped with it, and no one waits for an answer.
      if (gone.signal.aborted || req.destroyed) return undefined;
      throw e;
    } finally {
      res.off('close', onClose);
    }
  }

  /**
   * The answer to a request refused before its caller was authenticated (its path, its route, its token): the
   * refusal, counted against the client's budget for unauthenticated requests, or the 429 once that is spent. A
   * request with a valid token (refused for its path or route) does not count, nor does a failure of ours (5xx).
   */
  private async refusedBeforeCaller(req: Request, client: string, error: unknown): Promise<unknown> {
    if (!(error instanceof ProblemError) || error.status >= 500) return error;
    if (error.definition.name !== 'AUTHENTICATION_REQUIRED' && (await this.carriesValidToken(req))) return error;
    try {
      await this.unauthenticated.consume(client);
      return error;
    } catch (limited) {
      return limited;
    }
  }

  private async carriesValidToken(req: Request): Promise<boolean> {
    const header = req.headers.authorization;
    if (header === undefined) return false;
    return this.authenticator.authenticate(header).then(
      () => true,
      () => false,
    );
  }

  private async authenticate(req: Request): Promise<Principal> {
    try {
      return await this.authenticator.authenticate(req.headers.authorization);
    } catch (e) {
      if (e instanceof AuthenticationError) {
        throw new ProblemError('AUTHENTICATION_REQUIRED', e.message, undefined, {}, { 'WWW-Authenticate': 'Bearer realm="dsar"' });
      }
      // The token could not be checked at all (the issuer's JWKS is unreachable): our fault, not the caller's.
      throw new ProblemError('SERVICE_UNAVAILABLE', 'Tokens cannot be verified right now.', undefined, {}, { 'Retry-After': '5' });
    }
  }

  /** The JSON body of a route that takes one; absent when the client sent none. */
  private async readBody(req: Request): Promise<{ raw: string; parsed: unknown } | undefined> {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const type = req.headers['content-type'];
    if (!type) {
      if (hasBody) throw new ProblemError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as Content-Type: application/json.');
      return undefined;
    }
    if (!JSON_TYPE.test(type)) throw new ProblemError('UNSUPPORTED_MEDIA_TYPE', `This endpoint takes application/json, not ${type.split(';')[0]}.`);
    await this.readJson(req);
    const raw = (req as Request & { rawBody?: string }).rawBody;
    return raw === undefined ? undefined : { raw, parsed: req.body };
  }
}

/** The answer of a route the gateway answers itself (GATEWAY_SERVICE), from the caller it authenticated. */
function gatewayAnswer(route: GatewayRoute, principal: Principal): ForwardedResponse {
  if (route.operationId !== 'getSession') throw new Error(`the gateway has no answer of its own for ${route.operationId}`);
  return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }, body: Buffer.from(JSON.stringify(sessionOf(principal))) };
}

/** Writes an answer: a stream piped as it comes (nothing of it for HEAD), a read body with its length. */
async function send(res: Response, answer: ForwardedResponse | ForwardedStream, head: boolean): Promise<void> {
  for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
  res.status(answer.status);
  if ('stream' in answer) {
    if (head) {
      // Destroying a body not read to its end fails it: that failure is expected, and no one else listens for it.
      answer.stream.on('error', () => undefined).destroy();
      res.end();
      return;
    }
    // Once the file has started, a failure can only cut the response short.
    await pipeline(answer.stream, res).catch(() => res.destroy());
    return;
  }
  // The same headers for HEAD as for GET, Content-Length included; Node sends no body for a HEAD.
  res.setHeader('Content-Length', answer.body.length);
  res.end(head ? undefined : answer.body);
}

/** The codings a Content-Encoding names, `identity` aside. */
function contentCodings(header: string | string[] | undefined): string[] {
  return (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The route's declared headers the client sent, by lower-case name: the only
 * client headers besides Content-Type and Content-Length that reach the
 * service. A required one missing, or a value not of the declared form, is a
 * 400 naming each such header.
 */
function declaredHeaders(req: Request, upload: NonNullable<GatewayRoute['upload']>): Record<string, string> {
  const passed: Record<string, string> = {};
  const problems: FieldProblem[] = [];
  for (const [name, spec] of Object.entries(upload.headers)) {
    const raw = req.headers[name.toLowerCase()];
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    // An empty value is a missing required header, or absent where the header has no declared form; an optional
    // header with a declared form is checked like any value (an empty media type is not one).
    if (value === undefined || (value === '' && (spec.required || spec.schema === undefined))) {
      if (spec.required) problems.push({ field: name, message: 'is a required header' });
      continue;
    }
    const parsed = spec.schema?.safeParse(value);
    if (parsed && !parsed.success) {
      problems.push({ field: name, message: parsed.error.issues[0]?.message ?? 'is not valid' });
      continue;
    }
    passed[name.toLowerCase()] = value;
  }
  if (problems.length > 0) {
    throw new ProblemError('REQUEST_VALIDATION_FAILED', `Header${problems.length === 1 ? '' : 's'} ${problems.map((p) => p.field).join(', ')}: missing or invalid.`, problems);
  }
  return passed;
}

/** The headers the route passes on (`passHeaders`) that the client sent, by lower-case name. */
function passedHeaders(req: Request, route: GatewayRoute): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of Object.keys(route.passHeaders ?? {})) {
    const value = req.headers[name];
    if (value !== undefined) passed[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return passed;
}

/** The client's Range, If-None-Match and If-Range, for the service of a download. */
function downloadConditions(req: Request): Record<string, string> {
  const conditions: Record<string, string> = {};
  for (const name of DOWNLOAD_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') conditions[name] = value;
  }
  return conditions;
}

/**
 * Refuses (403 PERMISSION_DENIED) a caller that may not call the route, decided from the route and the credential
 * alone, before anything is read or forwarded: none of its roles holds the route's permission, or the route acts on
 * the whole tenant (`tenantWide`) and the caller is confined to one workspace. The owning service checks the
 * tenant, the workspace and the resource itself (another tenant's is a 404).
 */
export function authorize(route: GatewayRoute, principal: Principal): void {
  if (route.permission === PUBLIC || !rolesAllow(principal.roles, route.permission)) {
    throw new ProblemError('PERMISSION_DENIED', `The roles ${principal.roles.join(', ') || '(none)'} may not ${route.summary.toLowerCase()} (needs ${route.permission}).`);
  }
  if (route.tenantWide && principal.workspaceId !== undefined) {
    throw new ProblemError('PERMISSION_DENIED', `This route acts on the whole tenant: a caller confined to one workspace may not ${route.summary.toLowerCase()}.`);
  }
}

/**
 * For an upload route: when the answer has gone out before the client's whole
 * body was read (an error, or the service answered early), the rest is read
 * and dropped for a moment, so the client gets to read the answer, and the
 * connection is closed if the body has not ended by then. The body is never
 * read to the end of a large upload no one wants.
 */
function lingerOnUnreadBody(req: Request, res: Response): void {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    const timer = setTimeout(() => req.socket?.destroy(), UPLOAD_LINGER_MS).unref();
    const done = () => clearTimeout(timer);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

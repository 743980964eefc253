import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { IDEMPOTENCY_KEY_HEADER, type Principal, rolesAllow } from '@dsar/contracts';
import { AuthenticationError, Authenticator } from '@dsar/platform/auth';
import { ProblemError } from '@dsar/platform/errors';
import { acceptedMediaType, assertNormalizedPath, pathOf, strictJsonBody } from '@dsar/platform/http';
import { parseIdempotencyKey, requestFingerprint } from '@dsar/platform/idempotency';
import { requestIdOf } from '@dsar/platform/observability';
import { Forwarder } from './forwarder';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import type { GatewaySettings } from './gateway-settings';
import { CallerRateLimiter } from './rate-limiter';
import { RouteMatcher } from './route-matcher';
import { ROUTES } from './routes';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The public REST surface under /api/v1. For each call, in this order: path
 * (400 for a path not in normalized form), route (404/405), authentication
 * (401), authorization (403), rate limit (429), body (415/400/413),
 * idempotency key (400), then the owning service. Nothing is read from the
 * body before the caller is known. HEAD is answered for every GET route like
 * the GET, without the body.
 */
@Controller('api/v1')
export class GatewayController {
  private readonly matcher = new RouteMatcher(ROUTES);
  private readonly authenticator: Authenticator;
  private readonly limiter: CallerRateLimiter;
  private readonly readJson: (req: Request) => Promise<void>;

  constructor(
    private readonly forwarder: Forwarder,
    @Inject(GATEWAY_SETTINGS) settings: GatewaySettings,
  ) {
    this.authenticator = new Authenticator(settings.auth);
    this.limiter = new CallerRateLimiter(settings.rateLimitPerMinute);
    const parser = strictJsonBody(settings.bodyLimit);
    this.readJson = (req) => new Promise((resolve, reject) => parser(req, {} as Response, (err?: unknown) => (err ? reject(err) : resolve())));
  }

  @All(['', '*path'])
  async handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    // The path as the client sent it, checked before anything else: a dot segment (`..`, `%2e%2e`), an encoded
    // slash or a backslash would let the path that is authorized differ from the one the service receives.
    const target = req.originalUrl;
    assertNormalizedPath(target);
    if (!/^\/api\/v1(?:[/?]|$)/.test(target)) throw new ProblemError('ROUTE_NOT_FOUND', 'No endpoint answers this path.');
    const pathAndQuery = target.slice('/api/v1'.length);
    const apiPath = pathOf(pathAndQuery) || '/';
    const head = req.method === 'HEAD';
    const { route } = this.matcher.resolve(req.method, apiPath);
    const principal = await this.authenticate(req);
    if (!rolesAllow(principal.roles, route.permission)) {
      throw new ProblemError('PERMISSION_DENIED', `The roles ${principal.roles.join(', ') || '(none)'} may not ${route.summary.toLowerCase()} (needs ${route.permission}).`);
    }
    for (const [k, v] of Object.entries(await this.limiter.consume(principal))) res.setHeader(k, v);
    const body = route.body ? await this.readBody(req) : undefined;
    const idempotencyKey = route.method === 'POST' || route.method === 'PUT' ? parseIdempotencyKey(req.headers[IDEMPOTENCY_KEY_HEADER]) : undefined;
    const forward = {
      route,
      pathAndQuery,
      principal,
      requestId: String((req as Request & { id?: unknown }).id ?? requestIdOf(req)),
      traceparent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined,
      idempotencyKey,
      fingerprint: idempotencyKey !== undefined ? requestFingerprint(route.method, apiPath, body?.parsed) : undefined,
      contentType: body ? 'application/json' : undefined,
      body: body?.raw,
    };
    const accept = req.headers.accept;
    const wantsFile = route.file !== undefined && accept !== undefined && acceptedMediaType(accept, route.file.mediaTypes) !== undefined;
    const answer = wantsFile ? await this.forwarder.forwardFile(forward, accept) : await this.forwarder.forward(forward);
    for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
    res.status(answer.status);
    if ('stream' in answer) {
      if (head) {
        await answer.stream.cancel().catch(() => undefined);
        res.end();
        return;
      }
      // Once the file has started, a failure can only cut the response short.
      await pipeline(Readable.fromWeb(answer.stream as WebReadableStream), res).catch(() => res.destroy());
      return;
    }
    // The same headers for HEAD as for GET, Content-Length included; Node sends no body for a HEAD.
    res.setHeader('Content-Length', answer.body.length);
    res.end(head ? undefined : answer.body);
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

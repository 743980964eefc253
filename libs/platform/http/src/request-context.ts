import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '@dsar/contracts';
import { assignRequestId } from '@dsar/platform/observability';
import { type InternalAuthKey, verifiedPrincipalOf } from './internal-identity';

/** The W3C trace context header: passed on unchanged from service to service. */
export const TRACEPARENT_HEADER = 'traceparent';

/**
 * What every call a service makes while it serves one incoming request carries on (docs/security.md, "Internal
 * identity"): the request's id, its trace context, and the caller the request was signed for, with the key to sign
 * it again. Set once per request by the host (`requestContext`); read by `callService`, so that no caller copies
 * these by hand.
 */
export interface RequestContext {
  readonly requestId: string;
  readonly traceparent?: string;
  /** The verified caller of the request (absent on the edge, on a refused signature, and on calls without identity). */
  readonly identity?: { readonly key: InternalAuthKey; readonly principal: Principal };
}

const current = new AsyncLocalStorage<RequestContext>();

/** The context of the request being served, or undefined outside one (start-up, a periodic job, a consumer). */
export function currentRequestContext(): RequestContext | undefined {
  return current.getStore();
}

/** Runs `work` with `context` as the request context of everything it calls, awaits included. */
export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return current.run(context, work);
}

function headerOf(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The verified caller of a request; none when its identity headers were missing or refused (the handler refuses it then). */
function verifiedCaller(req: Request): Principal | undefined {
  try {
    return verifiedPrincipalOf(req);
  } catch {
    return undefined;
  }
}

/**
 * Express middleware of every service: the rest of the request, its handler included, runs in the request's
 * context. It goes after the internal identity check (whose verdict it reads) and the body parser. `key` is the
 * service's internal auth key; without one (the edge, which authenticates its callers itself) no identity is kept.
 */
export function requestContext(key?: InternalAuthKey) {
  return (req: Request, res: Response, next: NextFunction) => {
    const principal = key ? verifiedCaller(req) : undefined;
    const traceparent = headerOf(req, TRACEPARENT_HEADER);
    const context: RequestContext = {
      requestId: assignRequestId(req, res),
      ...(traceparent !== undefined ? { traceparent } : {}),
      ...(key && principal ? { identity: { key, principal } } : {}),
    };
    runInRequestContext(context, next);
  };
}

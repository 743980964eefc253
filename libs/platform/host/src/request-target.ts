import type { NextFunction, Request, Response } from 'express';
import { ErrorCatalog } from '@dsar/contracts';
import { PROBLEM_CONTENT_TYPE, problemFrom } from '@dsar/platform/errors';
import { REQUEST_ID_HEADER, requestIdOf } from '@dsar/platform/observability';

/**
 * The longest request target (path and query string) a service takes, in characters: 8 KiB, the limit of common
 * servers and proxies (RFC 9112 §3 asks for at least 8000 octets). No route of the API comes near it: a path is a few
 * ids long, and a query a few short parameters. Node refuses a request line and headers of more than 16 KiB together
 * (`--max-http-header-size`) on its own, with a bare 431 before any of this code runs.
 */
export const MAX_REQUEST_TARGET_LENGTH = 8192;

/**
 * Refuses a request target longer than MAX_REQUEST_TARGET_LENGTH with 414 URI_TOO_LONG, before it is routed,
 * authenticated or logged: nothing downstream, the path checks and the log scrubber included, ever handles more.
 * The answer is written here rather than by the problem+json filter, which would echo the target as `instance`.
 */
export function refuseLongRequestTargets(max = MAX_REQUEST_TARGET_LENGTH) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = req.url?.length ?? 0;
    if (length <= max) return next();
    const requestId = requestIdOf(req);
    const problem = problemFrom(ErrorCatalog.URI_TOO_LONG, {
      detail: `The request target has ${length} characters; at most ${max} are taken.`,
      requestId,
    });
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  };
}

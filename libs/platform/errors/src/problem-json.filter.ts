import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, throwError } from 'rxjs';
import { ErrorCatalog, type ErrorDefinition, errorByCode, PERSONAL_QUERY_PARAMETERS } from '@dsar/contracts';
import { errorForLog, REQUEST_ID_HEADER, requestIdOf } from '@dsar/platform/observability';
import { ProblemError } from './domain-error';
import { isInfrastructureUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './infrastructure-unavailable';
import { PROBLEM_CONTENT_TYPE, type ProblemDetails, problemFrom } from './problem-details';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

const byStatus: Record<number, ErrorDefinition> = {
  [HttpStatus.BAD_REQUEST]: ErrorCatalog.REQUEST_VALIDATION_FAILED,
  [HttpStatus.UNAUTHORIZED]: ErrorCatalog.AUTHENTICATION_REQUIRED,
  [HttpStatus.FORBIDDEN]: ErrorCatalog.PERMISSION_DENIED,
  [HttpStatus.NOT_FOUND]: ErrorCatalog.RESOURCE_NOT_FOUND,
  [HttpStatus.PAYLOAD_TOO_LARGE]: ErrorCatalog.PAYLOAD_TOO_LARGE,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: ErrorCatalog.UNSUPPORTED_MEDIA_TYPE,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCatalog.RATE_LIMITED,
  [HttpStatus.SERVICE_UNAVAILABLE]: ErrorCatalog.SERVICE_UNAVAILABLE,
  [HttpStatus.GATEWAY_TIMEOUT]: ErrorCatalog.UPSTREAM_TIMEOUT,
};

/**
 * Turns every error of an HTTP route into `application/problem+json`:
 * product errors keep their catalog code, body-parser failures become
 * REQUEST_BODY_INVALID_JSON or PAYLOAD_TOO_LARGE, Nest's HTTP exceptions map by
 * status, a database (or other server) that cannot be reached is a 503 with
 * Retry-After, and anything unexpected is a 500 whose detail hides internals.
 */
@Catch()
export class ProblemJsonFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void | Observable<never> {
    // Event handlers (the bus transport) need the original error to retry and
    // to record it with a dead letter; Nest's RPC default would replace it.
    if (host.getType() !== 'http') return throwError(() => exception);
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: string }>();
    const res = ctx.getResponse<Response>();
    let requestId = req.id ?? (res.getHeader(REQUEST_ID_HEADER) as string | undefined);
    if (!requestId && !res.headersSent) {
      // Errors raised before the request logger ran (the body parser's) have no id yet: give them one the same way.
      requestId = requestIdOf(req);
      res.setHeader(REQUEST_ID_HEADER, requestId);
    }
    const { problem, headers } = this.toProblem(exception, req, requestId);
    // Only what errorForLog keeps: never the body, the query's parameters or the driver's detail (docs/security.md#what-is-never-logged).
    if (problem.status >= 500) {
      const context = { err: errorForLog(exception), requestId, method: req.method, path: (req.originalUrl ?? req.url ?? '').split('?')[0] };
      // A dependency that is down is an operations matter, seen on /health/ready and the metrics; not one error per request.
      if (problem.status === 503) this.logger.warn(context, 'request refused: a dependency is unavailable');
      else this.logger.error(context, 'request failed');
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown, req: Request, requestId?: string): { problem: ProblemDetails; headers: Record<string, string> } {
    const instance = instanceOf(req.originalUrl ?? req.url);
    if (exception instanceof ProblemError) {
      return {
        problem: problemFrom(exception.definition, {
          detail: exception.detail,
          instance,
          requestId,
          errors: exception.errors,
          extensions: exception.extensions,
          status: exception.status,
        }),
        headers: exception.headers,
      };
    }
    const parserError = exception as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      return {
        problem: problemFrom(ErrorCatalog.REQUEST_BODY_INVALID_JSON, {
          detail: 'The body could not be parsed as JSON: it is malformed, empty or truncated.',
          instance,
          requestId,
        }),
        headers: {},
      };
    }
    if (parserError?.type === 'entity.too.large') {
      return {
        problem: problemFrom(ErrorCatalog.PAYLOAD_TOO_LARGE, { detail: 'The body exceeds the size limit.', instance, requestId }),
        headers: {},
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const fromBody = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const code = typeof fromBody['code'] === 'string' ? errorByCode(fromBody['code']) : undefined;
      const def =
        code ??
        (status === 404 && /^Cannot [A-Z]+ /.test(String(fromBody['message'] ?? ''))
          ? ErrorCatalog.ROUTE_NOT_FOUND
          : (byStatus[status] ?? (status >= 500 ? ErrorCatalog.INTERNAL_ERROR : ErrorCatalog.REQUEST_VALIDATION_FAILED)));
      const message = fromBody['message'];
      const detail = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message;
      const extensions: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(fromBody)) if (!['message', 'error', 'statusCode', 'code'].includes(k)) extensions[k] = v;
      const problem = problemFrom(def, { detail, instance, requestId, extensions });
      problem.status = status;
      return { problem, headers: {} };
    }
    if (isInfrastructureUnavailable(exception)) {
      // The database is down or restarting: the request may succeed in a moment, and /health/ready says so too.
      return {
        problem: problemFrom(ErrorCatalog.SERVICE_UNAVAILABLE, {
          detail: 'A server this service depends on cannot be reached right now. Retry after the time in Retry-After.',
          instance,
          requestId,
        }),
        headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      };
    }
    return {
      problem: problemFrom(ErrorCatalog.INTERNAL_ERROR, {
        detail: 'An unexpected error occurred. Quote the requestId when reporting it.',
        instance,
        requestId,
      }),
      headers: {},
    };
  }
}

/**
 * The request target as a problem's `instance`: the path and query, with the value of a parameter that holds a
 * person's identity (PERSONAL_QUERY_PARAMETERS) replaced, so that the answer does not repeat it.
 */
export function instanceOf(target: string): string {
  const q = target.indexOf('?');
  if (q < 0) return target;
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return PERSONAL_QUERY_PARAMETERS.includes(name) ? `${name}=[REDACTED]` : pair;
    });
  return `${target.slice(0, q)}?${pairs.join('&')}`;
}

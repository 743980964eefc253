import type { z } from 'zod';
import type { ErrorName, Permission } from '@dsar/contracts';

/*
 * The shape of a public route, in a module of its own: the route table (routes.ts and the area files it
 * concatenates), the gateway and the OpenAPI document all take their types from here, so no area file imports the
 * table it is part of.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request header an upload route takes, by its name (`X-Evidence-Kind`). */
export interface UploadHeader {
  /** A call without it is refused (400 REQUEST_VALIDATION_FAILED) before a byte of the body is read. */
  required: boolean;
  description: string;
  /** The value's form: checked by the gateway before the upload starts (400), and published. The service checks again. */
  schema?: z.ZodType;
}

/** A request header a route passes on to its service (`passHeaders`). */
export interface PassedHeader {
  /** Published as required; a call without it is still forwarded, for the service to answer. */
  required: boolean;
  description: string;
}

/** What a route answers with. A download route answers with its file, every other one with JSON. */
type RouteAnswer =
  | {
      /**
       * The answer of success: its status and body (a 204 has none, its schema `z.undefined()`). `alsoStatuses`
       * are other success statuses with the same body, e.g. a PUT's 201 when it created what it names.
       */
      response: { status: number; schema: z.ZodType; description: string; alsoStatuses?: Readonly<Record<number, string>> };
      download?: undefined;
    }
  | {
      response?: undefined;
      /**
       * The route always answers with a file the service streams (no Accept
       * negotiation): the gateway passes the client's `Range`, `If-None-Match`
       * and `If-Range` on, and streams back a 200, 206, 304 or 416 with its
       * `Content-Type`, `Content-Length`, `Content-Disposition`, `ETag`,
       * `Accept-Ranges`, `Content-Range` and `Cache-Control`, and the headers
       * named here. A problem (JSON) is returned as for any route. HEAD answers
       * the headers of the GET.
       */
      download: { status: 200; description: string; headers: Readonly<Record<string, string>> };
    };

/**
 * One public endpoint: where it forwards, who may call it, and its contract.
 * The gateway's routing, authorization and OpenAPI document all come from
 * this table, so they cannot disagree.
 */
export type GatewayRoute = RouteAnswer & {
  method: HttpMethod;
  /** Path under /api/v1, with `:name` parameters. */
  path: string;
  /** The owning service; the call goes to its `/internal/v1` + path. */
  service: string;
  /**
   * Who may call it; `public` for a provider's webhook (`webhook`), which its signature authenticates instead of a
   * token, and for a route of the person's download page (`portal`), which the link's credential or session does.
   */
  permission: Permission | typeof PUBLIC;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  body?: z.ZodType;
  /** The JSON body may be left out (every field of `body` has a default); published as a request body that is not required. */
  bodyOptional?: boolean;
  query?: z.ZodType;
  /** Errors the route itself can answer with, beyond the ones every route shares. */
  errors: ErrorName[];
  /**
   * A derived view served by another service than the request's owner: the
   * gateway first reads the request from lifecycle-clock (tenant check, and
   * the newest event id) and has the view wait until it has caught up.
   */
  readYourWrites?: boolean;
  /**
   * With `readYourWrites`: the view outlives the request's record (the audit chain, after retention purged the
   * request in lifecycle-clock). When the owner no longer knows the request, a tenant-wide caller still gets the
   * view, which answers 404 itself when it holds nothing for the caller's tenant; a caller confined to a
   * workspace gets the owner's 404, since the request's workspace can no longer be checked.
   */
  outlivesRequest?: boolean;
  /**
   * The route acts on (or reveals) the whole tenant, not one workspace: a tenant-wide setting, a report over every
   * workspace, or a resource no workspace owns. A caller confined to a workspace is refused with 403
   * PERMISSION_DENIED after its role check and before the call is forwarded; the owning service refuses it too.
   * A route without it acts only within the caller's workspace (docs/security.md, "Tenancy and workspaces").
   */
  tenantWide?: true;
  /**
   * The route also answers with a streamed file when the client's Accept
   * names one of these media types; the gateway passes the stream through
   * without holding it. With `ranges`, the file is served like a `download`:
   * the client's `Range`, `If-None-Match` and `If-Range` go to the service,
   * and its 200, 206, 304 or 416 comes back with the download headers
   * (`Content-Length`, `Content-Range`, `ETag`, …).
   */
  file?: { status: number; mediaTypes: readonly string[]; description: string; headers: Readonly<Record<string, string>>; ranges?: boolean };
  /**
   * Request headers of the client the gateway passes on to the service, by
   * name: `X-` headers of the route's own (no other client header reaches a
   * service), published as header parameters. The service checks them; the
   * gateway only passes what was sent.
   */
  passHeaders?: Readonly<Record<string, PassedHeader>>;
  /**
   * The body is a file of any size (a POST, PUT or PATCH without `body`),
   * streamed to the service as it arrives, never held by the gateway, always
   * as `application/octet-stream` (the file's own type is one of the headers
   * named here). Passed on: `Content-Length` when the client sent one, and the headers named here,
   * which must be `X-` headers of the route's own (no other client header
   * is). A body with a `Content-Encoding`, or labelled as JSON (the type of
   * commands, not of files), is refused (415). An upload that
   * stops moving for UPLOAD_IDLE_TIMEOUT_MS is given up (504); there is no
   * total deadline.
   */
  upload?: { headers: Readonly<Record<string, UploadHeader>>; description: string };
  /**
   * A provider's webhook (docs/webhooks.md): public (`permission: 'public'`:
   * no token, no per-caller rate limit), because the owning service checks
   * the provider's signature over the exact bytes of the body. So the body
   * is streamed to the service untouched, as `application/octet-stream`,
   * never parsed or re-encoded here; the client must send it as JSON
   * (415 otherwise) without a Content-Encoding (415). The headers named
   * here (the signature's, lower case) are passed on when sent, and no
   * other client header is. `body` is what the document publishes.
   */
  webhook?: { description: string; body: z.ZodType; headers: Readonly<Record<string, PassedHeader>> };
  /**
   * A route of the person's download page (docs/delivery.md): public (`permission: 'public'`: no token), limited per
   * client address (PORTAL_RATE_LIMIT_PER_MINUTE), forwarded with no caller. The owning service lets a call through
   * on the secrets of its passed headers (the link's credential, the session its code answered). `description` says
   * so in the OpenAPI document.
   */
  portal?: { description: string };
  /**
   * Why this POST or PUT does not honour an `Idempotency-Key` (the gateway still refuses a malformed one, 400, and
   * the service records nothing under it), in words the OpenAPI document publishes. Every other POST and PUT
   * honours one, uploads included, and lists IDEMPOTENCY_ERRORS (`routeTableProblems`).
   */
  idempotencyExempt?: string;
};

/** The permission of a route that takes no token: a provider's webhook, authenticated by its signature. */
export const PUBLIC = 'public';

import { z } from 'zod';
import {
  ErrorCatalog,
  type ErrorName,
  errorStatuses,
  EVIDENCE_ARTIFACT_KEY_PATTERN,
  IDEMPOTENCY_KEY_PATTERN,
  PACK_ID,
  PERMISSIONS,
  PRODUCT_VERSION,
  ROLE_PERMISSIONS,
  type Role,
  SHORT_REFERENCE_PATTERN,
  SYSTEM_KEY_PATTERN,
} from '@dsar/contracts';
import { MAX_LISTED_FIELD_PROBLEMS } from '@dsar/platform/errors';
import { BODY_ERRORS, COMMON_ERRORS, PUBLIC_COMMON_ERRORS } from './route-errors';
import { type GatewayRoute, PUBLIC } from './route-types';
import { ROUTES } from './routes';

type JsonSchema = Record<string, unknown>;
type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, JsonSchema> } };

/** Converts a contract to JSON Schema 2020-12 (OpenAPI 3.1's dialect), moving named schemas into components. */
function schemaOf(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  delete json.$schema;
  const relink = (s: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(s).replace(/"#\/\$defs\//g, '"#/components/schemas/'));
  for (const [name, def] of Object.entries(defs)) components[name] ??= relink(def);
  const id = typeof json.id === 'string' ? json.id : undefined;
  if (id) {
    delete json.id;
    components[id] ??= relink(json);
    return { $ref: `#/components/schemas/${id}` };
  }
  return relink(json);
}

const problemSchema: JsonSchema = {
  type: 'object',
  description: "RFC 9457 problem details with the product's code, name and request id (docs/errors.md).",
  required: ['type', 'title', 'status', 'code', 'name'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    code: { type: 'string', enum: Object.values(ErrorCatalog).map((d) => d.code) },
    name: { type: 'string', enum: Object.keys(ErrorCatalog) },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      maxItems: MAX_LISTED_FIELD_PROBLEMS,
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    errorCount: {
      type: 'integer',
      description: `How many field problems there were, when \`errors\` lists only the first ${MAX_LISTED_FIELD_PROBLEMS}; absent otherwise.`,
    },
  },
};

/** Errors of an upload route's body and headers, answered by the gateway or the owning service. */
const UPLOAD_ERRORS: ErrorName[] = ['REQUEST_VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'CONTENT_ENCODING_UNSUPPORTED'];

/** Errors of a webhook's body: read by the service as bytes, then as JSON of the provider's shape. */
const WEBHOOK_BODY_ERRORS: ErrorName[] = ['REQUEST_BODY_INVALID_JSON', 'REQUEST_VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'CONTENT_ENCODING_UNSUPPORTED'];

function errorResponses(route: GatewayRoute): Record<string, unknown> {
  const names: ErrorName[] = [
    ...new Set([
      ...(route.body ? BODY_ERRORS : []),
      ...(route.upload ? UPLOAD_ERRORS : []),
      ...(route.webhook ? WEBHOOK_BODY_ERRORS : []),
      ...route.errors,
      ...(route.permission === PUBLIC ? PUBLIC_COMMON_ERRORS : COMMON_ERRORS),
    ]),
  ];
  const byStatus = new Map<number, ErrorName[]>();
  // A code answered with several statuses (SVC-BE-1206: 400, or 503 when storage fails) is listed under each.
  for (const n of names) for (const status of errorStatuses(ErrorCatalog[n])) byStatus.set(status, [...(byStatus.get(status) ?? []), n]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((n) => `\`${ErrorCatalog[n].code}\` ${n}: ${ErrorCatalog[n].meaning}`).join('\n\n'),
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } } } : {}),
        },
      ]),
  );
}

function rolesWith(permission: string): string {
  return (Object.entries(ROLE_PERMISSIONS) as [Role, readonly string[]][])
    .filter(([, perms]) => perms.includes(permission))
    .map(([r]) => `\`${r}\``)
    .join(', ');
}

const BINARY: JsonSchema = { type: 'string', format: 'binary' };

/** The operation's extension saying whether it is tenant-wide (docs/security.md, "Tenancy and workspaces"). */
export const TENANT_WIDE_EXTENSION = 'x-dsar-tenant-wide';

/** What a caller confined to a workspace may do on the route, in words. */
function scopeOf(route: GatewayRoute): string {
  return route.tenantWide ? 'Tenant-wide: a caller confined to a workspace is refused (403 `SVC-BE-1302`).' : 'A caller confined to a workspace acts within that workspace only.';
}

/** Headers of a response, documented like a file's: name → description, as strings. */
function headersOf(described: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(described).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
}

function fileResponse(file: NonNullable<GatewayRoute['file']>): Record<string, unknown> {
  return {
    description: `${file.description} Sent when \`Accept\` names ${file.mediaTypes.map((t) => `\`${t}\``).join(' or ')}.`,
    headers: headersOf(file.ranges ? { ...DOWNLOAD_HEADERS, ...file.headers } : file.headers),
    content: Object.fromEntries(file.mediaTypes.map((t) => [t, { schema: file.ranges ? BINARY : { type: 'string' } }])),
  };
}

/** The answers of a route with a `file`: the file, merged into the JSON answer when both have the same status; with `ranges`, also 206, 304 and 416. */
function fileResponses(file: NonNullable<GatewayRoute['file']>, json: Record<string, unknown> | undefined): Record<string, unknown> {
  const answer = fileResponse(file);
  const merged = json
    ? { description: `${String(json.description)} ${String(answer.description)}`, headers: answer.headers, content: { ...(json.content as object), ...(answer.content as object) } }
    : answer;
  const ranged = file.ranges ? downloadResponses({ status: 200, description: file.description, headers: file.headers }) : {};
  delete ranged['200'];
  return { ...ranged, [String(file.status)]: merged };
}

/** The headers every answer of a download route may carry, before the route's own. */
const DOWNLOAD_HEADERS: Readonly<Record<string, string>> = {
  'Content-Length': 'The number of bytes sent: the whole file, or the range.',
  'Content-Disposition': "The file's name (RFC 6266), with `filename*` (RFC 8187) when it is not plain ASCII.",
  ETag: 'The version of the file; send it back in `If-None-Match` or `If-Range`.',
  'Accept-Ranges': '`bytes` when a part of the file can be asked for with `Range`.',
  'Cache-Control': 'Whether and how long the file may be kept.',
  'X-Content-Type-Options': '`nosniff`: the file is only ever what its `Content-Type` says.',
};

/** The answers of a download route: the file (200), a part of it (206), not modified (304), no such part (416). */
function downloadResponses(download: NonNullable<GatewayRoute['download']>): Record<string, unknown> {
  // The file keeps the media type it was stored with (an artifact's is whatever its uploader declared): any.
  const binary = { '*/*': { schema: BINARY } };
  return {
    [String(download.status)]: {
      description: `${download.description} Streamed; its actual media type is in \`Content-Type\`.`,
      headers: headersOf({ ...DOWNLOAD_HEADERS, ...download.headers }),
      content: binary,
    },
    '206': {
      description: 'The one byte range asked for with `Range` (several ranges are answered with the whole file, 200).',
      headers: headersOf({ 'Content-Range': "The range sent and the file's size: `bytes 0-1023/4096`.", ...DOWNLOAD_HEADERS, ...download.headers }),
      content: binary,
    },
    '304': { description: 'The file has not changed since the version named in `If-None-Match`: no body.', headers: headersOf({ ETag: DOWNLOAD_HEADERS.ETag }) },
    '416': {
      description: 'The range asked for starts past the end of the file.',
      headers: headersOf({ 'Content-Range': "The file's size: `bytes */4096`." }),
    },
  };
}

/** The header parameters of a download: the range and the validators, passed to the service. */
const DOWNLOAD_PARAMETERS = [
  {
    name: 'Range',
    in: 'header',
    required: false,
    description:
      'One byte range of the file (RFC 9110 §14.2): `bytes=0-1023`, `bytes=1024-` or `bytes=-512` (the last 512). Answered with 206, or 416 when it starts past the end; several ranges get the whole file.',
    schema: { type: 'string', pattern: '^bytes=' },
  },
  { name: 'If-None-Match', in: 'header', required: false, description: 'The `ETag` of the copy held: 304 without a body when the file is unchanged.', schema: { type: 'string' } },
  { name: 'If-Range', in: 'header', required: false, description: 'The `ETag` of the copy a `Range` continues: when the file has changed, the whole file is sent (200).', schema: { type: 'string' } },
];

function operationOf(route: GatewayRoute, components: Record<string, JsonSchema>): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
    // Request and appeal ids are UUIDs; a pack id has its own form; the request detail also takes a short reference.
    const schema =
      name === 'packId'
        ? { type: 'string', pattern: PACK_ID.source }
        : name === 'systemKey'
          ? { type: 'string', pattern: SYSTEM_KEY_PATTERN.source }
          : name === 'artifactKey'
            ? { type: 'string', pattern: EVIDENCE_ARTIFACT_KEY_PATTERN.source }
            : name === 'idOrReference'
              ? {
                  anyOf: [
                    { type: 'string', format: 'uuid' },
                    { type: 'string', pattern: SHORT_REFERENCE_PATTERN.source },
                  ],
                }
              : name === 'id' || name.endsWith('Id')
                ? { type: 'string', format: 'uuid' }
                : { type: 'string' };
    parameters.push({ name, in: 'path', required: true, schema });
  }
  if (route.query) {
    const q = schemaOf(route.query, 'input', components);
    const resolved = (q.$ref ? components[String(q.$ref).replace('#/components/schemas/', '')] : q) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(resolved.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: resolved.required?.includes(name) ?? false, description, schema: rest });
    }
  }
  for (const [name, header] of Object.entries(route.upload?.headers ?? {})) {
    parameters.push({ name, in: 'header', required: header.required, description: header.description, schema: header.schema ? schemaOf(header.schema, 'input', components) : { type: 'string' } });
  }
  for (const [name, header] of Object.entries({ ...route.passHeaders, ...route.webhook?.headers })) {
    parameters.push({ name, in: 'header', required: header.required, description: header.description, schema: { type: 'string' } });
  }
  if (route.download || route.file?.ranges) parameters.push(...DOWNLOAD_PARAMETERS);
  // A webhook's repetitions are told apart by the provider's delivery id, not an Idempotency-Key.
  if ((route.method === 'POST' || route.method === 'PUT') && !route.webhook) {
    // An upload's body is hashed as it streams to the service (nothing of it is held for the comparison).
    const same = route.upload ? 'the same key, `Content-Type`, headers of the route and bytes (their SHA-256, computed as they stream)' : 'the same key and body';
    const honoured =
      route.idempotencyExempt === undefined
        ? `Makes the call safe to retry (IETF draft-ietf-httpapi-idempotency-key-header): ${same} replay the first response for 24 h, with \`Idempotent-Replayed: true\`; the same key with another request is a 422. `
        : `Not recorded on this route: ${route.idempotencyExempt} Its form is still checked. `;
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: honoured + '1 to 255 visible ASCII characters without spaces or `"`, bare or in double quotes.',
      schema: { type: 'string', minLength: 1, maxLength: 257, pattern: IDEMPOTENCY_KEY_PATTERN.source },
    });
  }
  // A 204 has no body, so no content to publish.
  const json = route.response
    ? route.response.status === 204
      ? { description: route.response.description }
      : { description: route.response.description, content: { 'application/json': { schema: schemaOf(route.response.schema, 'output', components) } } }
    : undefined;
  const also = Object.entries(route.response?.alsoStatuses ?? {}).map(([status, description]) => [status, { ...json, description }]);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [
      route.description,
      route.portal
        ? route.portal.description
        : route.permission === PUBLIC
          ? "Public: no bearer token; the provider's signature authenticates each delivery (docs/webhooks.md)."
          : `Permission \`${route.permission}\` (${PERMISSIONS[route.permission]}), held by ${rolesWith(route.permission)}. ${scopeOf(route)}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [route.tag],
    ...(route.permission === PUBLIC ? { security: [] } : { [TENANT_WIDE_EXTENSION]: route.tenantWide === true }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: !route.bodyOptional, content: { 'application/json': { schema: schemaOf(route.body, 'input', components) } } } } : {}),
    ...(route.webhook
      ? {
          requestBody: {
            required: true,
            description: `${route.webhook.description} Without a \`Content-Encoding\` (415); the signature covers these bytes exactly.`,
            content: { 'application/json': { schema: schemaOf(route.webhook.body, 'input', components) } },
          },
        }
      : {}),
    ...(route.upload
      ? {
          requestBody: {
            required: true,
            description: `${route.upload.description} Streamed as it is sent: the raw bytes of the file (at least one), stored as they arrive; a JSON or multipart \`Content-Type\` (a command, a form such as \`curl -F\`) is a 415, any other is taken as bytes (the file's own type goes in the route's content-type header); without a \`Content-Encoding\` (415).`,
            // A file of 0 bytes is no file (400): the schema says so, as it says the rest of what the body must be.
            content: { 'application/octet-stream': { schema: { ...BINARY, minLength: 1 } } },
          },
        }
      : {}),
    responses: {
      ...(route.response && json ? { [String(route.response.status)]: json } : {}),
      ...Object.fromEntries(also),
      ...(route.download ? downloadResponses(route.download) : {}),
      ...(route.file ? fileResponses(route.file, route.response?.status === route.file.status ? json : undefined) : {}),
      ...errorResponses(route),
    },
  };
}

/** The OpenAPI 3.1 document of the public API, built from the gateway's route table and the contracts. */
export function buildOpenApiDocument(routes: readonly GatewayRoute[] = ROUTES): OpenApiDocument {
  const components: Record<string, JsonSchema> = { Problem: problemSchema };
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'DSAR service API',
      version: PRODUCT_VERSION,
      description:
        'The REST API of the data subject request service. `{base_url}` is `http(s)://host:port/api/v1`. ' +
        'Every route needs `Authorization: Bearer <token>` (an API key or a JWT; docs/security.md), except the inbound ' +
        "webhooks, which the providers' signatures authenticate (docs/webhooks.md), and the person's download page, which " +
        'the link it was sent authenticates (docs/delivery.md). Errors are ' +
        '`application/problem+json` with a stable `code` (docs/errors.md).',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/api/v1', description: 'This deployment' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Requests', description: 'Intake, queue, detail and timeline of data subject requests.' },
      { name: 'Lifecycle', description: 'The request workflow: acknowledgement, clarification, refusal, closure, requestor and authority (docs/lifecycle.md).' },
      { name: 'Appeals', description: "Appeals against a request's outcome and their decisions (docs/lifecycle.md)." },
      { name: 'Verification', description: 'Identity verification cases: evidence and its encrypted files, decisions, reminders and expiry (docs/verification.md).' },
      { name: 'Fulfilment', description: 'Fulfilment manifests: artifacts (encrypted files), their review, the fulfilment callback and the fulfilment (docs/fulfilment.md).' },
      { name: 'Delivery', description: 'Delivery of the fulfilled data: preparation, address check, the step-up gate, gated downloads and the delivery log (docs/fulfilment.md#delivery).' },
      { name: 'Notifications', description: 'Messages to data subjects and operators caused by a request, their attempts, and replay (docs/notifications.md).' },
      { name: 'Retention', description: 'Retention policies per tenant and class of records, enforced by the services that own them, with legal hold and a purge report (docs/retention.md).' },
      { name: 'Clock', description: 'The legal deadline of a request: its explanation, pauses and extensions (docs/clock.md).' },
      { name: 'Audit', description: 'The tamper-evident audit chain of each request: export, verification and signed checkpoints (docs/audit.md).' },
      { name: 'Policies', description: "The policy packs that hold each jurisdiction's deadline rules (docs/policy-packs/README.md)." },
      { name: 'Download page', description: "The person's download page: a link sent by email, a one-time code, and the files (docs/delivery.md). Public: the link authenticates, not a token." },
      {
        name: 'Stats',
        description:
          "The tenant's figures: open requests by status, at risk and overdue, time to close, data-system tasks past their due date (docs/lifecycle.md#figures, docs/data-systems.md#figures).",
      },
      { name: 'Webhooks', description: 'Public endpoints the email provider and Slack call, authenticated by their signatures instead of a token (docs/webhooks.md).' },
    ],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: "A static API key (DSAR_API_KEYS) or a JWT (HS256 or the OIDC issuer's keys) with `tenant_id`, `workspace_id` and `roles` claims." },
      },
    } as OpenApiDocument['components'],
  };
}

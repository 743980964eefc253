import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildOpenApiDocument, ROUTES } from '@dsar/services/api-gateway';
import { API_README_PATH, OPENAPI_JSON_PATH, renderOpenApiJson, withEndpointTable } from './export-openapi';

/**
 * docs/api/openapi.json is the API reference kept in the repository; it must
 * be exactly what the gateway serves at /api/v1/openapi.json, and that
 * document must be a usable OpenAPI 3.1 description.
 */

const REGENERATE = 'node tools/scripts/run-ts.cjs tools/scripts/export-openapi.ts';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Json = unknown;
type Operation = { operationId?: unknown; responses?: Record<string, unknown>; security?: unknown[] };

function operations(doc: { paths: Record<string, Record<string, unknown>> }): { label: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({ label: `${method.toUpperCase()} ${p}`, op: op as Operation })),
  );
}

/** Every `$ref` in the document, with where it was found. */
function refsOf(node: Json, at = '#', found: { at: string; ref: string }[] = []): { at: string; ref: string }[] {
  if (Array.isArray(node)) node.forEach((v, i) => refsOf(v, `${at}/${i}`, found));
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') found.push({ at, ref: v });
      else refsOf(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
    }
  }
  return found;
}

/** Resolves a local JSON pointer reference (RFC 6901); undefined when it points nowhere. */
function resolveRef(doc: Json, ref: string): Json {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json = doc;
  for (const raw of ref.slice(2).split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, Json>)[token];
  }
  return node;
}

describe('docs/api/openapi.json', () => {
  it('is the document the gateway serves (regenerate it when the API changes)', () => {
    let committed: string;
    try {
      committed = readFileSync(OPENAPI_JSON_PATH, 'utf8');
    } catch {
      throw new Error(`${path.relative(process.cwd(), OPENAPI_JSON_PATH)} is missing: run \`${REGENERATE}\``);
    }
    if (committed !== renderOpenApiJson()) {
      throw new Error(`docs/api/openapi.json differs from the generated OpenAPI document: run \`${REGENERATE}\``);
    }
  });
});

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument();

  it('is OpenAPI 3.1 with its info, paths and bearer security', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    for (const p of Object.keys(doc.paths)) expect(p).toMatch(/^\//);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect((doc.components as Record<string, Record<string, unknown>>).securitySchemes?.['bearerAuth']).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });

  it('gives every operation a unique operationId, a 2xx response, and a 401 response when it needs a token', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const { label, op } of ops) {
      if (typeof op.operationId !== 'string' || op.operationId === '') problems.push(`${label}: no operationId`);
      else if (seen.has(op.operationId)) problems.push(`${label}: operationId ${op.operationId} also used by ${seen.get(op.operationId)}`);
      else seen.set(op.operationId, label);
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => /^2(\d\d|XX)$/.test(s))) problems.push(`${label}: no 2xx response`);
      // A public route (security: []) answers 401 only when it has a secret of its own to refuse (a webhook's signature).
      const needsToken = !(Array.isArray(op.security) && op.security.length === 0);
      if (needsToken && !statuses.includes('401')) problems.push(`${label}: no 401 response`);
    }
    expect(problems).toEqual([]);
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(0);
    const dangling = refs.filter(({ ref }) => resolveRef(doc, ref) === undefined).map(({ at, ref }) => `${at}: ${ref}`);
    expect(dangling).toEqual([]);
  });
});

describe('docs/api/README.md, the endpoint list', () => {
  const doc = readFileSync(API_README_PATH, 'utf8');

  it("names every endpoint of the gateway's route table once, and no other", () => {
    // The first cell of an endpoint row: `METHOD /path`, the path as OpenAPI writes it.
    const listed = [...doc.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    const served = ROUTES.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect({ missing: served.filter((e) => !listed.includes(e)), unknown: listed.filter((e) => !served.includes(e)) }).toEqual({ missing: [], unknown: [] });
    expect(listed).toHaveLength(new Set(listed).size);
  });

  it('is the list generated from the route table (regenerate it when the API changes)', () => {
    if (withEndpointTable(doc) !== doc) throw new Error(`the endpoint list of docs/api/README.md is out of date: run \`${REGENERATE}\``);
  });
});

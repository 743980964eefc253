import 'reflect-metadata';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { buildOpenApiDocument, type GatewayRoute, ROUTES } from '@dsar/services/api-gateway';

/**
 * Writes what is generated from the gateway's route table:
 *
 * - the OpenAPI document of the public API to docs/api/openapi.json, the same
 *   document the gateway serves at /api/v1/openapi.json;
 * - the table of every authenticated route with its permission and scope
 *   (tenant-wide or workspace) in docs/security.md, "Scope of each route";
 * - the list of every endpoint with its permission and summary in
 *   docs/api/README.md, between its endpoint list markers.
 *
 * Unit tests fail when any is out of date (openapi-doc.spec.ts,
 * route-scope-doc.spec.ts):
 *
 *   node tools/scripts/run-ts.cjs tools/scripts/export-openapi.ts
 */
export const OPENAPI_JSON_PATH = path.resolve(__dirname, '../../docs/api/openapi.json');
export const SECURITY_MD_PATH = path.resolve(__dirname, '../../docs/security.md');
export const API_README_PATH = path.resolve(__dirname, '../../docs/api/README.md');
/** The lines around docs/api/README.md's generated endpoint list; everything between them is replaced. */
export const ENDPOINT_LIST_MARKERS = {
  begin: '<!-- endpoints:begin (generated from the route table by tools/scripts/export-openapi.ts; do not edit) -->',
  end: '<!-- endpoints:end -->',
} as const;
/** The heading whose table lists the routes' scopes. */
export const ROUTE_SCOPE_HEADING = '### Scope of each route';

/** The file's exact content: pretty JSON, two spaces, trailing newline. */
export function renderOpenApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/** The scope column's words: a tenant-wide route refuses a caller confined to a workspace; the others act within it. */
export const ROUTE_SCOPES = { tenantWide: 'tenant-wide', workspace: 'workspace' } as const;

/** The Markdown table of every route that takes a token, in the route table's order: the path as OpenAPI writes it, its permission and its scope. */
export function renderRouteScopeTable(routes: readonly GatewayRoute[] = ROUTES): string {
  const rows = routes
    .filter((r) => r.permission !== 'public')
    .map((r) => `| \`${r.method} ${openApiPath(r.path)}\` | \`${r.permission}\` | ${r.tenantWide ? ROUTE_SCOPES.tenantWide : ROUTE_SCOPES.workspace} |`);
  return ['| Route | Permission | Scope |', '|---|---|---|', ...rows].join('\n');
}

/** The Markdown table of every route, in the route table's order: the path as OpenAPI writes it, who may call it, its summary. */
export function renderEndpointTable(routes: readonly GatewayRoute[] = ROUTES): string {
  const rows = routes.map((r) => {
    const caller = r.permission === 'public' ? "public (the provider's signature)" : `\`${r.permission}\``;
    return `| \`${r.method} ${openApiPath(r.path)}\` | ${caller} | ${r.summary.replace(/\|/g, '\\|')}. |`;
  });
  return ['| Method and path | Permission | What it does |', '|---|---|---|', ...rows].join('\n');
}

/** docs/api/README.md with the lines between its endpoint list markers replaced by the generated table. */
export function withEndpointTable(doc: string, table = renderEndpointTable()): string {
  const begin = doc.indexOf(ENDPOINT_LIST_MARKERS.begin);
  const end = doc.indexOf(ENDPOINT_LIST_MARKERS.end);
  if (begin < 0 || end < begin) throw new Error(`docs/api/README.md has no endpoint list between "${ENDPOINT_LIST_MARKERS.begin}" and "${ENDPOINT_LIST_MARKERS.end}"`);
  return `${doc.slice(0, begin + ENDPOINT_LIST_MARKERS.begin.length)}\n\n${table}\n\n${doc.slice(end)}`;
}

function openApiPath(routePath: string): string {
  return routePath.replace(/:(\w+)/g, '{$1}');
}

/** docs/security.md with its route scope table replaced by one generated from the route table. */
export function withRouteScopeTable(doc: string, table = renderRouteScopeTable()): string {
  const lines = doc.split('\n');
  const heading = lines.findIndex((l) => l.trim() === ROUTE_SCOPE_HEADING);
  if (heading < 0) throw new Error(`docs/security.md has no "${ROUTE_SCOPE_HEADING}" heading`);
  const start = lines.findIndex((l, i) => i > heading && (l.trim().startsWith('|') || /^#{1,3} /.test(l)));
  if (start < 0 || !lines[start].trim().startsWith('|')) throw new Error(`no table under "${ROUTE_SCOPE_HEADING}" in docs/security.md`);
  let end = start;
  while (end < lines.length && lines[end].trim().startsWith('|')) end++;
  return [...lines.slice(0, start), table, ...lines.slice(end)].join('\n');
}

async function main(): Promise<void> {
  await mkdir(path.dirname(OPENAPI_JSON_PATH), { recursive: true });
  await writeFile(OPENAPI_JSON_PATH, renderOpenApiJson());
  const written = [OPENAPI_JSON_PATH];
  for (const [file, update] of [
    [SECURITY_MD_PATH, withRouteScopeTable],
    [API_README_PATH, withEndpointTable],
  ] as const) {
    const doc = await readFile(file, 'utf8');
    const updated = update(doc);
    // Written only when the generated part changed: the rest of each page is edited by hand.
    if (updated === doc) continue;
    await writeFile(file, updated);
    written.push(file);
  }
  for (const file of written) process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
}

// Run only as the entry point (run-ts.cjs puts it in argv[1]), not when a test imports the helpers above.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === __filename) {
  main().catch((e) => {
    process.stderr.write(`export-openapi failed: ${(e as Error).message}\n`);
    process.exit(1);
  });
}

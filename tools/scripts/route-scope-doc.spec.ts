import { readFileSync } from 'node:fs';
import { buildOpenApiDocument, type GatewayRoute, ROUTES } from '@dsar/services/api-gateway';
import { renderRouteScopeTable, ROUTE_SCOPES, SECURITY_MD_PATH, withRouteScopeTable } from './export-openapi';

/**
 * docs/security.md lists every route that takes a token with its permission and scope (tenant-wide or workspace):
 * it must be exactly what the gateway's route table says, and so must the OpenAPI document.
 */

const REGENERATE = 'node tools/scripts/run-ts.cjs tools/scripts/export-openapi.ts';

describe('docs/security.md, "Scope of each route"', () => {
  it('is the table generated from the route table', () => {
    const doc = readFileSync(SECURITY_MD_PATH, 'utf8');
    if (withRouteScopeTable(doc) !== doc) throw new Error(`the route scope table of docs/security.md is out of date: run \`${REGENERATE}\``);
  });

  it('lists every authenticated route once, and says tenant-wide exactly for the routes that are', () => {
    const table = renderRouteScopeTable().split('\n').slice(2);
    const authenticated = ROUTES.filter((r) => r.permission !== 'public');
    expect(table).toHaveLength(authenticated.length);
    expect(new Set(table).size).toBe(table.length);
    const tenantWide = table.filter((row) => row.endsWith(`| ${ROUTE_SCOPES.tenantWide} |`)).length;
    expect(tenantWide).toBe(authenticated.filter((r) => r.tenantWide).length);
    expect(tenantWide).toBeGreaterThan(0);
  });

  it('renders a route marked tenant-wide as tenant-wide, and any other as workspace', () => {
    const route = (tenantWide: boolean): GatewayRoute => ({
      method: 'PUT',
      path: '/tenants/:tenantId/things/:thingId',
      service: 'policy-registry',
      permission: 'retention:manage',
      operationId: 'putThing',
      summary: 'Put a thing',
      tag: 'Retention',
      response: { status: 202, schema: ROUTES[0].response!.schema, description: 'Done.' },
      errors: [],
      ...(tenantWide ? { tenantWide: true as const } : {}),
    });
    expect(
      renderRouteScopeTable([route(true), route(false)])
        .split('\n')
        .slice(2),
    ).toEqual(['| `PUT /tenants/{tenantId}/things/{thingId}` | `retention:manage` | tenant-wide |', '| `PUT /tenants/{tenantId}/things/{thingId}` | `retention:manage` | workspace |']);
  });

  it('the OpenAPI document marks each authenticated operation with x-dsar-tenant-wide, as the route table says', () => {
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const marked = ROUTES.map((r) => {
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')][r.method.toLowerCase()];
      return { route: `${r.method} ${r.path}`, mark: op['x-dsar-tenant-wide'], says: /Tenant-wide: a caller confined to a workspace is refused/.test(String(op.description)) };
    });
    expect(marked).toEqual(
      ROUTES.map((r) => ({
        route: `${r.method} ${r.path}`,
        mark: r.permission === 'public' ? undefined : r.tenantWide === true,
        says: r.tenantWide === true,
      })),
    );
  });
});

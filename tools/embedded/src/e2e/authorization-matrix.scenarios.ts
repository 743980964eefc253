import { type PolicyPack, policyPackVersion, type Role, ROLES, rolesAllow } from '@dsar/contracts';
import type { ApiKeyEntry } from '@dsar/platform/auth';
import { waitFor } from '@dsar/platform/testing';
import { CheckpointPublisher } from '@dsar/services/audit-ledger';
import { type GatewayRoute, ROUTES } from '@dsar/services/api-gateway';
import type { TestSystem } from './systems';
import { ApiClient, type ApiResponse, intake } from './api-client';

/**
 * Issue 35, finding 15: the authorization matrix, generated from the gateway's route table. Every route that takes
 * a token is called with every role, as a caller of the whole tenant and as one confined to workspace `north`, on
 * a resource of workspace `north`, of workspace `south`, of no workspace (the tenant's own) and of another tenant;
 * each answer is checked against what docs/security.md says: the roles table (ROLE_PERMISSIONS, which
 * libs/contracts/src/auth/security-doc.spec.ts keeps equal to it) and the scope of each route (`tenantWide`, which
 * tools/scripts/route-scope-doc.spec.ts keeps equal to it). A route joins by being in the table; a route whose path
 * names a parameter the matrix has no resource for fails here until one is given.
 *
 * Expected, in this order: a role without the route's permission is refused (403 `SVC-BE-1302`); so is a caller
 * confined to a workspace on a tenant-wide route; another tenant's resource is not found (404 `SVC-BE-1003`), and so
 * is, for a caller confined to `north`, a request of another workspace or of none; anything else gets past
 * authorization: the owning service answers with its own status (2xx, or a 4xx of the step such as 409 or 422),
 * never 401 `SVC-BE-1301`, 403 `SVC-BE-1302`, 404 `SVC-BE-1003` or a 5xx. Without a token every route is 401.
 */

const TENANT = 'matrix-a';
const OTHER_TENANT = 'matrix-b';
const WORKSPACE = 'north';
const OTHER_WORKSPACE = 'south';

/** Whose resource a call names. */
const OWNERS = ['workspace north', 'workspace south', 'no workspace', 'other tenant'] as const;
type Owner = (typeof OWNERS)[number];
type CallerKind = 'tenant-wide' | `workspace ${typeof WORKSPACE}`;
type Outcome = 'allowed' | 'refused (403)' | 'not found (404)' | 'unauthenticated (401)';

const matrixToken = (role: Role, confined: boolean) => `matrix-${role}-${confined ? WORKSPACE : 'tenant'}-key-0123456789`;
const MAKERS = {
  [OTHER_WORKSPACE]: 'matrix-a-south-admin-key-0123456789',
  [OTHER_TENANT]: 'matrix-b-admin-key-0123456789abcdef',
};

/** The keys of the matrix's system: one per role, of the whole tenant and of `north`; and the admins that make the other owners' resources. */
export function matrixApiKeys(): ApiKeyEntry[] {
  return [
    ...ROLES.flatMap((role) => [false, true].map((confined) => ({ token: matrixToken(role, confined), tenantId: TENANT, ...(confined ? { workspaceId: WORKSPACE } : {}), roles: [role] }))),
    { token: MAKERS[OTHER_WORKSPACE], tenantId: TENANT, workspaceId: OTHER_WORKSPACE, roles: ['admin'] },
    { token: MAKERS[OTHER_TENANT], tenantId: OTHER_TENANT, roles: ['admin'] },
  ];
}

/** The resources of one owner, by the path parameter that names them. */
interface Resources {
  tenantId: string;
  workspaceId?: string;
  /** An open request, acknowledged, with an identity evidence file, a manifest artifact and a notification. */
  id: string;
  artifactKey: string;
  artifactId: string;
  eventId: string;
  /** A closed request with an open appeal (`:appealId` routes take it as `:id`). */
  appealRequestId: string;
  appealId: string;
  /** The data-system task the open request `id` sent the tenant's system when it was acknowledged. */
  taskId: string;
  /** The owner's tenant's: a custom pack, an upgrade proposal, a signed checkpoint, and a data system another comes after (so that its deletion is refused, 409, and the matrix keeps it). */
  packId: string;
  systemKey: string;
  proposalId: string;
  checkpointId: string;
}

/** Path parameters naming a request or a part of one (the workspace's), and those naming a resource of the tenant. */
const REQUEST_PARAMS = new Set(['id', 'idOrReference', 'artifactKey', 'artifactId', 'eventId', 'appealId', 'taskId']);
const TENANT_PARAMS = new Set(['tenantId', 'packId', 'proposalId', 'checkpointId', 'systemKey']);

const paramsOf = (route: GatewayRoute) => [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);

function pathFor(route: GatewayRoute, r: Resources): string {
  const appeal = paramsOf(route).includes('appealId');
  return route.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'id') return appeal ? r.appealRequestId : r.id;
    // The request's detail route takes an id or its reference: the matrix names it by id (the reference resolves alike).
    if (name === 'idOrReference') return r.id;
    const value = r[name as keyof Resources];
    if (value === undefined) throw new Error(`no resource for :${name}`);
    return value;
  });
}

/** A custom pack for GB (the statutory UK pack under another name, a shorter period) and its registration. */
function registration(name: string, version: string, releaseType: 'major' | 'minor') {
  const pack = structuredClone(policyPackVersion('uk-gdpr', '1.0.0') as PolicyPack);
  pack.packId = name;
  pack.version = version;
  pack.name = `${name} service standard`;
  pack.rules.default.period = { amount: releaseType === 'major' ? 20 : 15, unit: 'calendar_days', countReceiptDay: false, roll: 'none' };
  return { jurisdiction: 'GB', name, version, pack, metadata: { changelog: `Release ${version}.`, compatibilityNotes: 'None.', releaseType } };
}

/** A call's body, headers and query string. */
interface CallInput {
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  query?: string;
}

/**
 * What each route is sent besides its path: a valid body and query, so that the owning service gets as far as
 * looking the resource up (input it refuses first would hide a missing tenant check behind a 400). A route that
 * takes input and is not listed gets none; the matrix then fails for it if its service checks the input before the
 * resource.
 */
const CALLS: Readonly<Record<string, (r: Resources) => CallInput>> = {
  submitRequest: () => ({ json: intake() }),
  captureRequest: () => ({ json: intake() }),
  verifyAuditChain: () => ({ json: { sequence: 1, hash: `sha256:${'0'.repeat(64)}` } }),
  revealRequestor: () => ({ json: { reason: 'The matrix reads the requestor.' } }),
  pauseRequestClock: () => ({ json: { reason: 'fee' } }),
  requestClarification: () => ({ json: { message: 'Which account do you mean?' } }),
  replaceRequestor: () => ({ json: { type: 'subject', name: 'Jane Doe', email: 'jane@example.org' } }),
  // The request's own type: an allowed caller gets 422 SVC-BE-1411 (nothing to change), and the request stays as it is.
  correctRequest: () => ({ json: { requestType: 'access', reason: 'Intake read the letter as an access request.' } }),
  submitAuthority: () => ({ json: { evidenceArtifacts: [{ type: 'power_of_attorney' }], status: 'submitted' } }),
  // No request of the matrix is marked: an allowed caller gets 409 SVC-BE-1413, and the request stays as it is.
  resolveDuplicate: () => ({ json: { resolution: 'separated', reason: 'The matrix separates it.' } }),
  fileAppeal: () => ({ json: { message: 'I disagree.' } }),
  decideAppeal: () => ({ json: { decision: 'deny' } }),
  recordVerificationEvidence: () => ({ json: { level: 'reasonable', evidenceArtifacts: [{ type: 'external', system: 'crm', reference: 'case-1' }], methodsAllowed: ['document'] } }),
  uploadVerificationEvidence: () => ({
    raw: '%PDF-1.7 matrix evidence',
    headers: { 'content-type': 'application/octet-stream', 'x-evidence-filename': 'id.pdf', 'x-evidence-content-type': 'application/pdf' },
  }),
  uploadManifestArtifact: () => ({
    raw: '{"matrix":true}',
    headers: { 'content-type': 'application/octet-stream', 'x-artifact-filename': 'export.json', 'x-artifact-content-type': 'application/json' },
  }),
  downloadManifestArtifact: (r) => ({ query: `artifactId=${r.artifactId}` }),
  replaceManifestArtifact: () => ({
    raw: '{"matrix":2}',
    headers: { 'content-type': 'application/octet-stream', 'x-artifact-filename': 'export.json', 'x-artifact-content-type': 'application/json' },
  }),
  recordFulfilmentCallback: (r) => ({ json: { manifest: { artifacts: [{ artifactId: r.artifactId }] } } }),
  validateManifest: () => ({ json: { action: 'approved' } }),
  prepareDelivery: () => ({ json: { channel: 'portal', securityLevel: 'token' } }),
  completeStepUpChallenge: () => ({ json: { token: 'not-the-token' } }),
  downloadDeliveredArtifact: () => ({ headers: { 'x-delivery-token': 'not-the-token' } }),
  putRetentionPolicy: () => ({ json: { class: 'delivery_log', legalHoldEnabled: true } }),
  registerCustomPolicyPack: (r) => ({ json: registration(r.packId, '2.0.0', 'major') }),
  approveCustomPolicyPack: (r) => ({ json: { jurisdiction: 'GB', name: r.packId, version: '1.1.0' } }),
  activateCustomPolicyPack: (r) => ({ json: { jurisdiction: 'GB', tenantId: r.tenantId, version: '1.0.0', ...(r.workspaceId ? { workspaceId: r.workspaceId } : {}) } }),
  deactivateCustomPolicyPack: (r) => ({ json: { tenantId: r.tenantId, ...(r.workspaceId ? { workspaceId: r.workspaceId } : {}) } }),
  // A registered version, whether or not an activation (which the matrix itself may end) makes it the one in force.
  getPolicyPack: () => ({ query: 'version=1.0.0' }),
  putDataSystem: () => ({ json: dataSystem() }),
  claimTask: () => ({ json: { worker: 'matrix' } }),
  heartbeatTask: () => ({ json: {}, headers: { 'x-task-token': NOT_THE_TASK_TOKEN } }),
  uploadTaskFile: () => ({
    raw: '{"matrix":true}',
    headers: { 'content-type': 'application/octet-stream', 'x-artifact-filename': 'rows.json', 'x-artifact-content-type': 'application/json', 'x-task-token': NOT_THE_TASK_TOKEN },
  }),
  uploadTaskRows: () => ({ json: { rows: [{ matrix: true }] }, headers: { 'x-task-token': NOT_THE_TASK_TOKEN } }),
  answerTask: () => ({ json: { outcome: 'not_found' }, headers: { 'x-task-token': NOT_THE_TASK_TOKEN } }),
  skipTask: () => ({ json: { reason: 'The matrix skips it.' } }),
  completeTask: () => ({ json: { outcome: 'not_found', evidence: 'The matrix looked.' } }),
};

/** A task token of the right form that is no task's: an allowed caller gets past authorization to 403 SVC-BE-1805. */
const NOT_THE_TASK_TOKEN = `dtt_${'A'.repeat(43)}`;

/** A pull system taking access requests by email (`after`: the system that comes first). */
function dataSystem(after: string[] = []) {
  return {
    displayName: 'Matrix CRM',
    owner: { email: 'crm-owner@example.org' },
    actions: ['access', 'erasure'],
    identityTypes: ['email'],
    mode: 'pull',
    after,
  };
}

/** Routes whose body names the tenant and workspace they act on: they are checked against every owner, like a request. */
const BODY_SCOPED = new Set(['activateCustomPolicyPack', 'deactivateCustomPolicyPack']);

/** Whether the route names something a workspace owns: a request (or a part of one), or a scope in its body. */
const namesWorkspaceResource = (route: GatewayRoute) => paramsOf(route).some((p) => REQUEST_PARAMS.has(p)) || BODY_SCOPED.has(route.operationId);

/**
 * Routes whose path parameter is a name the caller gives in its own tenant, not a resource it finds: a PUT of a data
 * system with another tenant's key registers one under that key in the caller's tenant. They are called on the
 * caller's own; that another tenant's systems stay untouched is checked after the matrix.
 */
const NAMED_BY_CALLER = new Set(['putDataSystem', 'deleteDataSystem']);

/** Whose resources a route is called on: every owner when it names a workspace's, the tenant's and another's when it names a resource of the tenant, else just the caller's tenant. */
function ownersOf(route: GatewayRoute): readonly Owner[] {
  if (NAMED_BY_CALLER.has(route.operationId)) return ['no workspace'];
  if (namesWorkspaceResource(route)) return OWNERS;
  return paramsOf(route).length > 0 ? ['no workspace', 'other tenant'] : ['no workspace'];
}

/** What docs/security.md says the call gets. */
function expectedOutcome(route: GatewayRoute, role: Role, caller: CallerKind, owner: Owner): Outcome {
  if (route.permission === 'public' || !rolesAllow([role], route.permission)) return 'refused (403)';
  if (route.tenantWide && caller !== 'tenant-wide') return 'refused (403)';
  if (owner === 'other tenant') return 'not found (404)';
  if (namesWorkspaceResource(route) && caller !== 'tenant-wide' && owner !== 'workspace north') return 'not found (404)';
  return 'allowed';
}

/**
 * The codes of another tenant's resource: the request's (the gateway's check) and those of the resources the owning
 * service looks up in the caller's tenant itself (a data system, a task).
 */
const NOT_FOUND_CODES = new Set(['SVC-BE-1003', 'SVC-BE-1801', 'SVC-BE-1804']);

/** What the call got: a refusal of authentication or authorization, or anything past them (a 5xx is named, and never expected). */
function outcomeOf(res: ApiResponse): Outcome | string {
  const code = typeof res.body === 'object' && res.body !== null ? (res.body.code as string | undefined) : undefined;
  if (res.status === 401 && code === 'SVC-BE-1301') return 'unauthenticated (401)';
  if (res.status === 403 && code === 'SVC-BE-1302') return 'refused (403)';
  if (res.status === 404 && code !== undefined && NOT_FOUND_CODES.has(code)) return 'not found (404)';
  if (res.status >= 500 || res.body?.name === 'ROUTE_NOT_FOUND') return `${res.status} ${code ?? ''}`.trim();
  return 'allowed';
}

export function authorizationMatrixScenarios(getSystem: () => TestSystem): void {
  const resources = new Map<Owner, Resources>();
  let api: ApiClient;

  const as = (token: string) => new ApiClient(getSystem().gatewayUrl, token);
  const expect2xx = (res: ApiResponse, what: string) => {
    if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** An open request of the maker's scope with a part of every kind, and a closed one with an open appeal. */
  async function requestsOf(maker: ApiClient): Promise<Pick<Resources, 'id' | 'artifactKey' | 'artifactId' | 'eventId' | 'appealRequestId' | 'appealId' | 'taskId'>> {
    const id = expect2xx(await maker.post('/requests', intake()), 'intake').id as string;
    expect2xx(await maker.post(`/requests/${id}/acknowledgements`, {}), 'acknowledgement');
    // The acknowledgement puts the request in progress: it fans out to the tenant's systems.
    const taskId = await waitFor(`a task of ${id}`, async () => ((await maker.get(`/requests/${id}/tasks`)).body.items as Array<{ id: string }> | undefined)?.[0]?.id, { timeoutMs: 20_000 });
    expect2xx(await maker.post(`/requests/${id}/verification/request`, { method: 'document' }), 'verification');
    const evidence = expect2xx(await maker.call('POST', `/api/v1/requests/${id}/verification/evidence/upload`, CALLS.uploadVerificationEvidence({} as Resources)), 'evidence upload');
    const artifact = expect2xx(await maker.call('POST', `/api/v1/requests/${id}/manifest/artifact/upload`, CALLS.uploadManifestArtifact({} as Resources)), 'artifact upload');
    const eventId = await waitFor(`a notification of ${id}`, async () => ((await maker.get(`/requests/${id}/notifications`)).body.events as Array<{ eventId: string }> | undefined)?.[0]?.eventId, {
      timeoutMs: 20_000,
    });
    const appealRequestId = expect2xx(await maker.post('/requests', intake()), 'intake').id as string;
    expect2xx(await maker.post(`/requests/${appealRequestId}/closures`, {}), 'closure');
    const appeal = expect2xx(await maker.post(`/requests/${appealRequestId}/appeals`, { message: 'Please look again.' }), 'appeal');
    return { id, artifactKey: evidence.artifactKey as string, artifactId: artifact.artifactId as string, eventId, appealRequestId, appealId: appeal.appealId as string, taskId };
  }

  /** The tenant's custom pack, activated at 1.0.0 with 1.1.0 registered, and an upgrade proposal to it. */
  async function tenantResourcesOf(admin: ApiClient, tenantId: string): Promise<Pick<Resources, 'tenantId' | 'packId' | 'proposalId' | 'systemKey'>> {
    const packId = `${tenantId}-pack`;
    // Keys of their own per tenant: the other tenant's key must name nothing in the caller's.
    const systemKey = `${tenantId}-crm`;
    expect2xx(await admin.call('PUT', `/api/v1/data-systems/${systemKey}`, { json: dataSystem() }), 'data system');
    expect2xx(await admin.call('PUT', `/api/v1/data-systems/${tenantId}-warehouse`, { json: dataSystem([systemKey]) }), 'data system after it');
    expect2xx(await admin.post('/policies/custom/register', registration(packId, '1.0.0', 'major')), 'registration');
    expect2xx(await admin.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId, version: '1.0.0' }), 'activation');
    expect2xx(await admin.post('/policies/custom/register', registration(packId, '1.1.0', 'minor')), 'registration');
    const proposal = expect2xx(await admin.post('/policies/upgrades/propose', {}), 'proposal');
    return { tenantId, packId, proposalId: proposal.proposalId as string, systemKey };
  }

  beforeAll(async () => {
    api = as(matrixToken('admin', false));
    const north = as(matrixToken('admin', true));
    const southMaker = as(MAKERS[OTHER_WORKSPACE]);
    const otherMaker = as(MAKERS[OTHER_TENANT]);
    const own = await tenantResourcesOf(api, TENANT);
    const other = await tenantResourcesOf(otherMaker, OTHER_TENANT);
    const made = {
      'workspace north': { ...own, workspaceId: WORKSPACE, ...(await requestsOf(north)) },
      'workspace south': { ...own, workspaceId: OTHER_WORKSPACE, ...(await requestsOf(southMaker)) },
      'no workspace': { ...own, ...(await requestsOf(api)) },
      'other tenant': { ...other, ...(await requestsOf(otherMaker)) },
    };
    const checkpoints = await getSystem().services.get('audit-ledger')!.app.get(CheckpointPublisher).run();
    const checkpointOf = (tenantId: string) => {
      const found = checkpoints.find((c) => c.tenantId === tenantId);
      if (!found) throw new Error(`no checkpoint of ${tenantId}`);
      return found.checkpointId;
    };
    for (const owner of OWNERS) {
      const r = made[owner];
      resources.set(owner, { ...r, checkpointId: checkpointOf(r.tenantId) } as Resources);
    }
  });

  const authenticated = ROUTES.filter((r) => r.permission !== 'public');

  it('has a resource for every path parameter of the table', () => {
    const unknown = authenticated.flatMap((r) =>
      paramsOf(r)
        .filter((p) => !REQUEST_PARAMS.has(p) && !TENANT_PARAMS.has(p))
        .map((p) => `${r.method} ${r.path}: :${p}`),
    );
    expect(unknown).toEqual([]);
  });

  it('without a token, every route answers 401', async () => {
    const wrong: string[] = [];
    for (const route of authenticated) {
      const res = await api.call(route.method, `/api/v1${pathFor(route, resources.get('no workspace')!)}`, { token: null });
      if (outcomeOf(res) !== 'unauthenticated (401)') wrong.push(`${route.method} ${route.path}: ${res.status} ${res.body?.code}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every route × every role × {tenant-wide, workspace north} × {workspace north, workspace south, no workspace, other tenant} answers as docs/security.md says', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const route of authenticated) {
      for (const owner of ownersOf(route)) {
        const r = resources.get(owner)!;
        const { query, ...call } = CALLS[route.operationId]?.(r) ?? {};
        const path = `/api/v1${pathFor(route, r)}${query ? `?${query}` : ''}`;
        for (const role of ROLES) {
          for (const confined of [false, true]) {
            const caller: CallerKind = confined ? `workspace ${WORKSPACE}` : 'tenant-wide';
            const res = await as(matrixToken(role, confined)).call(route.method, path, call);
            const expected = expectedOutcome(route, role, caller, owner);
            const got = outcomeOf(res);
            checked++;
            if (got !== expected) wrong.push(`${route.method} ${route.path} | ${role}, ${caller} → ${owner}: expected ${expected}, got ${got} (${res.status} ${res.body?.code ?? ''})`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(authenticated.length * ROLES.length * 2);
  });

  it("leaves the other tenant's data systems as they were: every call named the caller's own", async () => {
    const listed = (await as(MAKERS[OTHER_TENANT]).get('/data-systems')).body.items as Array<{ key: string; version: number }>;
    expect(listed.map((s) => [s.key, s.version])).toEqual([
      [`${OTHER_TENANT}-crm`, 1],
      [`${OTHER_TENANT}-warehouse`, 1],
    ]);
  });
}

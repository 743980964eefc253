export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** How a call sends its body: none, JSON (`optional` when the route takes none as `{}`), or a file streamed raw. */
export type BodyKind = 'none' | 'json' | 'optional-json' | 'upload';

/** One endpoint of the API, as the gateway routes it (path under the base URL, `:name` parameters). */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
  readonly body: BodyKind;
  /** Written against the interface specification before the gateway routes it; until then the server answers 404 `SVC-BE-1002`. */
  readonly pending?: true;
}

const get = (path: string, extra: Partial<Endpoint> = {}): Endpoint => ({ method: 'GET', path, body: 'none', ...extra });
const post = (path: string, body: BodyKind = 'json', extra: Partial<Endpoint> = {}): Endpoint => ({ method: 'POST', path, body, ...extra });
const pending = { pending: true } as const;

/**
 * Every endpoint the CLI calls. The e2e test holds this table to the OpenAPI
 * document (docs/api/openapi.json): each operation there has an entry here
 * with its method and path, and each entry here is either there or `pending`.
 */
export const ENDPOINTS = {
  submitRequest: post('/requests'),
  captureRequest: post('/requests/capture'),
  listRequests: get('/requests'),
  getRequest: get('/requests/:id'),
  getRequestTimeline: get('/requests/:id/timeline'),
  explainRequestClock: get('/requests/:id/clock/explain'),
  pauseRequestClock: post('/requests/:id/clock/pauses'),
  resumeRequestClock: post('/requests/:id/clock/resume', 'optional-json'),
  extendRequestDeadline: post('/requests/:id/extensions', 'optional-json'),
  acknowledgeRequest: post('/requests/:id/acknowledgements', 'optional-json'),
  requestClarification: post('/requests/:id/clarifications/request'),
  receiveClarification: post('/requests/:id/clarifications/receive', 'optional-json'),
  refuseRequest: post('/requests/:id/refusals', 'optional-json'),
  closeRequest: post('/requests/:id/closures', 'optional-json'),
  replaceRequestor: { method: 'PUT', path: '/requests/:id/requestor', body: 'json' },
  submitAuthority: post('/requests/:id/authority/submit'),
  approveAuthority: post('/requests/:id/authority/approve', 'optional-json'),
  rejectAuthority: post('/requests/:id/authority/reject', 'optional-json'),
  fileAppeal: post('/requests/:id/appeals'),
  listAppeals: get('/requests/:id/appeals'),
  decideAppeal: post('/requests/:id/appeals/:appealId/decide'),
  requestVerification: post('/requests/:id/verification/request', 'optional-json'),
  recordVerificationEvidence: post('/requests/:id/verification/evidence'),
  uploadVerificationEvidence: post('/requests/:id/verification/evidence/upload', 'upload'),
  approveVerification: post('/requests/:id/verification/approve', 'optional-json'),
  rejectVerification: post('/requests/:id/verification/reject', 'optional-json'),
  getVerificationCase: get('/requests/:id/verification-case'),
  downloadVerificationEvidence: get('/requests/:id/verification/evidence/:artifactKey/download'),
  getManifest: get('/requests/:id/manifest'),
  uploadManifestArtifact: post('/requests/:id/manifest/artifact/upload', 'upload'),
  downloadManifestArtifact: get('/requests/:id/manifest/artifact/download'),
  replaceManifestArtifact: { method: 'PUT', path: '/requests/:id/manifest/artifact/:artifactId/replace', body: 'upload' },
  validateManifest: post('/requests/:id/manifest/validate'),
  recordFulfilmentCallback: post('/requests/:id/fulfilment/callback'),
  fulfilRequest: post('/requests/:id/fulfilment', 'none'),
  prepareDelivery: post('/requests/:id/delivery/prepare'),
  verifyDeliveryAddress: post('/requests/:id/delivery/address/verify', 'optional-json'),
  issueStepUpChallenge: post('/requests/:id/delivery/step-up/challenge', 'none'),
  completeStepUpChallenge: post('/requests/:id/delivery/step-up/complete'),
  downloadDeliveredArtifact: get('/requests/:id/artifacts/:artifactId/download'),
  getDeliveryLogs: get('/requests/:id/delivery/logs'),
  getNotificationHistory: get('/requests/:id/notifications'),
  replayNotification: post('/requests/:id/notifications/:eventId/replay', 'none'),
  exportAuditChain: get('/requests/:id/audit/export'),
  verifyAuditChain: post('/requests/:id/audit/verify'),
  listAuditCheckpoints: get('/audit/checkpoints'),
  getAuditCheckpoint: get('/audit/checkpoints/:checkpointId'),
  listPolicies: get('/policies'),
  getPolicyPack: get('/policies/:packId'),
  // Policy administration ([policy-admin]): the paths of the interface specification and the issue.
  proposePolicyUpgrade: post('/policies/upgrades/propose', 'optional-json', pending),
  listPolicyUpgrades: get('/policies/upgrades', pending),
  getPolicyUpgrade: get('/policies/upgrades/:proposalId', pending),
  approvePolicyUpgrade: post('/policies/upgrades/:proposalId/approve', 'optional-json', pending),
  applyPolicyUpgrade: post('/policies/upgrades/:proposalId/apply', 'optional-json', pending),
  registerCustomPolicy: post('/policies/custom/register', 'json', pending),
  activateCustomPolicy: post('/policies/custom/activate', 'json', pending),
  deactivateCustomPolicy: post('/policies/custom/deactivate', 'json', pending),
  // Retention ([retention]).
  getRetentionPolicies: get('/tenants/:tenantId/retention'),
  setRetentionPolicy: { method: 'PUT', path: '/tenants/:tenantId/retention', body: 'json' },
  getRetentionReport: get('/tenants/:tenantId/retention/report'),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

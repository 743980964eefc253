export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** How a call sends its body: none, JSON (`optional` when the route takes none as `{}`), or a file streamed raw. */
export type BodyKind = 'none' | 'json' | 'optional-json' | 'upload';

/** One endpoint of the API, as the gateway routes it (path under the base URL, `:name` parameters). */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
  readonly body: BodyKind;
}

const get = (path: string): Endpoint => ({ method: 'GET', path, body: 'none' });
const post = (path: string, body: BodyKind = 'json'): Endpoint => ({ method: 'POST', path, body });

/**
 * Every endpoint the CLI calls. The unit tests (cli.spec.ts) hold this table
 * to the gateway's route table (endpointProblems: each route but the
 * providers' webhooks and the person's download page has an entry here with its method, path and body, and
 * each entry here is a route) and to the OpenAPI document the gateway serves
 * (docs/api/openapi.json). A route added to the table without an entry here
 * fails them.
 */
export const ENDPOINTS = {
  submitRequest: post('/requests'),
  captureRequest: post('/requests/capture'),
  listRequests: get('/requests'),
  getRequest: get('/requests/:idOrReference'),
  getRequestTimeline: get('/requests/:id/timeline'),
  revealRequestor: post('/requests/:id/requestor/reveal'),
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
  correctRequest: post('/requests/:id/corrections'),
  resolveDuplicate: post('/requests/:id/duplicate-resolution'),
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
  fulfilRequest: post('/requests/:id/fulfilment', 'optional-json'),
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
  createAuditCheckpoint: post('/audit/checkpoints', 'optional-json'),
  listAuditSigningKeys: get('/audit/checkpoints/keys'),
  // Who the caller is (the console's header; docs/security.md).
  getSession: get('/session'),
  listPolicies: get('/policies'),
  getPolicyPack: get('/policies/:packId'),
  // Policy administration (docs/policy-packs/README.md): upgrade proposals under four eyes, custom packs.
  proposePolicyUpgrade: post('/policies/upgrades/propose', 'optional-json'),
  listPolicyUpgrades: get('/policies/upgrades'),
  getPolicyUpgrade: get('/policies/upgrades/:proposalId'),
  approvePolicyUpgrade: post('/policies/upgrades/:proposalId/approve', 'none'),
  applyPolicyUpgrade: post('/policies/upgrades/:proposalId/apply', 'none'),
  registerCustomPolicy: post('/policies/custom/register'),
  approveCustomPolicy: post('/policies/custom/approve'),
  activateCustomPolicy: post('/policies/custom/activate'),
  deactivateCustomPolicy: post('/policies/custom/deactivate'),
  // Retention ([retention]).
  getRetentionPolicies: get('/tenants/:tenantId/retention'),
  setRetentionPolicy: { method: 'PUT', path: '/tenants/:tenantId/retention', body: 'json' },
  getRetentionReport: get('/tenants/:tenantId/retention/report'),
  // Data systems and their tasks ([fanout], docs/data-systems.md).
  listDataSystems: get('/data-systems'),
  getDataSystem: get('/data-systems/:systemKey'),
  putDataSystem: { method: 'PUT', path: '/data-systems/:systemKey', body: 'json' },
  deleteDataSystem: { method: 'DELETE', path: '/data-systems/:systemKey', body: 'none' },
  listPendingTasks: get('/data-systems/:systemKey/tasks'),
  claimTask: post('/tasks/:taskId/claim'),
  heartbeatTask: post('/tasks/:taskId/heartbeat', 'optional-json'),
  uploadTaskFile: post('/tasks/:taskId/files', 'upload'),
  uploadTaskRows: post('/tasks/:taskId/rows'),
  answerTask: post('/tasks/:taskId/answer'),
  listRequestTasks: get('/requests/:id/tasks'),
  retryTask: post('/requests/:id/tasks/:taskId/retry', 'optional-json'),
  skipTask: post('/requests/:id/tasks/:taskId/skip'),
  completeTask: post('/requests/:id/tasks/:taskId/complete'),
  // The tenant's figures (docs/lifecycle.md#figures, docs/data-systems.md#figures).
  getRequestStats: get('/stats/requests'),
  getTaskStats: get('/stats/tasks'),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

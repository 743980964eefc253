/**
 * The one catalog of error codes. Every problem+json response carries one of
 * these `code`/`name` pairs; the numbers the interface spec names keep their
 * numbers. Blocks: 10xx general, 11xx input, 12xx fulfilment and artifacts,
 * 13xx authentication and authorization, 14xx lifecycle, 15xx policy and clock, 16xx inbound
 * webhooks, 17xx retention, 18xx data systems and their tasks.
 */
export interface ErrorDefinition {
  readonly code: `SVC-BE-${number}`;
  readonly name: string;
  readonly status: number;
  /**
   * Other statuses the code is answered with in some cases (a ProblemError
   * given one of them); docs/errors.md and the OpenAPI document list them
   * next to `status`.
   */
  readonly otherStatuses?: readonly number[];
  readonly title: string;
  /** When the error is raised, for the docs and the OpenAPI description. */
  readonly meaning: string;
  readonly retryable: boolean;
}

const define = <T extends Record<string, Omit<ErrorDefinition, 'name'>>>(defs: T) =>
  Object.fromEntries(Object.entries(defs).map(([name, d]) => [name, { ...d, name }])) as {
    [K in keyof T]: ErrorDefinition & { name: K };
  };

// The catalog reads as a table: code, status, title and retry flag on one line, the meaning below. Prettier would put
// each field on a line of its own, so it leaves this statement as written.
// prettier-ignore
export const ErrorCatalog = define({
  INTERNAL_ERROR: {
    code: 'SVC-BE-1000', status: 500, title: 'Internal error', retryable: true,
    meaning: 'An unexpected failure; the request id in the body identifies it in the logs.',
  },
  SERVICE_UNAVAILABLE: {
    code: 'SVC-BE-1001', status: 503, title: 'Service unavailable', retryable: true,
    meaning: 'A dependency (database, broker or an internal service) is not reachable right now.',
  },
  ROUTE_NOT_FOUND: {
    code: 'SVC-BE-1002', status: 404, title: 'Route not found', retryable: false,
    meaning: 'No endpoint answers this method and path.',
  },
  RESOURCE_NOT_FOUND: {
    code: 'SVC-BE-1003', status: 404, title: 'Resource not found', retryable: false,
    meaning: 'The addressed resource does not exist, or belongs to another tenant.',
  },
  RATE_LIMITED: {
    code: 'SVC-BE-1004', status: 429, title: 'Too many requests', retryable: true,
    meaning: 'The caller exceeded its rate limit (the gateway\'s calls per minute per caller, its calls without a valid token or webhook deliveries per minute per client address, or DOWNLOAD_REFUSALS_PER_HOUR refused delivery downloads of one request); Retry-After says when to try again.',
  },
  UPSTREAM_TIMEOUT: {
    code: 'SVC-BE-1005', status: 504, title: 'Upstream timeout', retryable: true,
    meaning: 'An internal service did not answer in time.',
  },
  METHOD_NOT_ALLOWED: {
    code: 'SVC-BE-1006', status: 405, title: 'Method not allowed', retryable: false,
    meaning: 'The path exists but does not answer this method; the Allow header lists the methods it does.',
  },
  URI_TOO_LONG: {
    code: 'SVC-BE-1007', status: 414, title: 'URI too long', retryable: false,
    meaning: 'The request target (path and query string) is longer than 8192 characters; it is refused before it is routed or logged.',
  },
  AUDIT_NOTHING_TO_CHECKPOINT: {
    code: 'SVC-BE-1008', status: 409, title: 'Nothing to checkpoint', retryable: false,
    meaning: 'The tenant has no audit chain yet, so there is no chain head for a signed checkpoint to cover; make one after the first request.',
  },
  AUDIT_CHECKPOINTS_OFF: {
    code: 'SVC-BE-1009', status: 503, title: 'Audit checkpoints are off', retryable: false,
    meaning: 'The audit ledger has no signing key (AUDIT_SIGNING_KEY or AUDIT_SIGNING_KEY_FILE), so it makes no signed checkpoints.',
  },
  REQUEST_BODY_INVALID_JSON: {
    code: 'SVC-BE-1101', status: 400, title: 'Request body is not valid JSON', retryable: false,
    meaning: 'A handler expected JSON and the body could not be parsed: malformed, empty or truncated.',
  },
  REQUEST_VALIDATION_FAILED: {
    code: 'SVC-BE-1102', status: 400, title: 'Request validation failed', retryable: false,
    meaning: 'One or more fields are missing or invalid; errors[] names each field.',
  },
  PAYLOAD_TOO_LARGE: {
    code: 'SVC-BE-1103', status: 413, title: 'Payload too large', retryable: false,
    meaning: 'The body exceeds the configured size limit.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    code: 'SVC-BE-1104', status: 415, title: 'Unsupported media type', retryable: false,
    meaning: 'The Content-Type is not accepted by this endpoint.',
  },
  IDEMPOTENCY_KEY_INVALID: {
    code: 'SVC-BE-1105', status: 400, title: 'Idempotency-Key invalid', retryable: false,
    meaning: 'The Idempotency-Key header is empty, longer than 255 characters, or not a string.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    code: 'SVC-BE-1106', status: 422, title: 'Idempotency-Key reused with another request', retryable: false,
    meaning: 'The key was already used for a request with a different method, path or body; use a new key for a new request.',
  },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    code: 'SVC-BE-1107', status: 409, title: 'Request with this Idempotency-Key in progress', retryable: true,
    meaning: 'The first request with this key is still being processed; retry after it finishes to get its response.',
  },
  REQUEST_PATH_INVALID: {
    code: 'SVC-BE-1108', status: 400, title: 'Request path invalid', retryable: false,
    meaning: 'The path has a dot segment (`.` or `..`, also percent-encoded), an encoded slash, a backslash, or a segment that decodes to a control character (`%00`–`%1F`, `%7F`); paths are taken only in their normalized form.',
  },
  CONTENT_ENCODING_UNSUPPORTED: {
    code: 'SVC-BE-1109', status: 415, title: 'Content-Encoding unsupported', retryable: false,
    meaning: 'The body\'s Content-Encoding is not one the service decodes (`gzip`, `deflate` or `identity`, one at most); Accept-Encoding lists those it does.',
  },
  REQUEST_BODY_ENCODING_INVALID: {
    code: 'SVC-BE-1110', status: 400, title: 'Request body encoding invalid', retryable: false,
    meaning: 'The body could not be decoded with its Content-Encoding: it is corrupt or truncated.',
  },
  REQUEST_REFERENCE_AMBIGUOUS: {
    code: 'SVC-BE-1111', status: 409, title: 'Request reference names more than one request', retryable: false,
    meaning: 'Two or more requests the caller may see have ids that start with the reference\'s eight hex digits; `GET /requests?reference=` lists them, and each is opened by its id.',
  },
  REQUEST_IN_TRIAGE: {
    code: 'SVC-BE-1112', status: 409, title: 'Request in triage', retryable: false,
    meaning: 'The request has no type yet (intake left it to an operator, `triage`): what depends on the right asked, its manifest and its fulfilment, waits for it. Name its type with `POST /requests/{id}/corrections` first; the problem names `triageReason` and intake\'s `suggestedType`. Every other step (acknowledgement, verification, clarification, extension, refusal, closure) is allowed.',
  },
  VERIFICATION_EVIDENCE_FILES_SPLIT: {
    code: 'SVC-BE-1114', status: 409, title: 'Evidence names files of several pieces of evidence', retryable: false,
    meaning: 'The uploaded files that `evidenceArtifacts` names belong to more than one piece of evidence (each upload is one): describe each piece in a call of its own; `evidenceIds` lists them.',
  },
  MANIFEST_ARTIFACT_UPLOAD_FAILED: {
    code: 'SVC-BE-1206', status: 400, otherStatuses: [503], title: 'Manifest artifact upload failed', retryable: false,
    meaning: 'The body is empty (400), or storage is not configured or the storage write failed (503, with `Retry-After`).',
  },
  MANIFEST_ARTIFACT_DOWNLOAD_FAILED: {
    code: 'SVC-BE-1207', status: 404, otherStatuses: [410, 503], title: 'Manifest artifact download failed', retryable: false,
    meaning: 'The artifact id (or version) is unknown, belongs to another request or its bytes were purged (404); the tenant\'s data key was destroyed (410); or storage is not configured or the read failed (503, with `Retry-After`).',
  },
  MANIFEST_ARTIFACT_REPLACE_FAILED: {
    code: 'SVC-BE-1208', status: 400, otherStatuses: [404, 503], title: 'Manifest artifact replace failed', retryable: false,
    meaning: 'The body is empty (400); the artifact id is not one of the request\'s artifacts (404); or storage is not configured or the storage write failed (503, with `Retry-After`).',
  },
  FULFILMENT_MANIFEST_NOT_APPROVED: {
    code: 'SVC-BE-1209', status: 409, title: 'Fulfilment manifest not approved', retryable: false,
    meaning: 'Fulfilment requested while a manifest exists and is not approved, or without a manifest for a request type that hands data out (`access`, `portability`); `manifestVersion` and `validationState` say where the manifest stands.',
  },
  FULFILMENT_ARTIFACT_UNKNOWN: {
    code: 'SVC-BE-1210', status: 422, title: 'Fulfilment artifact unknown', retryable: false,
    meaning: 'The fulfilment callback names an `artifactId` that was not uploaded to this request; `artifactIds` lists them.',
  },
  DELIVERY_NOTHING_TO_DELIVER: {
    code: 'SVC-BE-1211', status: 409, title: 'Nothing to deliver', retryable: false,
    meaning: 'Delivery was prepared for a request whose approved manifest has no artifact, or a step-up challenge was asked for before delivery was prepared.',
  },
  MANIFEST_NOT_FOUND: {
    code: 'SVC-BE-1212', status: 404, title: 'Manifest not found', retryable: false,
    meaning: 'The request has no manifest to review: nothing was uploaded and no callback recorded one.',
  },
  MANIFEST_REVIEW_FOUR_EYES: {
    code: 'SVC-BE-1213', status: 403, title: 'Reviewer changed the manifest', retryable: false,
    meaning: 'The tenant requires four eyes: a principal who uploaded or replaced any version of the manifest\'s artifacts, or recorded it with the fulfilment callback, may not review it.',
  },
  STEP_UP_TOKEN_INVALID: {
    code: 'SVC-BE-1214', status: 401, title: 'Step-up token invalid', retryable: false,
    meaning: 'The delivery token is missing, unknown, expired, of another request or of a replaced challenge, or its challenge was not completed.',
  },
  STEP_UP_LOCKED: {
    code: 'SVC-BE-1215', status: 403, title: 'Step-up challenge locked', retryable: false,
    meaning: 'Too many wrong tokens for this request\'s challenge: it is locked; issue a new challenge.',
  },
  MANIFEST_VERSION_CHANGED: {
    code: 'SVC-BE-1216', status: 409, title: 'Manifest changed since it was read', retryable: false,
    meaning: 'A review names a manifest `version` that is not the current one: the manifest changed after the reviewer read it (or the version does not exist yet). `manifestVersion` is the current version; read the manifest again and review that.',
  },
  DELIVERY_LINK_INVALID: {
    code: 'SVC-BE-1217', status: 404, title: 'Delivery link not found', retryable: false,
    meaning: 'No download link of the person\'s page has this id, or the credential sent with it (`x-delivery-link`) is not its credential: the two cannot be told apart. Open the link from the email again, whole.',
  },
  DELIVERY_LINK_EXPIRED: {
    code: 'SVC-BE-1218', status: 410, title: 'Delivery link expired', retryable: false,
    meaning: 'The download link is past its 24 hours, was replaced by a newer link, or its session (`x-portal-session`) ended: the organisation sends a new one on request.',
  },
  DELIVERY_LINK_USED: {
    code: 'SVC-BE-1219', status: 409, title: 'Delivery link already used', retryable: false,
    meaning: 'The link\'s code was already entered: a link opens once, in one browser. The downloads go on there until the session ends; a new link is sent on request.',
  },
  AUTHENTICATION_REQUIRED: {
    code: 'SVC-BE-1301', status: 401, title: 'Authentication required', retryable: false,
    meaning: 'The bearer token is missing, malformed, expired or unknown.',
  },
  PERMISSION_DENIED: {
    code: 'SVC-BE-1302', status: 403, title: 'Permission denied', retryable: false,
    meaning: 'The caller is authenticated but its roles do not allow this action, or the action is tenant-wide and the caller is confined to one workspace.',
  },
  INTERNAL_IDENTITY_INVALID: {
    code: 'SVC-BE-1303', status: 401, title: 'Internal identity invalid', retryable: false,
    meaning: 'An internal call carries identity headers without a valid signature: none, signed with another key, for another request, or outside its validity window.',
  },
  LIFECYCLE_TRANSITION_DISALLOWED: {
    code: 'SVC-BE-1401', status: 409, title: 'Lifecycle transition disallowed', retryable: false,
    meaning: 'The action is not allowed in the request\'s current status; detail names the status and the allowed actions.',
  },
  AUTHORITY_NOT_SUBMITTED: {
    code: 'SVC-BE-1402', status: 409, title: 'Authority not submitted', retryable: false,
    meaning: 'Authority evidence can be approved or rejected only while it is `submitted`; `authorityStatus` gives its status.',
  },
  APPEAL_ALREADY_DECIDED: {
    code: 'SVC-BE-1403', status: 409, title: 'Appeal already decided', retryable: false,
    meaning: 'The appeal has a decision; a decision is final. The requester may file a new appeal.',
  },
  APPEAL_ALREADY_OPEN: {
    code: 'SVC-BE-1404', status: 409, title: 'Appeal already open', retryable: false,
    meaning: 'The request has an appeal waiting for its decision (`appealId`); decide it before another is filed.',
  },
  VERIFICATION_CASE_NOT_FOUND: {
    code: 'SVC-BE-1405', status: 404, title: 'Verification case not found', retryable: false,
    meaning: 'The request has no verification case: none was requested.',
  },
  VERIFICATION_EVIDENCE_UNKNOWN: {
    code: 'SVC-BE-1406', status: 422, title: 'Evidence reference unknown', retryable: false,
    meaning: 'An `artifactKey` in `evidenceArtifacts` names no file uploaded to this request (or one already purged); `artifactKeys` lists them.',
  },
  EVIDENCE_UPLOAD_EMPTY: {
    code: 'SVC-BE-1407', status: 400, title: 'Evidence upload empty', retryable: false,
    meaning: 'The evidence upload has no bytes (a body of 0 bytes). A short file is not empty: it is judged by its type like any other.',
  },
  EVIDENCE_CONTENT_TYPE_NOT_ALLOWED: {
    code: 'SVC-BE-1408', status: 415, title: 'Evidence content type not allowed', retryable: false,
    meaning: 'The file\'s type (`x-evidence-content-type`, or the type recognized from its first bytes) is not on the allow-list; `allowed` lists the types accepted.',
  },
  EVIDENCE_FILE_SHREDDED: {
    code: 'SVC-BE-1409', status: 410, title: 'Evidence file shredded', retryable: false,
    meaning: 'The tenant\'s data key was destroyed (crypto-shredding): the file\'s bytes can no longer be read by anyone.',
  },
  EVIDENCE_CONTENT_MISMATCH: {
    code: 'SVC-BE-1410', status: 422, title: 'Evidence content does not match its type', retryable: false,
    meaning: 'The file\'s first bytes are not those of the type declared in `x-evidence-content-type` (they carry another type\'s signature, or lack the declared type\'s); `declared` names the declared type and `recognized` the type its bytes carry, or null. Nothing was stored.',
  },
  CORRECTION_CHANGES_NOTHING: {
    code: 'SVC-BE-1411', status: 422, title: 'Correction changes nothing', retryable: false,
    meaning: 'A correction names neither a request type nor a jurisdiction, or only the ones the request already has (a second, concurrent submission of a correction already applied is one); `requestType` and `jurisdiction` are the request\'s. Nothing was recorded.',
  },
  CORRECTION_CONFLICTS_WITH_CLOCK: {
    code: 'SVC-BE-1412', status: 422, title: 'Correction conflicts with the clock', retryable: false,
    meaning: 'The corrected request type or jurisdiction falls under rules that refuse the clock\'s history (an extension or clock mode its pack does not allow); `violation` names the rule. Nothing was recorded.',
  },
  DUPLICATE_NOT_MARKED: {
    code: 'SVC-BE-1413', status: 409, title: 'Duplicate not marked', retryable: false,
    meaning: 'The request is not waiting for a duplicate decision: intake did not mark it as a duplicate, or an operator has already decided (a concurrent decision is one; a confirmed duplicate is also refused), whatever its status; `duplicate` is the request\'s duplicate mark, or null. A request still marked but no longer open is a 409 `LIFECYCLE_TRANSITION_DISALLOWED` instead. Nothing was recorded.',
  },
  IDENTITY_NOT_RECOGNISED: {
    code: 'SVC-BE-1414', status: 422, title: 'Identity not recognised', retryable: false,
    meaning: 'The `identity` searched for is well formed text but not an identity of its `identityKind` by the normalisation rules (an email address without one `@` or a domain with a dot, a phone number of no possible length, or a national number without a `jurisdiction` filter naming its country; docs/identity.md#search); `errors` names `identity`, without its value. Nothing was read.',
  },
  JURISDICTION_UNSUPPORTED: {
    code: 'SVC-BE-1501', status: 422, title: 'Jurisdiction not supported', retryable: false,
    meaning: 'No policy pack covers the jurisdiction; `supported` lists the codes that are covered.',
  },
  CLOCK_MODE_NOT_ALLOWED: {
    code: 'SVC-BE-1502', status: 422, title: 'Clock mode not allowed', retryable: false,
    meaning: 'The policy pack does not let the clock start in this mode for the jurisdiction; `allowed` lists the modes it permits.',
  },
  EXTENSION_NOT_AVAILABLE: {
    code: 'SVC-BE-1503', status: 422, title: 'Extension not available', retryable: false,
    meaning: 'The request\'s policy pack allows no extension of the deadline for this request type.',
  },
  EXTENSION_EXCEEDS_MAXIMUM: {
    code: 'SVC-BE-1504', status: 422, title: 'Extension exceeds the maximum', retryable: false,
    meaning: 'The extension, with those already granted, would exceed the pack\'s maximum total or number of extensions; `maximum` gives the limit.',
  },
  EXTENSION_NOTICE_PERIOD_ELAPSED: {
    code: 'SVC-BE-1505', status: 409, title: 'Extension notice period elapsed', retryable: false,
    meaning: 'The window in which the requester had to be told of an extension has closed (`noticeDueAt`); a late notice has no legal effect.',
  },
  CLOCK_ALREADY_PAUSED: {
    code: 'SVC-BE-1506', status: 409, title: 'Clock already paused', retryable: false,
    meaning: 'The request\'s clock is already paused; resume it before pausing it for another reason.',
  },
  CLOCK_NOT_PAUSED: {
    code: 'SVC-BE-1507', status: 409, title: 'Clock not paused', retryable: false,
    meaning: 'The request\'s clock is running, so there is no pause to end.',
  },
  CLOCK_EVENT_OUT_OF_ORDER: {
    code: 'SVC-BE-1508', status: 422, title: 'Clock event out of order', retryable: false,
    meaning: 'The time given (`at`) is before the request\'s receipt or its latest clock event, or in the future.',
  },
  EXTENSION_TERMS_INVALID: {
    code: 'SVC-BE-1509', status: 422, title: 'Extension does not fit the pack', retryable: false,
    meaning: 'The extension is well-formed but not in the terms of the request\'s policy pack: the pack extends in the other unit, sets no default amount, or requires the reasons. `errors` names the field to give.',
  },
  RECEIPT_TIME_INVALID: {
    code: 'SVC-BE-1510', status: 422, title: 'Receipt time invalid', retryable: false,
    meaning: 'A receipt time of the intake (`intakeSource.receivedAt`, `receivedAt`) lies in the future, or the service\'s receipt is before the channel\'s. `errors` names the fields.',
  },
  POLICY_NOTHING_TO_UPGRADE: {
    code: 'SVC-BE-1511', status: 409, title: 'Nothing to upgrade', retryable: false,
    meaning: 'Every pack the tenant uses (built-in pins and custom activations) is already at its newest release (for a custom pack under four eyes, its newest approved version), so there is no upgrade to propose.',
  },
  POLICY_PROPOSAL_STATE_CONFLICT: {
    code: 'SVC-BE-1512', status: 409, title: 'Proposal not in the required state', retryable: false,
    meaning: 'The upgrade proposal is not in the state the step needs: approve needs `pending_approval`, apply needs `approved`. `status` gives the proposal\'s state.',
  },
  POLICY_FOUR_EYES_REQUIRED: {
    code: 'SVC-BE-1513', status: 403, title: 'Approver must differ from proposer', retryable: false,
    meaning: 'The tenant requires four eyes on pack upgrades: the principal who proposed an upgrade cannot approve it. Another principal with `policies:manage` must approve.',
  },
  CUSTOM_PACK_INVALID: {
    code: 'SVC-BE-1514', status: 422, title: 'Custom pack inconsistent', retryable: false,
    meaning: 'The custom pack is well-formed but cannot be used: its `packId` or `version` differs from the body\'s `name` or `version`, it does not cover the body\'s `jurisdiction`, its name is a built-in pack\'s, or a time zone or holiday calendar does not exist. `errors` lists each finding.',
  },
  CUSTOM_PACK_VERSION_NOT_NEWER: {
    code: 'SVC-BE-1515', status: 409, title: 'Custom pack version not newer', retryable: false,
    meaning: 'A custom pack of this name and jurisdiction is already registered at this or a later version; `latest` gives the last registered version. Registered versions are never replaced.',
  },
  CUSTOM_PACK_RELEASE_TYPE_MISMATCH: {
    code: 'SVC-BE-1516', status: 422, title: 'Version bump does not match the release type', retryable: false,
    meaning: 'The step from the last registered version to `version` is not the `metadata.releaseType` declared (a `minor` release must raise MINOR and reset PATCH, and so on); `expected` gives the version that release type leads to.',
  },
  CUSTOM_PACK_LESS_PROTECTIVE: {
    code: 'SVC-BE-1517', status: 422, title: 'Custom pack gives less protection than the law', retryable: false,
    meaning: 'A rule of the custom pack gives the data subject less than the built-in statutory pack for its jurisdiction (a later response deadline, a larger or additional extension, a later acknowledgement). `errors` names each rule with an example receipt date; a shorter service target is always allowed.',
  },
  CUSTOM_PACK_NOT_FOUND: {
    code: 'SVC-BE-1518', status: 404, title: 'Custom pack not registered', retryable: false,
    meaning: 'The tenant has registered no custom pack for this jurisdiction at this version (and name, when one is given).',
  },
  CUSTOM_PACK_AMBIGUOUS: {
    code: 'SVC-BE-1519', status: 409, title: 'More than one custom pack matches', retryable: false,
    meaning: 'The tenant registered custom packs of several names for this jurisdiction and version; give `name` to choose one. `names` lists them.',
  },
  CUSTOM_PACK_NOT_ACTIVE: {
    code: 'SVC-BE-1520', status: 409, title: 'No custom pack active', retryable: false,
    meaning: 'No custom pack is active for this tenant (and workspace, and jurisdiction when given), so there is nothing to deactivate.',
  },
  CUSTOM_PACK_NOT_APPROVED: {
    code: 'SVC-BE-1521', status: 409, title: 'Custom pack version not approved', retryable: false,
    meaning: 'The tenant requires four eyes on policy changes and this custom pack version has not been approved (`POST /policies/custom/approve`) by a principal other than the one who registered it, so it cannot be activated yet. `registeredBy` names the registrant. Nothing changed.',
  },
  CUSTOM_PACK_FOUR_EYES_REQUIRED: {
    code: 'SVC-BE-1522', status: 403, title: 'Approver must differ from registrant', retryable: false,
    meaning: 'The tenant requires four eyes on policy changes: the principal who registered a custom pack version cannot approve it. Another principal with `policies:manage`, not confined to a workspace, must approve.',
  },
  WEBHOOK_SIGNATURE_INVALID: {
    code: 'SVC-BE-1601', status: 401, title: 'Webhook signature invalid', retryable: false,
    meaning: 'An inbound webhook is not signed by its provider: a signature header is missing or malformed, or the signature matches none of the configured secrets (Standard Webhooks `webhook-signature`/`svix-signature` for email, `X-Slack-Signature` for Slack). Nothing is stored.',
  },
  WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE: {
    code: 'SVC-BE-1602', status: 401, title: 'Webhook timestamp out of tolerance', retryable: false,
    meaning: 'The signed timestamp of an inbound webhook (`webhook-timestamp`/`svix-timestamp`, `X-Slack-Request-Timestamp`) is not a number of seconds, or lies more than 5 minutes before or after the service\'s time: a replayed or held-back delivery. Nothing is stored.',
  },
  WEBHOOK_ROUTE_UNKNOWN: {
    code: 'SVC-BE-1603', status: 422, title: 'Inbound message not routed', retryable: false,
    meaning: 'A correctly signed inbound message names no mailbox or Slack team (and channel) of `INBOUND_ROUTES`, so it belongs to no tenant. Nothing is stored; the refusal is logged without personal data.',
  },
  WEBHOOK_NOT_CONFIGURED: {
    code: 'SVC-BE-1604', status: 404, title: 'Webhook not configured', retryable: false,
    meaning: 'The inbound webhook is not enabled in this deployment: its signing secret (`MAIL_WEBHOOK_SECRET`, `SLACK_SIGNING_SECRET`) is not configured, and unsigned deliveries are never taken.',
  },
  DATA_SYSTEM_NOT_FOUND: {
    code: 'SVC-BE-1801', status: 404, title: 'Data system not found', retryable: false,
    meaning: 'The tenant has no data system with this key (or it was deleted) ([data-systems.md](data-systems.md#the-registry)).',
  },
  DATA_SYSTEM_INVALID: {
    code: 'SVC-BE-1802', status: 422, title: 'Data system definition invalid', retryable: false,
    meaning: 'The definition is well formed but does not hold together: the owner names neither an email address nor a Slack channel, an `after` names a system that does not exist or makes a cycle, `webhook` is missing for mode `webhook` or given for another mode, or `sla.timeoutHours` is less than `sla.expectedHours`. `errors` names the field. Nothing is stored.',
  },
  DATA_SYSTEM_IN_USE: {
    code: 'SVC-BE-1803', status: 409, title: 'Data system in use', retryable: false,
    meaning: 'Another data system comes `after` this one: change that system first. The problem\'s `dependants` lists them.',
  },
  TASK_NOT_FOUND: {
    code: 'SVC-BE-1804', status: 404, title: 'Task not found', retryable: false,
    meaning: 'No task of the tenant (or of the request in the path) has this id.',
  },
  TASK_TOKEN_INVALID: {
    code: 'SVC-BE-1805', status: 403, title: 'Task token invalid', retryable: false,
    meaning: 'The `X-Task-Token` header is missing, or is not the token of the task\'s current claim: another task\'s token, a mistyped one, or one superseded by a newer claim (the lease lapsed and another worker took the task). Nothing is changed.',
  },
  TASK_TOKEN_EXPIRED: {
    code: 'SVC-BE-1806', status: 403, title: 'Task token expired', retryable: false,
    meaning: 'The task\'s token has passed its `tokenExpiresAt` (the task\'s timeout). Nothing is changed; an operator can retry the task, which lets it be claimed again.',
  },
  TASK_NOT_CLAIMABLE: {
    code: 'SVC-BE-1807', status: 409, title: 'Task not claimable', retryable: false,
    meaning: 'The task is not queued: another worker holds it under a live lease, it waits for the systems it comes after, or it is settled. The problem\'s `state` says which.',
  },
  TASK_ALREADY_ANSWERED: {
    code: 'SVC-BE-1808', status: 409, title: 'Task already answered', retryable: false,
    meaning: 'The task was settled by another answer; the same answer again is accepted (and changes nothing), a different one is refused. The problem\'s `state` is the task\'s state.',
  },
  TASK_STATE_CONFLICT: {
    code: 'SVC-BE-1809', status: 409, title: 'Task state does not allow this', retryable: false,
    meaning: 'An operator action the task\'s state does not allow: retry a task that is queued, claimed or complete, skip or complete a settled one. The problem\'s `state` and `allowedActions` say what can be done.',
  },
  FULFILMENT_TASKS_OPEN: {
    code: 'SVC-BE-1810', status: 409, title: 'Required data-system tasks are open', retryable: false,
    meaning: 'A data system whose answer is required has not answered the request\'s task (the problem\'s `openTasks`). Wait for it, settle the task (retry, skip with a reason, complete by hand), or fulfil with `override.reason` ([data-systems.md](data-systems.md#the-fulfilment-gate)).',
  },
  ERASURE_NOT_CONFIRMED: {
    code: 'SVC-BE-1811', status: 409, title: 'Erasure not confirmed', retryable: false,
    meaning: 'An erasure request cannot be fulfilled until every required system has confirmed the erasure, found nothing, or been skipped with a reason (the problem\'s `unconfirmed`); an `override.reason` records why it goes ahead without.',
  },
  TASK_ANSWER_INVALID: {
    code: 'SVC-BE-1812', status: 422, title: 'Answer does not fit the task', retryable: false,
    meaning: 'The answer is well formed but not for this task: an erasure task completed without an `erasure` confirmation, files or rows sent for a task that does not ask for access, or a file whose bytes do not match its `X-Content-Sha256`. Nothing is kept.',
  },
  RETENTION_PERIOD_INVALID: {
    code: 'SVC-BE-1701', status: 422, title: 'Retention period invalid', retryable: false,
    meaning: 'The retention policy\'s minimum is longer than its maximum: `minDays` is greater than `maxDays`, as sent or together with the stored value of the field left out. `errors` names the field ([retention.md](retention.md#policies)).',
  },
});

export type ErrorName = keyof typeof ErrorCatalog;

const byCode = new Map<string, ErrorDefinition>(Object.values(ErrorCatalog).map((d) => [d.code, d]));

export function errorByCode(code: string): ErrorDefinition | undefined {
  return byCode.get(code);
}

/** Every status a code is answered with: its own, then its `otherStatuses`. */
export function errorStatuses(def: ErrorDefinition): number[] {
  return [def.status, ...(def.otherStatuses ?? [])];
}

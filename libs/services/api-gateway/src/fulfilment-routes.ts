import { z } from 'zod';
import {
  ARTIFACT_TYPES,
  ARTIFACT_UPLOAD_HEADERS,
  artifactDownloadQuery,
  artifactFilenameHeader,
  artifactTitleHeader,
  artifactReplaced,
  artifactUploaded,
  callbackRecorded,
  type ErrorName,
  fulfilmentCallbackCommand,
  fulfilmentCommand,
  fulfilmentResult,
  MAX_REDACTION_REASON_LENGTH,
  MEDIA_TYPE_HEADER_PATTERN,
  manifestValidateCommand,
  manifestValidated,
  manifestView,
} from '@dsar/contracts';
import { IDEMPOTENCY_ERRORS, LIFECYCLE_ERRORS } from './route-errors';
import type { GatewayRoute, UploadHeader } from './route-types';

/** Errors of an artifact upload or replacement, besides its own code. */
const ARTIFACT_WRITE_ERRORS: ErrorName[] = [
  'REQUEST_VALIDATION_FAILED',
  'RESOURCE_NOT_FOUND',
  'LIFECYCLE_TRANSITION_DISALLOWED',
  // A request in triage has no type yet, so nothing of its manifest can be decided.
  'REQUEST_IN_TRIAGE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'CONTENT_ENCODING_UNSUPPORTED',
  ...IDEMPOTENCY_ERRORS,
];

/** The headers of an upload; a replacement takes the same, its title and type defaulting to the artifact's. */
function artifactHeaders(replacement: boolean): Record<string, UploadHeader> {
  return {
    [ARTIFACT_UPLOAD_HEADERS.filename]: {
      required: true,
      description:
        "The file's name, URL-encoded (UTF-8), not empty or white space alone; directories are dropped, control characters and bidirectional overrides refused, at most 255 bytes. Shown to reviewers and in the download's `Content-Disposition`.",
      schema: artifactFilenameHeader,
    },
    [ARTIFACT_UPLOAD_HEADERS.contentType]: {
      required: true,
      description: "The file's media type, e.g. `application/json` or `application/pdf` (a `charset` parameter is kept); served with the download. The body itself goes as `application/octet-stream`.",
      schema: z.string().regex(MEDIA_TYPE_HEADER_PATTERN, 'must be a media type, e.g. application/json'),
    },
    [ARTIFACT_UPLOAD_HEADERS.title]: {
      required: false,
      description: `A title for reviewers and the data subject, URL-encoded (UTF-8), at most 300 characters, no control characters. Default: ${replacement ? "the artifact's title" : 'the filename'}.`,
      schema: artifactTitleHeader,
    },
    [ARTIFACT_UPLOAD_HEADERS.type]: {
      required: false,
      description: `What the artifact holds: ${ARTIFACT_TYPES.map((t) => `\`${t}\``).join(', ')}. Default: ${replacement ? "the artifact's type" : '`other`'}.`,
      schema: z.enum(ARTIFACT_TYPES),
    },
    ...(replacement
      ? {
          [ARTIFACT_UPLOAD_HEADERS.redactionReason]: {
            required: false,
            description: `Why the file is replaced (what was redacted, on what ground), URL-encoded (UTF-8), at most ${MAX_REDACTION_REASON_LENGTH} characters; control characters and bidirectional overrides refused. Recorded with who replaced it and when in the artifact's \`redactionsApplied\` (\`reason\` null without it).`,
            // The form of a title: URL-encoded text people wrote.
            schema: artifactTitleHeader,
          },
        }
      : {}),
  };
}

/** Public routes of fulfilment-delivery: the manifest, its artifacts and their review, the fulfilment callback and the fulfilment (docs/fulfilment.md). */
export const FULFILMENT_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/requests/:id/manifest',
    service: 'fulfilment-delivery',
    permission: 'requests:read',
    operationId: 'getManifest',
    summary: "The request's fulfilment manifest",
    description:
      'The current manifest: its artifacts (metadata, never bytes, with the versions replacements superseded), data categories, redactions, third-party exclusions, supplementary information, `validationState` and latest review, and the history of every change. A request without a manifest answers 200 with `version` 0, empty lists and `validationState` null.',
    tag: 'Fulfilment',
    response: { status: 200, schema: manifestView, description: 'The manifest.' },
    errors: ['RESOURCE_NOT_FOUND'],
    readYourWrites: true,
  },
  {
    method: 'POST',
    path: '/requests/:id/manifest/artifact/upload',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'uploadManifestArtifact',
    summary: 'Upload an artifact to the manifest',
    description:
      'The body is the file (any size up to ARTIFACT_MAX_BYTES, default 2 GiB), sent as its raw bytes with `application/octet-stream` (a JSON or multipart `Content-Type`, such as `curl -F` sends, is a 415 `SVC-BE-1104`: its type goes in `x-artifact-content-type`), streamed to storage and encrypted at rest; its sha256 and size are recorded. The manifest gets a new version, pending review. Only while the request is open (`received`, `in_progress`, `clarification_pending`, `verification_pending`). Storage not configured or failing: 503 `SVC-BE-1206` with `Retry-After`. With an `Idempotency-Key`, a retry with the same headers and bytes answers the first upload again (same `artifactId` and `artifactKey`, nothing stored); other bytes or headers under the key are a 422 `SVC-BE-1106`, and a retry while the first upload still streams a 409 `SVC-BE-1107`.',
    tag: 'Fulfilment',
    upload: { description: "The artifact's bytes.", headers: artifactHeaders(false) },
    response: { status: 202, schema: artifactUploaded, description: 'The file was stored as a new artifact.' },
    errors: [...ARTIFACT_WRITE_ERRORS, 'MANIFEST_ARTIFACT_UPLOAD_FAILED'],
  },
  {
    method: 'GET',
    path: '/requests/:id/manifest/artifact/download',
    service: 'fulfilment-delivery',
    permission: 'artifacts:read',
    operationId: 'downloadManifestArtifact',
    summary: 'Download an artifact for review',
    description:
      "The current version's bytes (or, with `version`, a replaced version still held), decrypted as they stream, with `Content-Disposition: attachment` (RFC 6266), `ETag` (its sha256), `Range` (206, 416), `If-Range` (the whole file when the tag names other bytes) and `If-None-Match` (304). Never cached. Only operators and admins.",
    tag: 'Fulfilment',
    query: artifactDownloadQuery,
    download: { status: 200, description: "The artifact's file.", headers: {} },
    errors: ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND', 'MANIFEST_ARTIFACT_DOWNLOAD_FAILED'],
    readYourWrites: true,
  },
  {
    method: 'PUT',
    path: '/requests/:id/manifest/artifact/:artifactId/replace',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'replaceManifestArtifact',
    summary: "Replace an artifact's file (e.g. redacted)",
    description:
      "Same headers and body as the upload, and optionally `x-artifact-redaction-reason`. The artifact keeps its id and its display name (`filename`: the upload's file name, which the data subject's download carries; the new version's own is `versionFilename`) and gets a new version with a new `artifactKey` and hash; who replaced it, when and why are recorded in its `redactionsApplied`. The manifest is pending review again: an earlier review shows `outdated: true`. The replaced version can still be downloaded for review (`version`) until the request is fulfilled, when its bytes are purged. An unknown artifact id is a 404 `SVC-BE-1208`.",
    tag: 'Fulfilment',
    upload: { description: "The new version's bytes.", headers: artifactHeaders(true) },
    response: { status: 202, schema: artifactReplaced, description: 'The new version was stored.' },
    errors: [...ARTIFACT_WRITE_ERRORS, 'MANIFEST_ARTIFACT_REPLACE_FAILED'],
  },
  {
    method: 'POST',
    path: '/requests/:id/fulfilment/callback',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'recordFulfilmentCallback',
    summary: 'Record the manifest an upstream system produced',
    description:
      "Creates or updates the manifest: each element of `manifest.artifacts` names an artifact uploaded to this request (an unknown id is a 422 listing them) with the data categories it holds and optionally a better title; the other fields replace the manifest's when given. The manifest gets a new version, pending review. The request is not finalized.",
    tag: 'Fulfilment',
    body: fulfilmentCallbackCommand,
    response: { status: 202, schema: callbackRecorded, description: 'The manifest was recorded, pending review.' },
    errors: [...LIFECYCLE_ERRORS, 'FULFILMENT_ARTIFACT_UNKNOWN', 'REQUEST_IN_TRIAGE'],
  },
  {
    method: 'POST',
    path: '/requests/:id/manifest/validate',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'validateManifest',
    summary: 'Approve or reject the manifest',
    description:
      'Records the reviewer, the time and the manifest version reviewed: `version`, the one the reviewer read (default: the current one). A manifest that changed since is a 409 `SVC-BE-1216` naming the current `manifestVersion`. When the tenant requires four eyes (MANIFEST_FOUR_EYES, FULFILMENT_TENANT_SETTINGS) no principal who uploaded or replaced any version of its artifacts, or recorded it with the callback, may review it: 403 `SVC-BE-1213`. No manifest: 404 `SVC-BE-1212`.',
    tag: 'Fulfilment',
    body: manifestValidateCommand,
    response: { status: 202, schema: manifestValidated, description: 'The review was recorded.' },
    errors: [...LIFECYCLE_ERRORS, 'MANIFEST_NOT_FOUND', 'MANIFEST_REVIEW_FOUR_EYES', 'MANIFEST_VERSION_CHANGED', 'REQUEST_IN_TRIAGE'],
  },
  {
    method: 'POST',
    path: '/requests/:id/fulfilment',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'fulfilRequest',
    summary: 'Fulfil the request',
    description:
      "From `in_progress` to `fulfilled`, with the manifest as it is: it must be approved (409 `SVC-BE-1209`), and an `access` or `portability` request must have one; other request types need none. While a required data system has not answered its task the fulfilment is refused (409 `SVC-BE-1810`), and an erasure request needs every required system's confirmation, not-found or recorded skip (409 `SVC-BE-1811`); `override.reason` goes ahead anyway and is recorded in the audit chain (docs/data-systems.md#the-fulfilment-gate). The body is optional. The replaced versions of the artifacts are purged. Of two fulfilments at once one wins, the other is a 409.",
    tag: 'Fulfilment',
    body: fulfilmentCommand,
    bodyOptional: true,
    response: { status: 202, schema: fulfilmentResult, description: 'The request is fulfilled.' },
    errors: [...LIFECYCLE_ERRORS, 'FULFILMENT_MANIFEST_NOT_APPROVED', 'FULFILMENT_TASKS_OPEN', 'ERASURE_NOT_CONFIRMED', 'REQUEST_IN_TRIAGE'],
  },
];

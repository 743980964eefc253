import { ARTIFACT_TYPES, type ArtifactType, DEFAULT_ARTIFACT_TYPE, MAX_REDACTION_REASON_LENGTH, type ManifestValidationState, type RequestType } from '@dsar/contracts';

/**
 * The rules of a request's fulfilment manifest: which requests need one,
 * when a request may be fulfilled, who may review, and the form of what an
 * artifact upload declares. Pure: the application raises the problems.
 */

/** Request types whose answer hands data out: they are fulfilled with an approved manifest only. */
export const TYPES_WITH_ARTIFACTS: readonly RequestType[] = ['access', 'portability'];

/** The most characters an artifact's title may have (as the callback's `title`). */
export const MAX_TITLE_LENGTH = 300;

export function needsManifest(type: RequestType): boolean {
  return TYPES_WITH_ARTIFACTS.includes(type);
}

/** What fulfilment looks at: the request's type and its manifest (version 0: none yet). */
export interface FulfilmentState {
  requestType: RequestType;
  manifestVersion: number;
  validationState: ManifestValidationState | null;
}

/** Why the request cannot be fulfilled with its manifest as it is, in words; null when it can. */
export function fulfilmentBlocker(state: FulfilmentState): string | null {
  if (state.manifestVersion > 0) {
    return state.validationState === 'approved' ? null : `its manifest (version ${state.manifestVersion}) is ${state.validationState ?? 'pending'}: a reviewer must approve it first`;
  }
  return needsManifest(state.requestType)
    ? `an ${state.requestType} request is fulfilled with an approved manifest, and this one has none: upload its artifacts (or record them with the fulfilment callback) and have them reviewed`
    : null;
}

/** Whether the tenant requires four eyes: its override, else the service's setting. */
export function fourEyesFor(settings: { fourEyes: boolean; tenants: Readonly<Record<string, { fourEyes?: boolean }>> }, tenantId: string): boolean {
  return settings.tenants[tenantId]?.fourEyes ?? settings.fourEyes;
}

/**
 * Whether `reviewer` may review a manifest whose content `authors` made: every principal who uploaded or replaced
 * any version of its artifacts or recorded it with a callback, whenever. Excluding only the last changer would let
 * an author have a colleague make a trivial change and then approve their own upload.
 */
export function mayReview(fourEyes: boolean, authors: readonly string[], reviewer: string): boolean {
  return !fourEyes || !authors.includes(reviewer);
}

/** Why a review that names `seen` cannot be recorded on the manifest at `current`, in words; null when it can (no version named: the current one). */
export function staleReview(seen: number | undefined, current: number): string | null {
  if (seen === undefined || seen === current) return null;
  return seen < current ? `the manifest changed after version ${seen}: it is at version ${current} now` : `the manifest has no version ${seen} yet: it is at version ${current}`;
}

/** The lifecycle-clock idempotency key of a fulfilment: derived from the manifest version and the request's fulfilment round (a request reopened on appeal is fulfilled again). */
export function fulfilmentKey(requestId: string, manifestVersion: number, round: number): string {
  return `fulfilment:${requestId}:v${manifestVersion}:${round}`;
}

/** The type an upload declares (`x-artifact-type`): `other` when absent; undefined when it is none of ARTIFACT_TYPES. */
export function artifactTypeOf(header: string | undefined): ArtifactType | undefined {
  if (header === undefined || header.trim() === '') return DEFAULT_ARTIFACT_TYPE;
  const type = header.trim();
  return (ARTIFACT_TYPES as readonly string[]).includes(type) ? (type as ArtifactType) : undefined;
}

/** A declared media type as stored and served: `type/subtype` lower-cased, with its charset if it names one; undefined when it is not a media type. */
export function artifactContentTypeOf(header: string): string | undefined {
  const [essence, ...params] = header.split(';');
  const type = essence.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type)) return undefined;
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([A-Za-z0-9._:-]{1,40})"?\s*$/i.exec(p)?.[1]).find((c) => c !== undefined);
  return charset ? `${type}; charset=${charset.toLowerCase()}` : type;
}

/** C0 controls, DEL, C1 controls, and the bidirectional overrides that can disguise a name. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_TITLE = /[\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]/;

/**
 * An artifact's title from its header (`x-artifact-title`, URL-encoded UTF-8), trimmed; `fallback` (the
 * filename) when absent or blank. Throws an Error saying why when it cannot be used.
 */
export function artifactTitleOf(header: string | undefined, fallback: string): string {
  if (header === undefined || header.trim() === '') return fallback;
  return headerTextOf(header, MAX_TITLE_LENGTH) ?? fallback;
}

/**
 * Why a replacement was made, from its header (`x-artifact-redaction-reason`, URL-encoded UTF-8), trimmed; null
 * when absent or blank. Throws an Error saying why when it cannot be used.
 */
export function redactionReasonOf(header: string | undefined): string | null {
  if (header === undefined || header.trim() === '') return null;
  return headerTextOf(header, MAX_REDACTION_REASON_LENGTH);
}

/** Text people wrote, sent URL-encoded in a header: decoded, NFC, trimmed; null when blank; an Error when unsafe or too long. */
function headerTextOf(header: string, maxLength: number): string | null {
  let text: string;
  try {
    text = decodeURIComponent(header).normalize('NFC').trim();
  } catch {
    throw new Error('has an invalid percent-encoding (each % must start a valid UTF-8 escape such as %20)');
  }
  if (UNSAFE_TITLE.test(text)) throw new Error('contains control characters or bidirectional text overrides');
  if (text === '') return null;
  if ([...text].length > maxLength) throw new Error(`is longer than ${maxLength} characters`);
  return text;
}

/** The union of category lists, each once, trimmed, in the order first seen. */
export function mergeCategories(...lists: ReadonlyArray<readonly string[]>): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const c of list) if (c.trim() !== '') seen.add(c.trim());
  return [...seen];
}

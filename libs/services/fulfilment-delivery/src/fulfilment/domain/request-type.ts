import type { RequestDetail, RequestType } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';

/**
 * The request's type, for a step that acts on it (a fan-out to the data systems, a manifest, a fulfilment). A request
 * in triage has none yet, and nothing here guesses one: the step is refused with 409 REQUEST_IN_TRIAGE until an
 * operator names the type (docs/lifecycle.md#triage).
 */
export function requireRequestType(detail: Pick<RequestDetail, 'id' | 'status' | 'requestType' | 'triage'>, step: string): RequestType {
  if (detail.requestType !== null) return detail.requestType;
  throw new ProblemError(
    'REQUEST_IN_TRIAGE',
    `Request ${detail.id} is in triage (no request type yet): ${step} waits until an operator names its type with POST /api/v1/requests/${detail.id}/corrections.`,
    undefined,
    { currentStatus: detail.status, triageReason: detail.triage?.reason ?? null, suggestedType: detail.triage?.suggestedType ?? null },
  );
}

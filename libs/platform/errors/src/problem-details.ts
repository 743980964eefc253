import type { ErrorDefinition } from '@dsar/contracts';
import type { FieldProblem } from './domain-error';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 9457 problem details with the product's `code`, `name` and `requestId` members. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  name: string;
  requestId?: string;
  errors?: FieldProblem[];
  [extension: string]: unknown;
}

/** The `type` URI of a code: a stable link into the error reference. */
export function problemTypeUri(def: ErrorDefinition): string {
  return `https://dsar.dev/problems/${def.name.toLowerCase().replace(/_/g, '-')}`;
}

export function problemFrom(
  def: ErrorDefinition,
  init: { detail?: string; instance?: string; requestId?: string; errors?: FieldProblem[]; extensions?: Record<string, unknown>; status?: number },
): ProblemDetails {
  return {
    ...(init.extensions ?? {}),
    type: problemTypeUri(def),
    title: def.title,
    // The entry's status, unless the error was raised with another of its statuses (ProblemError.status).
    status: init.status ?? def.status,
    ...(init.detail ? { detail: init.detail } : {}),
    ...(init.instance ? { instance: init.instance } : {}),
    code: def.code,
    name: def.name,
    ...(init.requestId ? { requestId: init.requestId } : {}),
    ...(init.errors && init.errors.length > 0 ? { errors: init.errors } : {}),
  };
}

import { ErrorCatalog, type ErrorDefinition, type ErrorName, errorStatuses } from '@dsar/contracts';

export interface FieldProblem {
  /** JSON pointer-like path of the field, e.g. `intakeSource.receivedAt`. */
  field: string;
  message: string;
}

/**
 * An error the product means to show to a caller: it carries its catalog
 * entry, a human detail, and optional field problems and extension members.
 * It is answered with the entry's status, or with `status` when given: one
 * of the entry's `otherStatuses` (a code the catalog lets answer with
 * several, e.g. an upload failure that is the caller's 400 or the storage's
 * 503).
 */
export class ProblemError extends Error {
  readonly definition: ErrorDefinition;
  /** The HTTP status of the answer. */
  readonly status: number;

  constructor(
    name: ErrorName,
    readonly detail?: string,
    readonly errors?: FieldProblem[],
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(detail ?? ErrorCatalog[name].title);
    this.definition = ErrorCatalog[name];
    this.name = 'ProblemError';
    // A status the catalog does not list for the code would be answered without the docs saying so: a programming error.
    if (status !== undefined && !errorStatuses(this.definition).includes(status)) {
      throw new Error(`${name} is not answered with ${status}: the catalog lists ${errorStatuses(this.definition).join(', ')}`);
    }
    this.status = status ?? this.definition.status;
  }
}

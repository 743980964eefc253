import { ErrorCatalog, type ErrorDefinition, type ErrorName } from '@dsar/contracts';

export interface FieldProblem {
  /** JSON pointer-like path of the field, e.g. `intakeSource.receivedAt`. */
  field: string;
  message: string;
}

/**
 * An error the product means to show to a caller: it carries its catalog
 * entry, a human detail, and optional field problems and extension members.
 */
export class ProblemError extends Error {
  readonly definition: ErrorDefinition;

  constructor(
    name: ErrorName,
    readonly detail?: string,
    readonly errors?: FieldProblem[],
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? ErrorCatalog[name].title);
    this.definition = ErrorCatalog[name];
    this.name = 'ProblemError';
  }
}

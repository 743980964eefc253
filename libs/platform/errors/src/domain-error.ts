import { ErrorCatalog, type ErrorDefinition, type ErrorName, errorStatuses } from '@dsar/contracts';

export interface FieldProblem {
  /** JSON pointer-like path of the field, e.g. `intakeSource.receivedAt`. */
  field: string;
  message: string;
}

/**
 * The most field problems a problem lists in `errors`. A body with more (40,000 unknown fields fit in a megabyte)
 * gets the first of them and `errorCount`, the number there were: the answer stays a few kilobytes whatever was sent.
 */
export const MAX_LISTED_FIELD_PROBLEMS = 50;
/** The most characters of a field's name a problem repeats: an unknown key may be as long as the body. */
export const MAX_FIELD_NAME_LENGTH = 128;
/** The most characters of a field problem's message (the product's own words; a long list of allowed values is cut). */
const MAX_FIELD_MESSAGE_LENGTH = 512;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** The field problems as a problem lists them: the first MAX_LISTED_FIELD_PROBLEMS, each field's name cut to MAX_FIELD_NAME_LENGTH. */
export function listedFieldProblems(problems: readonly FieldProblem[]): FieldProblem[] {
  return problems.slice(0, MAX_LISTED_FIELD_PROBLEMS).map((p) => ({ field: cut(p.field, MAX_FIELD_NAME_LENGTH), message: cut(p.message, MAX_FIELD_MESSAGE_LENGTH) }));
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
  /** The field problems, as listedFieldProblems lists them. */
  readonly errors?: FieldProblem[];
  /** Extension members; `errorCount` when `errors` lists fewer problems than were given. */
  readonly extensions: Record<string, unknown>;

  constructor(
    name: ErrorName,
    readonly detail?: string,
    errors?: FieldProblem[],
    extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    status?: number,
  ) {
    super(detail ?? ErrorCatalog[name].title);
    this.errors = errors && listedFieldProblems(errors);
    this.extensions = errors && errors.length > MAX_LISTED_FIELD_PROBLEMS ? { ...extensions, errorCount: errors.length } : extensions;
    this.definition = ErrorCatalog[name];
    this.name = 'ProblemError';
    // A status the catalog does not list for the code would be answered without the docs saying so: a programming error.
    if (status !== undefined && !errorStatuses(this.definition).includes(status)) {
      throw new Error(`${name} is not answered with ${status}: the catalog lists ${errorStatuses(this.definition).join(', ')}`);
    }
    this.status = status ?? this.definition.status;
  }
}

import { type z, ZodObject } from 'zod';
import { type FieldProblem, listedFieldProblems, MAX_LISTED_FIELD_PROBLEMS, ProblemError } from '@dsar/platform/errors';

type Issue = z.core.$ZodIssue;

function fieldOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** What a well-formed value of each string format looks like. */
const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  datetime: 'must be an ISO 8601 date-time with a zone, e.g. 2026-03-01T09:30:00Z',
  date: 'must be a date YYYY-MM-DD, e.g. 2026-03-01',
  email: 'must be an email address, e.g. jane@example.org',
  uuid: 'must be a UUID, e.g. 44cec96b-6062-4b16-9782-40f47fc74dc0',
  url: 'must be an absolute URL, e.g. https://example.org/path',
};

/** One plain-language message per problem, naming what was expected rather than zod's internals. */
function messageOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return !('input' in issue) || issue.input === undefined
        ? 'is required'
        : `must be ${issue.expected === 'array' ? 'an array' : `a${/^[aeiou]/.test(issue.expected) ? 'n' : ''} ${issue.expected}`}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      // A contract's own message names the expected form; zod's defaults ("Invalid …") give way to ours.
      if (!/^Invalid\b/.test(issue.message)) return issue.message;
      return FORMAT_MESSAGES[issue.format] ?? (issue.format === 'regex' && 'pattern' in issue ? `must match the pattern ${String(issue.pattern)}` : `must be a valid ${issue.format}`);
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) <= 1
          ? 'must not be empty'
          : `must have at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} items`
          : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string' ? `must have at most ${issue.maximum} characters` : issue.origin === 'array' ? `must have at most ${issue.maximum} items` : `must be at most ${issue.maximum}`;
    default:
      return issue.message;
  }
}

/**
 * zod issues as the `errors[]` of a problem: one entry per field, unknown keys one entry each; at most `limit`
 * entries (a problem lists MAX_LISTED_FIELD_PROBLEMS of them, however many keys an issue names).
 */
export function fieldProblems(issues: readonly Issue[], prefix = '', limit = Number.POSITIVE_INFINITY): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of issues) {
    const base = fieldOf(issue.path);
    const at = (f: string) => [prefix, f].filter(Boolean).join('.') || '(body)';
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, Math.max(0, limit - problems.length))) problems.push({ field: at(base ? `${base}.${key}` : key), message: 'is not a known field' });
    } else if (problems.length < limit) {
      problems.push({ field: at(base), message: messageOf(issue) });
    }
  }
  return problems;
}

/** How many entries fieldProblems makes of `issues` without a limit. */
export function fieldProblemCount(issues: readonly Issue[]): number {
  return issues.reduce((count, issue) => count + (issue.code === 'unrecognized_keys' ? issue.keys.length : 1), 0);
}

/** How many fields of a problem's detail are named; errors[] lists more. */
const FIELDS_NAMED_IN_DETAIL = 10;

/** The detail of a validation problem: how many fields are invalid, and the first of them by name. */
function validationDetail(listed: readonly FieldProblem[], total: number, what: 'body' | 'query'): string {
  const named = listed.slice(0, FIELDS_NAMED_IN_DETAIL).map((e) => e.field);
  const rest = total > named.length ? `, and ${total - named.length} more` : '';
  return `${total === 1 ? 'One field is' : `${total} fields are`} invalid${what === 'query' ? ' in the query' : ''}: ${named.join(', ')}${rest}.`;
}

/**
 * The top-level keys of `value` that a strict object schema does not know, when there are more than a problem lists:
 * then they alone are reported, before zod walks every one of them (and builds a message naming them all).
 */
function tooManyUnknownKeys(schema: z.ZodType, value: unknown): string[] | undefined {
  if (!(schema instanceof ZodObject) || schema.def.catchall?._zod.def.type !== 'never') return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const known = schema.shape as Record<string, unknown>;
  const unknown = Object.keys(value).filter((k) => !Object.hasOwn(known, k));
  return unknown.length > MAX_LISTED_FIELD_PROBLEMS ? unknown : undefined;
}

/**
 * Parses external input against its contract. A failure is a 400
 * REQUEST_VALIDATION_FAILED naming each field (the first
 * MAX_LISTED_FIELD_PROBLEMS, with `errorCount` when there were more), and
 * nothing has been done.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: 'body' | 'query' = 'body'): z.output<S> {
  if (what === 'body' && value === undefined) {
    throw new ProblemError('REQUEST_VALIDATION_FAILED', 'A JSON body is required.', [{ field: '(body)', message: 'is required' }]);
  }
  const unknownKeys = tooManyUnknownKeys(schema, value);
  if (unknownKeys) {
    const listed = listedFieldProblems(unknownKeys.slice(0, MAX_LISTED_FIELD_PROBLEMS).map((field) => ({ field, message: 'is not a known field' })));
    throw new ProblemError('REQUEST_VALIDATION_FAILED', validationDetail(listed, unknownKeys.length, what), listed, { errorCount: unknownKeys.length });
  }
  // With the input on each issue, a value of the wrong type ("must be a string") is told apart from a missing one ("is required").
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  // A query parameter is one field however its value is parsed (`status=a,b` is one parameter, not a list of fields).
  const issues = what === 'query' ? result.error.issues.map((i) => (i.code === 'unrecognized_keys' ? i : { ...i, path: i.path.slice(0, 1) })) : result.error.issues;
  const total = fieldProblemCount(issues);
  const listed = listedFieldProblems(fieldProblems(issues, '', MAX_LISTED_FIELD_PROBLEMS));
  throw new ProblemError('REQUEST_VALIDATION_FAILED', validationDetail(listed, total, what), listed, total > listed.length ? { errorCount: total } : {});
}

/** The first of the media types an Accept header names (parameters and q-values aside), if any. */
export function acceptedMediaType(accept: string | undefined, mediaTypes: readonly string[]): string | undefined {
  const named = (accept ?? '').split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  return mediaTypes.find((t) => named.includes(t));
}

/**
 * The body of a command whose fields are all optional: no body at all counts as `{}`, while a body that was sent is
 * validated as it came, so a JSON `null` or a number is refused like any other body that is not an object.
 */
export function optionalBody(body: unknown): unknown {
  return body === undefined ? {} : body;
}

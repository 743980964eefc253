/**
 * What the API said went wrong, as the console shows it: the RFC 9457 problem the gateway answers with
 * (`application/problem+json`, docs/errors.md), or one the console makes up when the answer is not a problem (a proxy's
 * HTML page, no answer at all).
 */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface Problem {
  /** The HTTP status; 0 when no answer came. */
  status: number;
  title: string;
  detail: string | null;
  /** The product's error code (`SVC-BE-1401`); null when the answer was not one of the API's problems. */
  code: string | null;
  errors?: FieldProblem[];
}

/** The most field problems shown: the API caps them too, but the console does not rely on it. */
const MAX_FIELD_PROBLEMS = 20;
/** The longest text taken from an answer: a problem is a few lines, anything longer is cut. */
const MAX_TEXT = 2000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.slice(0, MAX_TEXT) : null;
}

function fieldProblemsOf(value: unknown): FieldProblem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const problems = value
    .filter(isRecord)
    .map((e) => ({ field: textOf(e.field) ?? '', message: textOf(e.message) ?? '' }))
    .filter((e) => e.message !== '')
    .slice(0, MAX_FIELD_PROBLEMS);
  return problems.length > 0 ? problems : undefined;
}

/** A title for an answer that carries none: what the status says. */
export function titleOfStatus(status: number): string {
  if (status === 401) return 'Not signed in';
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Not found';
  if (status === 409) return 'Conflict';
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'The service failed to answer';
  return `The request failed (HTTP ${status})`;
}

/**
 * The problem an error answer carries. A JSON body with a `title` is taken field by field (each checked, nothing
 * else read); any other body (HTML, text, broken JSON) gives a problem made of the status alone: its text is never
 * shown, since it is not the API's word.
 */
export function problemFromResponse(status: number, contentType: string | null, body: string): Problem {
  const fallback: Problem = { status, title: titleOfStatus(status), detail: null, code: null };
  if (!contentType || !/^application\/(?:problem\+)?json\b/i.test(contentType.trim())) return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return fallback;
  }
  if (!isRecord(parsed)) return fallback;
  const title = textOf(parsed.title);
  if (title === null) return fallback;
  const errors = fieldProblemsOf(parsed.errors);
  return {
    status: typeof parsed.status === 'number' && Number.isInteger(parsed.status) ? parsed.status : status,
    title,
    detail: textOf(parsed.detail),
    code: textOf(parsed.code),
    ...(errors ? { errors } : {}),
  };
}

/** The problem of a call that got no answer (the network, a blocked request, an aborted one). */
export function networkProblem(error: unknown): Problem {
  const detail = error instanceof Error && error.message ? error.message.slice(0, MAX_TEXT) : null;
  return { status: 0, title: 'The service could not be reached', detail, code: null };
}

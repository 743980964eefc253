import { networkProblem, type Problem, problemFromResponse } from './problem';
import { randomUuid } from './uuid';

/** An API call's outcome: the answer's body, or the problem the API (or the network) gave. */
export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; problem: Problem };

export interface ApiClientOptions {
  /** Where the API is: `/api/v1` (config.json's `apiBase`). */
  base: string;
  /** The bearer token of the next call, read at each call: a silent renewal replaces it between two. */
  token: () => string | null;
  /** Told of a 401: the session is over (the token expired or was revoked). */
  onUnauthorized?: () => void;
}

type Method = 'GET' | 'POST' | 'PUT';

/**
 * The one client of the public API (`/api/v1`): JSON in and out with the bearer token, an answer's problem parsed
 * into a `Problem`, a fresh `Idempotency-Key` on every POST (so that a retry by the browser or a proxy cannot run an
 * action twice), and nothing cached by the browser (an action's effect shows at the next read).
 */
export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  get<T>(path: string, query?: URLSearchParams): Promise<ApiResult<T>> {
    const search = query && query.toString() !== '' ? `?${query.toString()}` : '';
    return this.call<T>('GET', `${path}${search}`);
  }

  post<T>(path: string, body: unknown): Promise<ApiResult<T>> {
    return this.call<T>('POST', path, body);
  }

  put<T>(path: string, body: unknown): Promise<ApiResult<T>> {
    return this.call<T>('PUT', path, body);
  }

  private async call<T>(method: Method, path: string, body?: unknown): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
    const token = this.options.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST') headers['Idempotency-Key'] = randomUuid();
    let response: Response;
    try {
      response = await fetch(`${this.options.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        redirect: 'error',
      });
    } catch (error) {
      return { ok: false, problem: networkProblem(error) };
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      if (response.status === 401) this.options.onUnauthorized?.();
      return { ok: false, problem: problemFromResponse(response.status, response.headers.get('Content-Type'), text) };
    }
    if (text === '') return { ok: true, status: response.status, data: undefined as T };
    try {
      return { ok: true, status: response.status, data: JSON.parse(text) as T };
    } catch {
      return { ok: false, problem: { status: response.status, title: 'The answer could not be read', detail: 'The service answered with something other than JSON.', code: null } };
    }
  }
}

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

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The one client of the public API (`/api/v1`): JSON in and out (and a file's raw bytes) with the bearer token, an answer's problem parsed
 * into a `Problem`, a fresh `Idempotency-Key` on every write (so that a retry by the browser or a proxy cannot run an
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

  delete<T = undefined>(path: string): Promise<ApiResult<T>> {
    return this.call<T>('DELETE', path);
  }

  /** Sends a file's bytes (`application/octet-stream`) with the headers that say what it is (an upload); the JSON answer. */
  async sendBytes<T>(method: 'POST' | 'PUT', path: string, file: Blob, headers: Record<string, string>): Promise<ApiResult<T>> {
    const response = await this.fetch(method, path, { ...headers, 'Content-Type': 'application/octet-stream' }, file);
    return response instanceof Response ? this.jsonOf<T>(response) : response;
  }

  /** Reads a file's bytes (a download): the file, or the problem. */
  async readBytes(path: string): Promise<ApiResult<Blob>> {
    const response = await this.fetch('GET', path, { Accept: 'application/octet-stream, application/problem+json' });
    if (!(response instanceof Response)) return response;
    if (!response.ok) return this.failureOf(response, await response.text().catch(() => ''));
    return { ok: true, status: response.status, data: await response.blob() };
  }

  private async call<T>(method: Method, path: string, body?: unknown): Promise<ApiResult<T>> {
    const response = await this.fetch(method, path, body === undefined ? {} : { 'Content-Type': 'application/json' }, body === undefined ? undefined : JSON.stringify(body));
    return response instanceof Response ? this.jsonOf<T>(response) : response;
  }

  /** One call with the token, a fresh Idempotency-Key on a write, and nothing cached; a network failure as a problem. */
  private async fetch(method: Method, path: string, headers: Record<string, string>, body?: BodyInit): Promise<Response | ApiResult<never>> {
    const sent: Record<string, string> = { Accept: 'application/json, application/problem+json', ...headers };
    const token = this.options.token();
    if (token) sent.Authorization = `Bearer ${token}`;
    if (method !== 'GET') sent['Idempotency-Key'] = randomUuid();
    try {
      return await fetch(`${this.options.base}${path}`, { method, headers: sent, body, cache: 'no-store', credentials: 'omit', redirect: 'error' });
    } catch (error) {
      return { ok: false, problem: networkProblem(error) };
    }
  }

  private async jsonOf<T>(response: Response): Promise<ApiResult<T>> {
    const text = await response.text().catch(() => '');
    if (!response.ok) return this.failureOf(response, text);
    if (text === '') return { ok: true, status: response.status, data: undefined as T };
    try {
      return { ok: true, status: response.status, data: JSON.parse(text) as T };
    } catch {
      return { ok: false, problem: { status: response.status, title: 'The answer could not be read', detail: 'The service answered with something other than JSON.', code: null } };
    }
  }

  private failureOf(response: Response, text: string): ApiResult<never> {
    if (response.status === 401) this.options.onUnauthorized?.();
    return { ok: false, problem: problemFromResponse(response.status, response.headers.get('Content-Type'), text) };
  }
}

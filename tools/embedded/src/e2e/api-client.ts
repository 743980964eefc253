import { randomUUID } from 'node:crypto';
/** A thin client for tests: every call goes through the gateway's real HTTP surface. */
export interface ApiResponse<T = Record<string, any>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  token?: string | null;
  headers?: Record<string, string>;
  /** A raw body, sent as is (for malformed JSON and other bad input). */
  raw?: string;
  json?: unknown;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  as(token: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    } else if (options.raw !== undefined) {
      body = options.raw;
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as Record<string, any> };
  }

  get(path: string, options?: CallOptions) {
    return this.call('GET', `/api/v1${path}`, options);
  }

  post(path: string, json: unknown, options: CallOptions = {}) {
    return this.call('POST', `/api/v1${path}`, { ...options, json });
  }
}

/** A valid intake payload; override any part. */
export function intake(overrides: Record<string, unknown> = {}, source: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    jurisdiction: 'DE',
    requestType: 'access',
    intakeSource: {
      channel: 'email',
      rawText: 'Please send me a copy of all personal data you hold about me.',
      receivedAt: '2026-03-03T10:00:00Z',
      contact: 'jane@example.org',
      ...source,
    },
    requestor: { type: 'subject', name: 'Jane Doe', email: 'jane@example.org' },
    ...overrides,
  };
}

/**
 * A person of their own for intake(): the requestor and the contact of a new address each call. Requests of one person
 * of the same type and jurisdiction are marked as duplicates of each other (docs/identity.md#duplicates), which a test
 * of something else than duplicates does not want when it records many.
 */
export function ownPerson(): { requestor: Record<string, unknown>; contact: string } {
  const email = `jane.${randomUUID().slice(0, 8)}@example.org`;
  return { requestor: { type: 'subject', name: 'Jane Doe', email }, contact: email };
}

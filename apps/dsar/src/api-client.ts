import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { type Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Endpoint } from './endpoints';
import { ApiError, CliError, EXIT, usage } from './errors';
import { Progress } from './progress';

/** What every call of one command shares: the global flags. */
export interface ClientSettings {
  baseUrl: string;
  token: string | undefined;
  /** Sent as `Idempotency-Key` on POST and PUT; every retry of the call sends the same one. */
  idempotencyKey: string | undefined;
  /** How often a call is tried again after a network error, a 5xx, a 429 or a 409 `SVC-BE-1107`. */
  retries: number;
  verbose: boolean;
  /** Where progress bars go (standard error on a terminal), or nowhere. */
  progressTo: NodeJS.WriteStream | undefined;
  stderr: Writable;
  userAgent: string;
}

/** One call of an endpoint. */
export interface Call {
  endpoint: Endpoint;
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number | undefined>>;
  headers?: Readonly<Record<string, string | undefined>>;
  /** The JSON body: `{}` when left out on a route that needs one, nothing on a route that may go without. */
  json?: unknown;
  /** The file an upload route streams: a path, or `-` for standard input. */
  upload?: string;
  accept?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A successful answer whose body is read as a stream. */
export interface Streamed {
  status: number;
  headers: Headers;
  body: Readable;
}

export interface Saved {
  /** The file written, or `-` for standard output. */
  file: string;
  bytes: number;
  sha256: string;
  status: number;
  headers: Headers;
}

const CHUNK = 256 * 1024;
const MAX_RETRY_AFTER_S = 30;
const RETRYABLE_CODES = new Set(['SVC-BE-1107']); // IDEMPOTENCY_REQUEST_IN_PROGRESS: the first call is still running
/** Query parameters whose values the CLI never prints: a person's email address, phone number or account id (`requests find`). */
const PRIVATE_QUERY = new Set(['identity']);
const REDACTED = '[REDACTED]';

/** The body of one attempt: JSON text, or a file streamed from disk (or standard input). */
type Body = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'file'; path: string; size: number | undefined };

/**
 * The CLI's HTTP client: bearer token, idempotency key, retries, verbose
 * logging (never the token), problem+json errors, and files streamed both
 * ways without being held in memory. It speaks node:http(s) directly:
 * fetch keeps every chunk of a streamed request body until the call ends,
 * so an upload through it grows with the file.
 */
export class ApiClient {
  constructor(private readonly settings: ClientSettings) {}

  /** A JSON answer (null when the body is empty); any error answer is thrown. */
  async call(call: Call): Promise<Answer> {
    const res = await this.send(call);
    const text = await readText(res.body);
    if (text === '') return { status: res.status, headers: res.headers, body: null };
    try {
      return { status: res.status, headers: res.headers, body: JSON.parse(text) as unknown };
    } catch {
      throw CliError.of(
        'CLI-BAD-RESPONSE',
        `${call.endpoint.method} ${this.url(call, true)} answered ${res.status} with a body that is not JSON (${res.headers.get('content-type') ?? 'no content type'})`,
      );
    }
  }

  /** The body of a call, streamed into `out` (or standard output for `-`) and hashed on the way; nothing is held. */
  async save(call: Call, out: string, label: string): Promise<Saved> {
    const res = await this.send(call);
    const total = Number(res.headers.get('content-length')) || undefined;
    const progress = new Progress(label, total, out === '-' ? undefined : this.settings.progressTo);
    const hash = createHash('sha256');
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        progress.add(chunk.length);
        done(null, chunk);
      },
    });
    if (out === '-') {
      try {
        await pipeline(res.body, meter, process.stdout, { end: false });
      } catch (e) {
        // The reader stopped early (`| head`): that ends the download, it does not fail it.
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw networkError(e, this.settings.baseUrl);
        res.body.destroy();
      }
    } else {
      // Written beside the target and renamed when complete: a failed download leaves no partial file behind.
      const partial = `${out}.partial-${process.pid}`;
      try {
        await pipeline(res.body, meter, createWriteStream(partial));
        await rename(partial, out);
      } catch (e) {
        await rm(partial, { force: true });
        throw (e as NodeJS.ErrnoException).syscall && (e as NodeJS.ErrnoException).path
          ? CliError.of('CLI-FILE', `cannot write ${out}: ${(e as Error).message}`)
          : networkError(e, this.settings.baseUrl);
      }
    }
    progress.done();
    return { file: out, bytes, sha256: hash.digest('hex'), status: res.status, headers: res.headers };
  }

  /** The successful answer itself, for a caller that reads its stream. */
  open(call: Call): Promise<Streamed> {
    return this.send(call);
  }

  /** The URL of a call; `shown`: as the CLI prints it (`--verbose`, error messages), a person's identity replaced by [REDACTED]. */
  url(call: Pick<Call, 'endpoint' | 'params' | 'query'>, shown = false): string {
    const path = call.endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = call.params?.[name];
      if (!value) throw usage(`missing <${name}>`);
      return encodeURIComponent(value);
    });
    const search = Object.entries(call.query ?? {})
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([name, value]) => (shown && PRIVATE_QUERY.has(name) ? `${name}=${REDACTED}` : new URLSearchParams({ [name]: String(value) }).toString()))
      .join('&');
    return `${this.settings.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  private async send(call: Call): Promise<Streamed> {
    const { token, retries } = this.settings;
    if (!token) {
      throw CliError.of('CLI-NO-TOKEN', 'no API token: pass --token <token> or set DSAR_TOKEN (with `npm start`, the development key is in .data/dev-token: export DSAR_TOKEN=$(cat .data/dev-token))');
    }
    const url = this.url(call);
    const shown = this.url(call, true);
    const { method } = call.endpoint;
    // A GET or DELETE is idempotent by itself: the gateway honours Idempotency-Key on POST and PUT only.
    const key = method === 'GET' || method === 'DELETE' ? undefined : (this.settings.idempotencyKey ?? (retries > 0 ? randomUUID() : undefined));
    const body = await bodyOf(call);
    const headers = this.headers(call, token, key, body);
    const attempts = 1 + (body.kind === 'file' && body.path === '-' ? 0 : retries);
    for (let attempt = 1; ; attempt++) {
      this.log(`> ${method} ${shown}${key ? `  idempotency-key=${key}` : ''}${attempts > 1 ? `  (attempt ${attempt}/${attempts})` : ''}`);
      const started = performance.now();
      let res: Streamed | undefined;
      let failure: CliError;
      try {
        res = await this.exchange(url, method, headers, body);
        this.log(`< ${res.status} in ${Math.round(performance.now() - started)} ms${logHeader(res, 'x-request-id')}${logHeader(res, 'idempotent-replayed')}`);
        if (res.status < 300) return res;
        failure = await problemOf(res, `${method} ${shown}`);
      } catch (e) {
        if (e instanceof CliError) throw e;
        failure = networkError(e, this.settings.baseUrl);
        this.log(`< ${failure.message} after ${Math.round(performance.now() - started)} ms`);
      }
      const retryable = !res || res.status >= 500 || res.status === 429 || RETRYABLE_CODES.has(failure.code);
      if (!retryable || attempt >= attempts) throw failure;
      const wait = retryDelay(res, attempt);
      this.log(`  retrying in ${wait} ms${key ? ' with the same idempotency key' : ''} (${failure.code})`);
      await sleep(wait);
    }
  }

  private headers(call: Call, token: string, key: string | undefined, body: Body): Record<string, string> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'user-agent': this.settings.userAgent, accept: call.accept ?? 'application/json' };
    for (const [name, value] of Object.entries(call.headers ?? {})) if (value !== undefined) headers[name] = value;
    if (key) headers['idempotency-key'] = key;
    if (body.kind === 'text') {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body.text));
    }
    if (body.kind === 'none' && call.endpoint.method !== 'GET') headers['content-length'] = '0';
    if (body.kind === 'file') headers['content-type'] = 'application/octet-stream';
    if (body.kind === 'file' && body.size !== undefined) headers['content-length'] = String(body.size);
    return headers;
  }

  /** One HTTP exchange: sends the body (a file is streamed from disk as the connection takes it) and resolves with the answer's head. */
  private exchange(url: string, method: string, headers: Record<string, string>, body: Body): Promise<Streamed> {
    const client = url.startsWith('https:') ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(url, { method, headers, agent: false }, (res) => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answer.append(name, v);
        resolve({ status: res.statusCode ?? 0, headers: answer, body: res });
      });
      req.on('error', reject);
      if (body.kind === 'none') req.end();
      else if (body.kind === 'text') req.end(body.text);
      else {
        const progress = new Progress(`upload ${body.path === '-' ? 'stdin' : body.path}`, body.size, this.settings.progressTo);
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            progress.add(chunk.length);
            done(null, chunk);
          },
        });
        const source = body.path === '-' ? process.stdin : createReadStream(body.path, { highWaterMark: CHUNK });
        pipeline(source, meter, req).then(
          () => progress.done(),
          (e: unknown) => {
            progress.done();
            reject(e as Error);
          },
        );
      }
    });
  }

  private log(line: string): void {
    if (this.settings.verbose) this.settings.stderr.write(`${line}\n`);
  }
}

async function bodyOf(call: Call): Promise<Body> {
  switch (call.endpoint.body) {
    case 'none':
      return { kind: 'none' };
    case 'optional-json':
      return call.json === undefined ? { kind: 'none' } : { kind: 'text', text: JSON.stringify(call.json) };
    case 'json':
      return { kind: 'text', text: JSON.stringify(call.json ?? {}) };
    case 'upload':
      if (!call.upload) throw usage('--file is required');
      return { kind: 'file', path: call.upload, size: call.upload === '-' ? undefined : await fileSize(call.upload) };
  }
}

async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function logHeader(res: Streamed, name: string): string {
  const value = res.headers.get(name);
  return value ? `  ${name}=${value}` : '';
}

async function fileSize(path: string): Promise<number> {
  try {
    const s = await stat(path);
    if (!s.isFile()) throw CliError.of('CLI-FILE', `${path} is not a file`);
    return s.size;
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw CliError.of('CLI-FILE', `cannot read ${path}: ${(e as Error).message}`);
  }
}

/** Retry-After (capped), else 200 ms doubling per attempt up to 5 s. */
function retryDelay(res: Streamed | undefined, attempt: number): number {
  const after = Number(res?.headers.get('retry-after'));
  if (Number.isFinite(after) && after > 0) return Math.min(after, MAX_RETRY_AFTER_S) * 1000;
  return Math.min(200 * 2 ** (attempt - 1), 5000);
}

interface Problem {
  code?: unknown;
  title?: unknown;
  detail?: unknown;
  requestId?: unknown;
  errors?: Array<{ field?: unknown; message?: unknown }>;
}

/** The error of a failed answer: its problem+json code and text, with every field problem in the message. */
async function problemOf(res: Streamed, what: string): Promise<CliError> {
  const text = await readText(res.body).catch(() => '');
  let problem: Problem | undefined;
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = undefined;
  }
  if (problem && typeof problem.code === 'string') {
    let message = String(problem.detail ?? problem.title ?? `HTTP ${res.status}`);
    // A field problem that the detail already says (a problem about one field often says it in both) is not repeated.
    const fields = (Array.isArray(problem.errors) ? problem.errors : []).filter((e) => !message.includes(String(e.message))).map((e) => `${String(e.field)}: ${String(e.message)}`);
    if (fields.length > 0) message += ` (${fields.join('; ')})`;
    const requestId = typeof problem.requestId === 'string' ? problem.requestId : (res.headers.get('x-request-id') ?? undefined);
    return new ApiError(problem.code, message, res.status, requestId);
  }
  const excerpt = text.trim().slice(0, 200);
  return CliError.of('CLI-HTTP', `${what} answered ${res.status}${excerpt ? `: ${excerpt}` : ''}`, res.status >= 500 ? EXIT.server : EXIT.api);
}

const NETWORK_CAUSES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS)',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped',
};

/** A failure to talk to the server at all, with what to do about it. */
export function networkError(e: unknown, baseUrl: string): CliError {
  let cause: unknown = e;
  while (cause instanceof Error && cause.cause !== undefined && !(cause as NodeJS.ErrnoException).code) cause = cause.cause;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const what = (code && NETWORK_CAUSES[code]) ?? (cause instanceof Error ? cause.message : String(cause));
  return CliError.of(
    'CLI-NETWORK',
    `cannot reach the DSAR API at ${baseUrl}: ${what}${code ? ` (${code})` : ''}. Is the server running? Start one with \`npm start\`, or point --base-url (DSAR_BASE_URL) at it.`,
  );
}

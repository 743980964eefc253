import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a client saw on one failed attempt. */
export type ClientError = { kind: 'http'; status: number; contentType: string; code?: string; retryAfter?: string; requestId?: string } | { kind: 'network'; message: string } | { kind: 'timeout' };

/** One logical create: its Idempotency-Key, the request it made (once acknowledged) and every failed attempt. */
export interface CreateOutcome {
  key: string;
  id?: string;
  attempts: number;
  errors: ClientError[];
  /** performance.now() of the acknowledgement. */
  acknowledgedAt?: number;
}

export interface SteadyLoadOptions {
  /** New creates started per second. */
  ratePerSecond: number;
  /** Creates in all (the load is bounded). */
  count: number;
  /** An attempt that takes longer counts as a hang. */
  requestTimeoutMs: number;
  /** How long a create keeps retrying its key before it gives up. */
  retryForMs: number;
}

export const DEFAULT_LOAD: SteadyLoadOptions = { ratePerSecond: 20, count: 200, requestTimeoutMs: 10_000, retryForMs: 90_000 };

/** The body of every create: a German access request with a fixed receipt (the clock is not under test here). */
export const CREATE_BODY = {
  jurisdiction: 'DE',
  requestType: 'access',
  intakeSource: { channel: 'api', rawText: 'Please send me a copy of all personal data you hold about me.', receivedAt: '2026-03-02T09:00:00Z' },
};

/** Whether an answer is worth retrying with the same key (what a careful client does). */
function retryable(error: ClientError): boolean {
  if (error.kind !== 'http') return true;
  return error.status >= 500 || error.status === 429 || error.code === 'SVC-BE-1107';
}

/** How long to wait before the next attempt: the server's Retry-After (at most 2 s), else a short back-off. */
function backoffMs(error: ClientError, attempt: number): number {
  if (error.kind === 'http' && error.retryAfter && /^\d+$/.test(error.retryAfter)) return Math.min(Number(error.retryAfter) * 1000, 2000);
  return Math.min(200 * attempt, 1000);
}

/**
 * A client that creates requests at a steady rate, each with its own
 * Idempotency-Key, and retries a failed attempt with the same key and body
 * until it is acknowledged (202) or its retry time runs out. Bounded in count
 * and time; only loopback addresses are targeted by the tests that use it.
 */
export class SteadyLoad {
  readonly outcomes: CreateOutcome[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly options: SteadyLoadOptions = DEFAULT_LOAD,
  ) {}

  /** Runs the whole load; resolves when every create is acknowledged or has given up. */
  async run(): Promise<CreateOutcome[]> {
    const started = performance.now();
    const running: Promise<void>[] = [];
    for (let i = 0; i < this.options.count; i++) {
      const due = started + (i * 1000) / this.options.ratePerSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const outcome: CreateOutcome = { key: `resilience-${randomUUID()}`, attempts: 0, errors: [] };
      this.outcomes.push(outcome);
      running.push(this.create(outcome));
    }
    await Promise.all(running);
    return this.outcomes;
  }

  private async create(outcome: CreateOutcome): Promise<void> {
    const giveUpAt = performance.now() + this.options.retryForMs;
    for (;;) {
      outcome.attempts++;
      const error = await this.attempt(outcome);
      if (!error) return;
      outcome.errors.push(error);
      if (!retryable(error) || performance.now() >= giveUpAt) return;
      await sleep(backoffMs(error, outcome.attempts));
    }
  }

  /** One POST; undefined when acknowledged. */
  private async attempt(outcome: CreateOutcome): Promise<ClientError | undefined> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/api/v1/requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', 'idempotency-key': outcome.key },
        body: JSON.stringify(CREATE_BODY),
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
    } catch (e) {
      const err = e as Error;
      return err.name === 'TimeoutError' ? { kind: 'timeout' } : { kind: 'network', message: String((err.cause as Error | undefined)?.message ?? err.message) };
    }
    const text = await res.text().catch(() => '');
    if (res.status === 202) {
      outcome.id = (JSON.parse(text) as { id: string }).id;
      outcome.acknowledgedAt = performance.now();
      return undefined;
    }
    let problem: { code?: string; requestId?: string } = {};
    try {
      problem = JSON.parse(text) as typeof problem;
    } catch {
      problem = {};
    }
    return {
      kind: 'http',
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      code: problem.code,
      retryAfter: res.headers.get('retry-after') ?? undefined,
      requestId: problem.requestId,
    };
  }
}

/** A short account of the errors clients saw, for the report and for failure messages. */
export function errorSummary(outcomes: CreateOutcome[]): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const e of outcomes.flatMap((o) => o.errors)) {
    const name =
      e.kind === 'http'
        ? `${e.status} ${e.code ?? '?'}${e.contentType.startsWith('application/problem+json') ? '' : ` (${e.contentType || 'no content type'})`}`
        : e.kind === 'network'
          ? `network: ${e.message}`
          : 'timeout';
    summary[name] = (summary[name] ?? 0) + 1;
  }
  return summary;
}

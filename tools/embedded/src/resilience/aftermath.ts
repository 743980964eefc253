import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CREATE_BODY, type CreateOutcome } from './steady-load';

/** What the system holds after a fault, seen through the public API. */
export interface Aftermath {
  /** Keys the client never got acknowledged within its retry time. */
  unacknowledged: string[];
  /** Acknowledged requests that cannot be read back. */
  unreadable: string[];
  /** Requests of the tenant beyond one per acknowledged key (a key that made two requests). */
  extraRequests: number;
  /** Keys whose replay answered another request, or no replay. */
  replayMismatches: string[];
  /** Requests whose audit chain had no `request_created` entry by the deadline. */
  missingChains: string[];
  /** How long after the end of the fault the last chain was seen complete, in ms. */
  chainsCompleteAfterMs: number;
}

async function json(url: string, token: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

/**
 * Checks what the clients were promised: every acknowledged request is
 * readable, no key made two requests (the tenant holds exactly one request per
 * key, and replaying a key answers the same request), and every request's
 * audit chain holds its creation event within `chainBoundMs` of the fault's end.
 * The tenant must hold only this load's requests.
 */
export async function checkAftermath(baseUrl: string, token: string, outcomes: CreateOutcome[], faultEndedAt: number, chainBoundMs: number): Promise<Aftermath> {
  const api = `${baseUrl}/api/v1`;
  const acknowledged = outcomes.filter((o): o is CreateOutcome & { id: string } => o.id !== undefined);
  // The chains first, so that the time they took is measured, not the checks below.
  let pending = acknowledged.map((o) => o.id);
  const deadline = faultEndedAt + chainBoundMs;
  let completeAt = performance.now();
  while (pending.length > 0) {
    const stillPending: string[] = [];
    // All at once: a timeline read waits up to 3 s for the request's newest event, so one round stays that short.
    await inBatches(pending, pending.length, async (id) => {
      const timeline = await json(`${api}/requests/${id}/timeline`, token);
      const events = (timeline.body.events ?? []) as Array<{ eventType: string }>;
      if (timeline.status !== 200 || events[0]?.eventType !== 'request_created') stillPending.push(id);
    });
    pending = stillPending;
    completeAt = performance.now();
    if (pending.length === 0 || completeAt > deadline) break;
    await sleep(250);
  }

  const unreadable: string[] = [];
  await inBatches(acknowledged, 20, async (o) => {
    const read = await json(`${api}/requests/${o.id}`, token);
    if (read.status !== 200 || read.body.id !== o.id) unreadable.push(o.id);
  });

  const total = Number((await json(`${api}/requests?limit=1`, token)).body.total);

  const replayMismatches: string[] = [];
  await inBatches(acknowledged, 20, async (o) => {
    const replay = await json(`${api}/requests`, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': o.key },
      body: JSON.stringify(CREATE_BODY),
    });
    if (replay.status !== 202 || replay.body.id !== o.id || replay.headers.get('idempotent-replayed') !== 'true') replayMismatches.push(o.key);
  });

  return {
    unacknowledged: outcomes.filter((o) => o.id === undefined).map((o) => o.key),
    unreadable,
    extraRequests: total - acknowledged.length,
    replayMismatches,
    missingChains: pending,
    chainsCompleteAfterMs: Math.max(0, Math.round(completeAt - faultEndedAt)),
  };
}

/**
 * The errors clients may see during a fault: a problem+json 503 `SVC-BE-1001`
 * with Retry-After; where a process was killed, connection failures (the whole
 * process behind the port down) and `409 SVC-BE-1107` with Retry-After for the
 * keys whose attempt the crash cut short (until their claim's 15 s lease runs
 * out). Everything else (a 500, a hang, another answer) is listed.
 */
export function unexpectedErrors(outcomes: CreateOutcome[], options: { connectionErrorsAllowed: boolean; inProgressAllowed?: boolean }): string[] {
  const unexpected: string[] = [];
  for (const o of outcomes) {
    for (const e of o.errors) {
      if (e.kind === 'http') {
        const problem = e.contentType.startsWith('application/problem+json') && e.retryAfter !== undefined;
        // A create cut short by a crash holds its key until its claim's lease runs out: retries meanwhile are told so.
        const clean = problem && ((e.status === 503 && e.code === 'SVC-BE-1001') || (options.inProgressAllowed === true && e.status === 409 && e.code === 'SVC-BE-1107'));
        if (!clean) unexpected.push(`${o.key}: ${e.status} ${e.code ?? ''} ${e.contentType} retry-after=${e.retryAfter ?? 'none'}${e.requestId ? ` request ${e.requestId}` : ''}`);
      } else if (e.kind === 'timeout') {
        unexpected.push(`${o.key}: no answer in time (a hang)`);
      } else if (!options.connectionErrorsAllowed) {
        unexpected.push(`${o.key}: ${e.message}`);
      }
    }
  }
  return unexpected;
}

/**
 * The lines of the processes' logs (the `.log` files of `logDir`) that name one of `requestIds`, each cut to 1,000
 * characters and at most 20 in all: when a client saw an unexpected error, the failure message says what the
 * services logged about that request (a CI run keeps no other trace of the processes' output).
 */
export async function logLinesNaming(logDir: string, requestIds: string[]): Promise<string[]> {
  if (requestIds.length === 0) return [];
  const lines: string[] = [];
  for (const file of (await readdir(logDir).catch(() => [] as string[])).filter((f) => f.endsWith('.log')).sort()) {
    const text = await readFile(path.join(logDir, file), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (requestIds.some((id) => line.includes(id))) lines.push(`${file}: ${line.slice(0, 1000)}`);
      if (lines.length >= 20) return lines;
    }
  }
  return lines;
}

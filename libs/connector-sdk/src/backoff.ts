import { setTimeout as delay } from 'node:timers/promises';

/** How a failed call is tried again: `attempts` in all, waiting `baseMs` doubled per attempt up to `maxMs`, with jitter. */
export interface Backoff {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { attempts: 6, baseMs: 250, maxMs: 10_000 };

/**
 * The wait before attempt `attempt + 1`: half the doubled base plus a random part of the other half ("equal jitter"), so that connectors
 * that failed together (the service restarted) do not come back together.
 */
export function backoffDelay(backoff: Backoff, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Waits `ms`, or less when `signal` aborts (then rejects with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : undefined);
}

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns a value that is not undefined/false, then
 * returns it. Tests wait for an observable effect this way instead of
 * sleeping for a guessed time; on timeout the error says what was awaited.
 */
export async function waitFor<T>(
  description: string,
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  { timeoutMs = 30000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false && value !== null) return value as T;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${cause}`);
    }
    await sleep(intervalMs);
  }
}

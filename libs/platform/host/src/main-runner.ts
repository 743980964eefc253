import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '@dsar/platform/config';

/**
 * Sets how far V8's old generation may grow past what the last full GC left before the next one (ADR 0031): a
 * fixed `percent`, instead of V8's own factor, which falls to 1.1–1.3 in a process that streams files (its
 * buffers live outside the heap, so it looks idle) and then runs a full GC every few MiB of a transfer. Called
 * once by a process's entry point, before the services start; 0 leaves V8's choice.
 */
export function tuneHeapGrowth(percent: number | undefined): void {
  if (!percent) return;
  if (!Number.isInteger(percent) || percent < 0 || percent > 400) throw new RangeError('HEAP_GROWING_PERCENT must be an integer from 0 to 400');
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** Ends a process whose start-up failed, with the reason on stderr (never a silent exit). */
export function exitOnStartupFailure(service: string) {
  return (error: unknown): never => {
    const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${service} failed to start: ${message}\n`);
    process.exit(1);
  };
}

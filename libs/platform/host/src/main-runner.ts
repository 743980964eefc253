import { ConfigError } from '@dsar/platform/config';

/** Ends a process whose start-up failed, with the reason on stderr (never a silent exit). */
export function exitOnStartupFailure(service: string) {
  return (error: unknown): never => {
    const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`${service} failed to start: ${message}\n`);
    process.exit(1);
  };
}

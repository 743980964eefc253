/** Where the connector reports what it does. Fields never hold a task token nor an identity's value. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LEVELS)[number];

/** One JSON line per entry on standard error, from `level` up (default `info`); pino and most loggers take the same four calls. */
export function jsonLogger(level: LogLevel = 'info', write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const from = LEVELS.indexOf(level);
  const at =
    (entry: LogLevel) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS.indexOf(entry) >= from) write(`${JSON.stringify({ level: entry, time: new Date().toISOString(), msg: message, ...fields })}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

import type { DestinationStream } from 'pino';

/**
 * How log lines are written (LOG_FORMAT): `json`, one pino JSON object a line, for the service processes and the
 * containers, whose logs a collector reads; `pretty`, one short line a record for a person at a terminal, which
 * `npm start` writes unless told otherwise. Both carry the same redacted record (the formatters of loggerParams run
 * before either is written).
 */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields of a record a pretty line shows in its own way, or not at all. */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'service', 'name', 'context', 'msg', 'req', 'res', 'responseTime', 'err', 'error']);
/** The most a pretty line shows of the other fields: it is for reading, the JSON format keeps everything. */
const MAX_EXTRA_FIELDS = 6;
const MAX_FIELD_TEXT = 120;

const two = (n: number) => String(n).padStart(2, '0');
const clockTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

const fieldText = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_FIELD_TEXT ? `${text.slice(0, MAX_FIELD_TEXT)}…` : text;
};

/**
 * One pino JSON line as a person reads it: `12:00:01 WARN  [context] message method path -> status in 12 ms
 * key=value …`, and an error's type and message. A line that is not JSON is passed through as it is.
 */
export function prettyLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (!record || typeof record !== 'object') return `${line.trimEnd()}\n`;
  const parts: string[] = [];
  if (typeof record.time === 'number') parts.push(clockTime(record.time));
  parts.push((LEVEL_NAMES[Number(record.level)] ?? String(record.level)).padEnd(5));
  if (typeof record.context === 'string') parts.push(`[${record.context}]`);
  if (record.msg !== undefined) parts.push(String(record.msg));
  const req = record.req as { method?: string; url?: string } | undefined;
  const res = record.res as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}${res?.statusCode ? ` -> ${res.statusCode}` : ''}${typeof record.responseTime === 'number' ? ` in ${record.responseTime} ms` : ''}`);
  const error = (record.err ?? record.error) as { type?: string; message?: string } | string | undefined;
  if (typeof error === 'string') parts.push(error);
  else if (error && typeof error === 'object') parts.push(`${error.type ?? 'Error'}: ${error.message ?? ''}`);
  const extra = Object.keys(record).filter((k) => !SHOWN_APART.has(k));
  for (const key of extra.slice(0, MAX_EXTRA_FIELDS)) parts.push(`${key}=${fieldText(record[key])}`);
  if (extra.length > MAX_EXTRA_FIELDS) parts.push(`(+${extra.length - MAX_EXTRA_FIELDS} fields)`);
  return `${parts.join(' ')}\n`;
}

/** A pino destination that writes each record as prettyLogLine does, to `out` (standard output by default). */
export function prettyLogDestination(out: { write(text: string): unknown } = process.stdout): DestinationStream {
  return {
    write(chunk: string) {
      // pino writes one record a call; a chunk may still hold several lines.
      for (const line of chunk.split('\n')) if (line.trim()) out.write(prettyLogLine(line));
    },
  };
}
